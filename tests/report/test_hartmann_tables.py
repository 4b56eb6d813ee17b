"""Hartmann et al. (2026)'s tables and report as entries of workflow/resources/tables.yaml.

Each test renders the real spec entry over tidy rows built from sidecar-shaped records (the
evaluation and ``timing_wg`` stages, through :func:`geobayes.report.tidy.tidy_frame`) and the
real paper-values files, and checks the cells, the bold flags, the paper rows without a result
of ours (Microarray, data sets not run), the comparison counts and the rendered text.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geobayes.report.comparison import comparison_summary
from geobayes.report.paper_values import load_paper_values
from geobayes.report.reproduction_report import reproduction_report_markdown
from geobayes.report.table_spec import read_report_specs, read_table_specs
from geobayes.report.tables import render_latex, render_markdown, table_cells
from geobayes.report.tidy import tidy_frame

RESOURCES = Path(__file__).resolve().parents[2] / "workflow/resources"
SPECS = read_table_specs(RESOURCES / "tables.yaml")
PAPER = load_paper_values([RESOURCES / "paper_values/hartmann2026_table1.csv",
                           RESOURCES / "paper_values/hartmann2026_figures.csv"])
SCALE = {"samples": 100, "repetitions": 3, "reference_draws": 1000}
GLM_MODELS = ("bernreg", "berngp", "poisreg", "poisgp")


def evaluation(posterior, method, repetition, w2, *, n_failed=0, anchor="euclidean", n_samples=100):
    """An evaluation sidecar's fields (workflow/scripts/evaluate.py) that the tidy rows read."""
    return {"stage": "evaluation", "posterior": posterior, "anchor": anchor, "method": method,
            "repetition": repetition, "wasserstein2": w2, "failed_fraction": n_failed / n_samples,
            "n_samples": n_samples, "n_failed": n_failed}


def glm_records(datasets=("ripley",), repetitions=3, wg_w2=None):
    """WG W2 = 1.0, 1.1, 1.2 (2 failed samples in repetition 1, 1 in 2); LA 2.0, 2.1, 2.2; RLA-F 0.1."""
    wg_w2 = wg_w2 or {}
    records = []
    for dataset in datasets:
        for model in GLM_MODELS:
            for method, base in (("wg", 1.0), ("ela", 2.0), ("rla_f", 0.1)):
                for k in range(repetitions):
                    w2 = wg_w2.get(model, base + 0.1 * k) if method == "wg" else base + 0.1 * k
                    records.append((evaluation(f"{dataset}-{model}", method, k, w2,
                                               n_failed={1: 2, 2: 1}.get(k, 0) if method == "wg" else 0), "glm"))
    return records


def squash(text):
    """Markdown with the column padding collapsed to one space."""
    return re.sub(r" +", " ", text)


def cell(cells, **keys):
    hit = cells
    for column, value in keys.items():
        hit = hit[hit[column] == value]
    assert len(hit) == 1, keys
    return hit.iloc[0]


def test_paper_files_hold_table_1_and_the_quoted_numbers():
    table1 = PAPER[PAPER["source"] == "Table 1"]
    assert len(table1) == 6 * 4 * 2 and set(table1["metric"]) == {"wasserstein2"}
    assert set(table1["method"]) == {"wg", "ela"} and (table1["spread_kind"] == "none").all()
    assert cell(table1, posterior="australian-bernreg", method="wg")["mean"] == 1.597
    assert cell(table1, posterior="microarray-poisgp", method="ela")["mean"] == 1.486
    wide = table1.pivot_table(index="posterior", columns="method", values="mean")
    assert int((wide["wg"] < wide["ela"]).sum()) == 24  # the paper: WG wins every cell
    usps = PAPER[PAPER["posterior"] == "usps357-multigp"].set_index(["method", "metric"])["mean"]
    assert (usps["wg", "wasserstein2"], usps["ela", "wasserstein2"]) == (81.617, 99.734)
    # the quoted wall clock (17 min, 3 h) over the quoted 5,000 samples
    assert usps["wg", "seconds_per_sample"] == pytest.approx(17 * 60 / 5000)
    assert usps["nuts", "seconds_per_sample"] == pytest.approx(3 * 3600 / 5000)
    growth = PAPER[PAPER["posterior"] == "sharp2022-growth"].set_index("method")["mean"]
    assert (growth["wg"], growth["ela"]) == (0.516, 0.583)


