"""Tests of geobayes.report.hartmann_report: the reproduction report of Hartmann et al. (2026)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geobayes.report.hartmann_report import (
    aggregate_w2,
    failure_counts,
    hartmann_report_markdown,
    load_figures_paper,
)
from geobayes.report.wg_glm_table import MODEL_CELLS, aggregate_wg_glm, load_table1_paper
from geobayes.report.wg_timing_table import wg_timing_frame

RESOURCES = Path(__file__).resolve().parents[2] / "workflow/resources"
FIGURES = RESOURCES / "paper_values/hartmann2026_figures.csv"
TABLE1 = RESOURCES / "paper_values/hartmann2026_table1.csv"
SCALE = {"samples": 200, "repetitions": 2, "reference_draws": 1000}


def runs(experiment, posterior, methods, anchor="euclidean", seeds=2, failed=None):
    """Rows of a summary: W2 = base + 0.2 * seed, base 1, 2, 3 for the methods in order."""
    failed = failed or {}
    setting, model = posterior.split("-")
    return [{"experiment": experiment, "posterior": posterior, "setting": setting, "model": model, "anchor": anchor,
             "method": method, "seed": seed, "wasserstein1": 0.0, "wasserstein1_first": 0.0,
             "wasserstein2": (k + 1) + 0.2 * seed, "T": 0.0, "n_samples": 100,
             "n_failed": failed.get(method, 0) if seed == 0 else 0, "failed_fraction": 0.0, "mean_steps": 1.0,
             "max_residual": np.nan}
            for k, method in enumerate(methods) for seed in range(seeds)]


@pytest.fixture()
def inputs(tmp_path):
    glm = pd.DataFrame([r for m in MODEL_CELLS for r in runs("glm", f"ripley-{m}", ["wg", "ela"],
                                                             failed={"wg": 4})])
    glm_table = aggregate_wg_glm(glm, load_table1_paper(TABLE1))
    glm_table.to_csv(tmp_path / "wg_glm.csv", index=False)
    usps = pd.DataFrame(runs("usps", "usps357-multigp", ["wg", "ela"], failed={"wg": 7}))
    growth = pd.DataFrame(runs("growth", "sharp2022-growth", ["wg", "ela", "rla_f"]))
    shapes = (runs("squiggle", "hartmann-squiggle", ["wg", "ela", "rla_f", "rla_b"], anchor="hausdorff")
              + runs("squiggle", "easy-squiggle", ["wg", "ela"], anchor="hausdorff")
              + runs("funnel", "neal-funnel", ["wg", "ela", "rla_f"], anchor="hausdorff", failed={"rla_f": 5})
              + runs("rosenbrock", "hartmann-rosenbrock", ["wg", "ela", "rla_f"])
              + runs("lingauss", "hartmann-lingauss", ["wg", "ela", "rla_f"])
              + runs("synthetic", "n5-synthbern", ["wg", "ela", "rla_f"]))
    summaries = pd.concat([glm, usps, growth, pd.DataFrame(shapes)], ignore_index=True)
    timing = wg_timing_frame([{
        "posterior": "hartmann-rosenbrock", "dim": 2, "samples": 20,
        "methods": {m: {"fit_s": 0.1, "sample_s": s * 20, "per_sample_s": s, "compile_s": 1.0, "n_failed": 0}
                    for m, s in (("wg", 0.002), ("ela", 0.001), ("rla_f", 0.01))},
        "nuts": {"seconds": 0.2, "per_sample_s": 0.01, "warmup": 100, "samples": 20, "divergences": 0}}])
    timing.to_csv(tmp_path / "wg_timing.csv", index=False)
    deviations = tmp_path / "deviations.md"
    deviations.write_text("<!-- One deviation per bullet. -->\n## Deviations\n\n- **NumPyro NUTS instead of Stan.** "
                          "Marker text.\n")
    return {"glm_table": pd.read_csv(tmp_path / "wg_glm.csv"), "usps_summary": usps, "growth_summary": growth,
            "paper_figures": load_figures_paper(FIGURES), "timing": pd.read_csv(tmp_path / "wg_timing.csv"),
            "summaries": summaries, "deviations": deviations.read_text(), "scale": SCALE}


def section(text, title):
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_paper_figures_file():
    paper = load_figures_paper(FIGURES)
    assert len(paper) == 6
    usps = paper[paper["experiment"] == "usps"].set_index("method")
    assert usps.loc["wg", "w2"] == 81.617 and usps.loc["la", "w2"] == 99.734
    assert usps.loc["wg", "wg_runtime_s"] == 17 * 60 and usps.loc["wg", "nuts_runtime_s"] == 3 * 3600
    assert paper.loc[paper["method"] == "la", ["wg_runtime_s", "nuts_runtime_s"]].isna().all().all()
    growth = paper[paper["experiment"] == "growth"].set_index("method")["w2"]
    assert (growth["wg"], growth["la"]) == (0.516, 0.583)


def test_paper_figures_file_errors(tmp_path):
    text = FIGURES.read_text()
    bad = tmp_path / "bad.csv"
    bad.write_text(text.replace("usps,la,99.734,,", "usps,la,99.734,5,"))
    with pytest.raises(ValueError, match=r"bad\.csv.*wg row only"):
        load_figures_paper(bad)
    bad.write_text(text.replace("growth,la,", "growth,ela,"))
    with pytest.raises(ValueError, match="'method'"):
        load_figures_paper(bad)


def test_report_sections_and_numbers(inputs):
    text = hartmann_report_markdown(**inputs)
    for title in ("Run scale", "Table 1: Bernoulli and Poisson regressions and latent GPs",
                  "Figs. 2 and 4: USPS multinomial GP and logistic growth",
                  "Fig. 1: synthetic Bernoulli and Poisson regressions", "Fig. 3: Gaussian-manifold shapes",
                  "Time per sample", "Sampler failures", "Deliberate deviations"):
        assert f"\n## {title}\n" in text
    assert text.endswith("\n") and text.startswith("# Reproduction report: Hartmann et al. (2026)")
    assert "| approximation samples per run | 200 |" in text and "| NUTS reference draws | 1,000 |" in text

    table1 = section(text, "Table 1")
    assert "WG's W2 is below LA's in **4 of 4** cells of ours" in table1
    assert "the paper has 4 of 4, and 24 of 24 over its whole Table 1" in table1
    ripley = ("| Ripley | Bernoulli Regression | 1.100 ± 0.100 [4 failed] | 5.587 | 2.100 ± 0.100 | 7.835 "
              "| yes | yes |")
    assert ripley in table1
    assert "| Australian | Bernoulli GLM | not run | 55.051 | not run | 64.308 | — | yes |" in table1
    assert "| Microarray | Poisson GLM | unavailable (no source) | 1.247 |" in table1

    figures = section(text, "Figs. 2 and 4")
    assert "| Fig. 2: USPS 3/5/7, multinomial GP | usps357-multigp (euclidean) | WG | 1.100 ± 0.100 [7 failed] | 2 " \
           "| 81.617 |" in figures
    assert "| LA | 2.100 ± 0.100 | 2 | 0.583 |" in figures
    assert "| Fig. 5: BNN on Snelson's data (push-forward W2) | — | WG | not run | — | 2.932 |" in figures
    assert "1,020 s (≈17 min) | 10,800 s (≈3 h) | 0.094 |" in figures

    shapes = section(text, "Fig. 3")
    assert "hartmann-squiggle | hausdorff | 1.100 ± 0.100 | 2.100 ± 0.100 | 3.100 ± 0.100 |" in shapes
    assert "easy-squiggle" not in shapes and "RLA-B" not in shapes
    assert "neal-funnel | hausdorff | 1.100 ± 0.100 | 2.100 ± 0.100 | 3.100 ± 0.100 [5 failed] |" in shapes
    assert "hartmann-rosenbrock" in shapes and "hartmann-lingauss" in shapes
    assert "n5-synthbern | euclidean |" in section(text, "Fig. 1")

    timing = section(text, "Time per sample")
    assert "| hartmann-rosenbrock | 2 | 20 | 0.0020 | 0.0010 | 0.0100 | 0.0100 | 2 | 0.2 | 0.2 | 0 / 0 / 0 | 0 |" \
        in timing
    assert "faster per sample than NUTS (ratio < 1) on 1 of 1" in timing

    failures = section(text, "Sampler failures")
    assert "| glm | WG | 8 | 800 | 16 | 2 % |" in failures
    assert "| funnel | RLA-F | 2 | 200 | 5 | 2.5 % |" in failures
    assert "| usps | WG | 2 | 200 | 7 | 3.5 % |" in failures

    deviations = section(text, "Deliberate deviations")
    assert "- **NumPyro NUTS instead of Stan.** Marker text." in deviations and "<!--" not in deviations
    assert "\n### Deviations\n" in deviations  # the file's heading sits one level below the report's


def test_empty_deviations_and_missing_columns(inputs):
    text = hartmann_report_markdown(**{**inputs, "deviations": ""})
    assert "None listed (the deviations file is empty)." in text
    with pytest.raises(ValueError, match="wg_timing.csv lacks columns"):
        hartmann_report_markdown(**{**inputs, "timing": inputs["timing"].drop(columns="ratio_wg_nuts")})
    with pytest.raises(ValueError, match="wg_glm.csv lacks columns"):
        hartmann_report_markdown(**{**inputs, "glm_table": inputs["glm_table"].drop(columns="paper_w2")})
    with pytest.raises(ValueError, match="scale"):
        hartmann_report_markdown(**{**inputs, "scale": {}})


def test_aggregate_and_failure_counts(inputs):
    summaries = inputs["summaries"].copy()
    summaries.loc[(summaries["posterior"] == "neal-funnel") & (summaries["method"] == "wg")
                  & (summaries["seed"] == 1), "wasserstein2"] = np.nan
    agg = aggregate_w2(summaries).set_index(["posterior", "method"])
    funnel = agg.loc[("neal-funnel", "wg")]
    assert funnel.w2_mean == pytest.approx(1.0) and funnel.w2_std == 0.0 and funnel.n_runs_without_w2 == 1
    usps = agg.loc[("usps357-multigp", "wg")]
    assert usps.w2_std == pytest.approx(0.1) and usps.n_failed == 7 and usps.n_samples == 200
    counts = failure_counts(summaries).set_index(["experiment", "method"])
    assert counts.loc[("glm", "wg"), "n_failed"] == 16 and counts.loc[("glm", "ela"), "n_failed"] == 0
    assert counts.loc[("squiggle", "wg"), "n_runs"] == 4  # both squiggle settings count as failures