def test_table_1_cells_bold_unavailable_rows_and_counts():
    spec = SPECS["hartmann2026_table1"]
    cells = table_cells(spec, tidy_frame(glm_records()), PAPER)
    assert len(cells) == 6 * 4 * 2  # every cell of the paper's table, ours or not
    wg = cell(cells, dataset="ripley", family="bern", setting="reg", method="wg")
    assert wg["mean"] == pytest.approx(1.1)
    assert wg["std"] == pytest.approx(np.std([1.0, 1.1, 1.2]))  # population std (ddof 0)
    assert wg["std"] != pytest.approx(np.std([1.0, 1.1, 1.2], ddof=1))
    assert (wg["n_runs"], wg["n_failed"], wg["n_samples"]) == (3, 3, 300)  # failures summed over runs
    assert wg["paper_mean"] == 5.587 and bool(wg["best"])
    la = cell(cells, dataset="ripley", family="pois", setting="gp", method="ela")
    assert la["mean"] == pytest.approx(2.1) and la["n_failed"] == 0 and la["paper_mean"] == 28.420
    assert not bool(la["best"])
    assert "rla_f" not in set(cells["method"])
    # not run here / no source: the paper's value with no result of ours
    aus = cell(cells, dataset="australian", family="bern", setting="gp", method="wg")
    assert aus["n_runs"] == 0 and math.isnan(aus["mean"]) and aus["paper_mean"] == 55.051 and not bool(aus["best"])
    micro = cells[cells["dataset"] == "microarray"]
    assert len(micro) == 8 and (micro["n_runs"] == 0).all() and micro["paper_mean"].notna().all()
    assert cells["outside_spread"].isna().all()  # the paper prints no spread
    counts = comparison_summary(cells, ["dataset", "family", "setting"], {"wasserstein2": "min"}, "method")
    assert counts == {"cells_with_paper": 48, "cells_compared": 0, "cells_inside": 0, "groups_compared": 4,
                      "winners_agree": 4}

    markdown = squash(render_markdown(spec, cells, SCALE))
    assert "3 repetitions of 100 samples against 1,000 NUTS draws" in markdown
    lines = markdown.splitlines()
    ripley_wg = next(line for line in lines if line.startswith("| Ripley (250, 3) WG ours"))
    assert "**1.100 ± 0.082**†" in ripley_wg
    ripley_la = next(line for line in lines if line.startswith("| Ripley (250, 3) LA paper"))
    assert "| 7.835 |" in ripley_la and "| 28.420 |" in ripley_la
    micro_ours = next(line for line in lines if line.startswith("| Microarray (90, 4) WG ours"))
    assert micro_ours.count("| --") == 4
    assert "Microarray has no identified source" in markdown
    assert "Ripley (250, 3), WG, Bernoulli, Regression: 3 of 300 samples failed" in markdown
    latex = render_latex(spec, cells, SCALE)
    assert r"\textbf{1.100 $\pm$ 0.082}$^\dagger$" in latex and r"\toprule" in latex and r"\bottomrule" in latex
    assert "Microarray (90, 4)" in latex and "Bernoulli" in latex and "GLM" in latex


def test_table_1_a_losing_wg_cell_and_a_run_without_w2():
    spec = SPECS["hartmann2026_table1"]
    cells = table_cells(spec, tidy_frame(glm_records(wg_w2={"poisreg": 9.0})), PAPER)
    assert bool(cell(cells, dataset="ripley", family="pois", setting="reg", method="ela")["best"])
    counts = comparison_summary(cells, ["dataset", "family", "setting"], {"wasserstein2": "min"}, "method")
    assert (counts["groups_compared"], counts["winners_agree"]) == (4, 3)
    records = glm_records(repetitions=2)
    records[0] = (evaluation("ripley-bernreg", "wg", 0, float("nan"), n_failed=100), "glm")
    cells = table_cells(spec, tidy_frame(records), PAPER)
    lost = cell(cells, dataset="ripley", family="bern", setting="reg", method="wg")
    assert lost["n_runs"] == 2 and math.isnan(lost["mean"]) and lost["n_failed"] == 102  # shown, never skipped
    assert "n/a†" in render_markdown(spec, cells, SCALE)


def timing_record(posterior="hartmann-rosenbrock", wg=0.002, ela=0.0005, rla_f=0.04, nuts=0.01):
    """A time_wg sidecar (workflow/scripts/time_wg.py): one record per method, WG's ratio on the others."""
    per_method = [{"method": "wg", "fit_s": 0.3, "per_sample_s": wg, "n_failed": 2, "n_samples": 20},
                  {"method": "ela", "fit_s": 0.1, "per_sample_s": ela, "n_failed": 0, "n_samples": 20},
                  {"method": "rla_f", "fit_s": 0.4, "per_sample_s": rla_f, "n_failed": 1, "n_samples": 20},
                  {"method": "nuts", "seconds": nuts * 20, "per_sample_s": nuts, "warmup": 100, "divergences": 4,
                   "n_samples": 20, "n_failed": None}]
    for record in per_method[1:]:
        record["wg_time_ratio"] = wg / record["per_sample_s"]
    return {"stage": "timing_wg", "posterior": posterior, "dim": 2, "samples": 20, "per_method": per_method}


def test_timing_records_are_tidy_rows_per_method():
    tidy = tidy_frame([(timing_record(), "rosenbrock")])
    assert set(tidy["method"]) == {"wg", "ela", "rla_f", "nuts"}
    value = tidy.set_index(["method", "metric"])["value"]
    assert value["wg", "seconds_per_sample"] == 0.002 and value["nuts", "seconds_per_sample"] == 0.01
    assert value["ela", "wg_time_ratio"] == pytest.approx(4.0)
    assert value["rla_f", "wg_time_ratio"] == pytest.approx(0.05)
    assert value["nuts", "wg_time_ratio"] == pytest.approx(0.2)
    assert ("wg", "wg_time_ratio") not in value.index and value["nuts", "divergences"] == 4
    assert value["wg", "fit_seconds"] == 0.3
    counts = tidy.drop_duplicates("method").set_index("method")
    assert (counts.loc["wg", "n_failed"], counts.loc["rla_f", "n_failed"]) == (2, 1)
    assert pd.isna(counts.loc["nuts", "n_failed"]) and (tidy["experiment"] == "rosenbrock").all()
    assert tidy["repetition"].isna().all() and (tidy["anchor"] == "").all()


def test_timing_table_with_the_papers_wall_clock_beneath():
    spec = SPECS["hartmann2026_timing"]
    tidy = tidy_frame([(timing_record(), "rosenbrock"), (timing_record("sharp2022-growth", wg=0.02), "growth")])
    cells = table_cells(spec, tidy, PAPER)
    rosenbrock = cells[cells["posterior"] == "hartmann-rosenbrock"].set_index(["method", "metric"])
    assert rosenbrock.loc[("nuts", "wg_time_ratio"), "mean"] == pytest.approx(0.2)
    assert rosenbrock.loc[("nuts", "divergences"), "mean"] == 4
    assert bool(rosenbrock.loc[("ela", "seconds_per_sample"), "best"])  # LA is the fastest here
    usps = cells[cells["posterior"] == "usps357-multigp"]  # timed only in the paper (not in this run)
    assert set(usps["method"]) == {"wg", "nuts"} and (usps["n_runs"] == 0).all()
    markdown = squash(render_markdown(spec, cells, SCALE))
    row = next(line for line in markdown.splitlines() if line.startswith("| hartmann-rosenbrock ours"))
    assert "| 2.000† | **0.500** | 4.0000 | 40.000† | 0.0500† | 10.000 | 0.2000 | 4 |" in row
    paper = next(line for line in markdown.splitlines() if line.startswith("| usps357-multigp paper"))
    assert "204.000" in paper and "2160.000" in paper


def test_figures_shapes_synthetic_and_failures_tables():
    records = [(evaluation("usps357-multigp", m, k, base + 0.1 * k, n_failed=7 if m == "wg" and k == 0 else 0), "usps")
               for m, base in (("wg", 1.0), ("ela", 2.0)) for k in range(2)]
    records += [(evaluation("sharp2022-growth", m, k, base + 0.1 * k), "growth")
                for m, base in (("wg", 0.5), ("ela", 0.6), ("rla_f", 0.7)) for k in range(2)]
    for experiment, posterior, anchor in (("squiggle", "hartmann-squiggle", "hausdorff"),
                                          ("squiggle", "easy-squiggle", "hausdorff"),
                                          ("funnel", "neal-funnel", "hausdorff"),
                                          ("rosenbrock", "hartmann-rosenbrock", "euclidean"),
                                          ("lingauss", "hartmann-lingauss", "euclidean"),
                                          ("synthetic", "n5-synthbern", "euclidean")):
        records += [(evaluation(posterior, m, k, base + 0.2 * k, anchor=anchor,
                                n_failed=5 if (posterior, m, k) == ("neal-funnel", "rla_f", 0) else 0), experiment)
                    for m, base in (("wg", 1.0), ("ela", 2.0), ("rla_f", 3.0), ("rla_b", 4.0)) for k in range(2)]
    tidy = tidy_frame(records)

    figures = table_cells(SPECS["hartmann2026_figures"], tidy, PAPER)
    usps = cell(figures, experiment="usps", method="wg")
    assert usps["mean"] == pytest.approx(1.05) and usps["paper_mean"] == 81.617 and usps["n_failed"] == 7
    assert cell(figures, experiment="growth", method="ela")["paper_mean"] == 0.583
    assert "rla_f" not in set(figures["method"]) and len(figures) == 4
    text = squash(render_markdown(SPECS["hartmann2026_figures"], figures, SCALE))
    assert "Fig. 2: USPS ours | **1.050 ± 0.050**† | 2.050 ± 0.050 |" in text
    assert "Fig. 4: growth paper | 0.516 | 0.583 |" in text

    shapes = table_cells(SPECS["hartmann2026_shapes"], tidy, PAPER)
    assert list(dict.fromkeys(shapes["posterior"])) == ["hartmann-squiggle", "hartmann-rosenbrock", "neal-funnel",
                                                        "hartmann-lingauss"]
    assert set(shapes["method"]) == {"wg", "ela", "rla_f"}  # the paper's settings and methods only
    text = squash(render_markdown(SPECS["hartmann2026_shapes"], shapes, SCALE))
    assert "| neal-funnel hausdorff | **1.100 ± 0.100** | 2.100 ± 0.100 | 3.100 ± 0.100† |" in text

    synthetic = table_cells(SPECS["hartmann2026_synthetic"], tidy, PAPER)
    assert set(synthetic["posterior"]) == {"n5-synthbern"} and len(synthetic) == 3

    failures = table_cells(SPECS["hartmann2026_failures"], tidy, PAPER)
    funnel = cell(failures, experiment="funnel", method="rla_f")
    assert funnel["mean"] == pytest.approx(0.025) and funnel["n_failed"] == 5 and funnel["n_samples"] == 200
    assert cell(failures, experiment="squiggle", method="rla_b")["n_runs"] == 4  # both squiggle settings
    assert cell(failures, experiment="usps", method="wg")["mean"] == pytest.approx(0.035)


def test_report_lists_every_table_and_the_deviations():
    report = read_report_specs(RESOURCES / "tables.yaml")["hartmann2026"]
    records = glm_records()
    for experiment, posterior in (("usps", "usps357-multigp"), ("growth", "sharp2022-growth"),
                                  ("synthetic", "n5-synthbern"), ("rosenbrock", "hartmann-rosenbrock"),
                                  ("lingauss", "hartmann-lingauss")):
        records += [(evaluation(posterior, m, k, 1.0 + 0.1 * k), experiment) for m in ("wg", "ela") for k in range(2)]
    records += [(evaluation(p, m, k, 1.0, anchor="hausdorff"), e)
                for e, p in (("squiggle", "hartmann-squiggle"), ("funnel", "neal-funnel"))
                for m in ("wg", "ela") for k in range(2)]
    records.append((timing_record(), "rosenbrock"))
    tidy = tidy_frame(records)
    tables = [(SPECS[name], table_cells(SPECS[name], tidy, PAPER)) for name in report.tables]
    with open(RESOURCES / report.deviations, encoding="utf-8") as handle:  # as workflow/scripts/render_report.py
        deviations = [line[2:].strip() for line in handle if line.startswith("- ")]
    assert len(deviations) == 15 and deviations[5].startswith("**Microarray**")
    text = reproduction_report_markdown(report, tables, scale=SCALE, deviations=deviations)
    assert text.startswith("# Reproduction report: Hartmann et al. (2026)")
    for name in report.tables:
        assert f"\n## {name}\n" in text
    assert "Table 1" in text and "| samples | 100 |" in text
    assert "the best method agrees with the paper's in 4 of 4 comparisons" in text
    assert "- **Reference sampler.** NUTS through NumPyro" in text


def test_keep_paper_only_is_validated_and_off_by_default():
    from geobayes.report.table_spec import load_table_specs

    entry = {"caption": "c", "experiments": ["glm"], "rows": [{"column": "posterior"}],
             "metrics": [{"metric": "wasserstein2"}], "paper": ["hartmann2026_table1.csv"]}
    assert not load_table_specs({"tables": {"t": entry}})["t"].keep_paper_only
    with pytest.raises(ValueError, match=r"tables\.t\.keep_paper_only: expected true or false; got 'yes'"):
        load_table_specs({"tables": {"t": {**entry, "keep_paper_only": "yes"}}})
    # without it, a paper cell that has no result of ours is left out
    spec = load_table_specs({"tables": {"t": {**entry, "columns": [{"column": "method"}]}}})["t"]
    cells = table_cells(spec, tidy_frame(glm_records()), PAPER)
    assert set(cells["posterior"]) == {f"ripley-{m}" for m in GLM_MODELS} and (cells["n_runs"] > 0).all()
