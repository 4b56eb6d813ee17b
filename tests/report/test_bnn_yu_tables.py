"""Yu et al. (2024) Tables 3 and 5 on the results layer: the paper values (long schema), the
prediction records as tidy rows (NUTS subsets as repetitions) and the spec entries
``yu2024_table3``/``yu2024_table5`` of workflow/resources/tables.yaml rendered by the one renderer."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geobayes.report.paper_values import load_paper_values
from geobayes.report.table_spec import read_table_specs
from geobayes.report.tables import render_latex, render_markdown, table_cells
from geobayes.report.tidy import tidy_frame, tidy_rows

ROOT = Path(__file__).resolve().parents[2]
PAPER_VALUES = ROOT / "workflow/resources/paper_values"
TABLE3 = PAPER_VALUES / "yu2024_table3.csv"
TABLE5 = PAPER_VALUES / "yu2024_table5.csv"
SPECS = read_table_specs(ROOT / "workflow/resources/tables.yaml")
PAPER_TEXT = "../shared/papers/yu2024-rla-fisher-metric.txt"
METHOD_ORDER = ["ela", "rla_b", "rla_blog", "rla_f", "nuts"]
SCALE = {"samples": 500, "repetitions": 3, "reference_draws": 20000}

# ---------------------------------------------------------------- paper values


@pytest.mark.parametrize(("path", "inputs", "table"), [(TABLE3, "raw", "Table 3"), (TABLE5, "standardised", "Table 5")])
def test_paper_tables_have_every_method_and_split(path, inputs, table):
    paper = load_paper_values(path)
    assert set(paper["experiment"]) == {"bnn_yu"} and set(paper["source"]) == {table}
    assert set(paper["posterior"]) == {f"complete_{inputs}-mlp1x10", f"gap_{inputs}-mlp1x10"}
    assert set(paper["metric"]) == {"mse", "nll", "T", "median_seconds_per_sample"}
    for split in ("complete", "gap"):
        block = paper[paper["posterior"] == f"{split}_{inputs}-mlp1x10"]
        for metric in ("mse", "nll"):
            rows = block[block["metric"] == metric]
            assert sorted(rows["method"]) == sorted(METHOD_ORDER)
            assert rows["spread"].notna().all() and set(rows["spread_kind"]) == {"std"}
        for metric in ("T", "median_seconds_per_sample"):  # N/A for ELA and NUTS
            rows = block[block["metric"] == metric]
            assert sorted(rows["method"]) == ["rla_b", "rla_blog", "rla_f"]
            assert rows["spread"].isna().all() and set(rows["spread_kind"]) == {"none"}
    assert len(paper) == 2 * (5 * 2 + 3 * 2)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#") and "Riemannian Laplace Approximation with the Fisher Metric" in lines[0]
    assert f"AISTATS 2024, {table}" in lines[0]
    assert PAPER_TEXT in lines[1] and re.search(r"lines \d+-\d+", lines[1])


def test_paper_values_match_the_notes():
    """Spot checks against ../shared/papers/notes/yu2024-rla-fisher-metric.md, section 2.6."""
    def indexed(path):
        frame = load_paper_values(path)
        frame["split"] = frame["posterior"].str.split("_").str[0]
        return frame.set_index(["split", "method", "metric"])

    raw = indexed(TABLE3)
    assert raw.loc[("complete", "rla_f", "mse"), "mean"] == 0.072
    assert raw.loc[("complete", "rla_f", "mse"), "spread"] == 0.0
    assert raw.loc[("complete", "rla_f", "T"), "mean"] == 242.9
    assert raw.loc[("complete", "rla_f", "median_seconds_per_sample"), "mean"] == 0.8
    assert raw.loc[("complete", "ela", "nll"), "mean"] == 3.02
    assert raw.loc[("gap", "rla_b", "mse"), "mean"] == 1.646 and raw.loc[("gap", "rla_b", "mse"), "spread"] == 2.722
    assert raw.loc[("gap", "rla_blog", "T"), "mean"] == 4793.9
    assert raw.loc[("gap", "nuts", "nll"), "mean"] == 0.872
    std = indexed(TABLE5)
    assert std.loc[("gap", "nuts", "nll"), "mean"] == 0.684 and std.loc[("gap", "nuts", "nll"), "spread"] == 0.017
    assert std.loc[("complete", "rla_f", "T"), "mean"] == 77.7
    assert std.loc[("complete", "rla_b", "nll"), "mean"] == 0.11
    assert std.loc[("gap", "rla_f", "median_seconds_per_sample"), "mean"] == 0.3
    assert std.loc[("complete", "ela", "mse"), "mean"] == 0.718


# ---------------------------------------------------------------- tidy rows of the prediction records


def prediction_record(posterior, method, seed, mse, nll, T, n_failed=0):
    return {"stage": "prediction", "posterior": posterior, "anchor": "euclidean", "method": method,
            "repetition": seed, "mse": mse, "nll": nll, "T": T, "n_samples": 500, "n_failed": n_failed}


def nuts_record(posterior, mse, nll):
    return {"stage": "prediction", "posterior": posterior, "method": "nuts", "mse": mse, "nll": nll,
            "n_samples": 20000, "n_failed": 0, "subset_size": 500}


def test_nuts_subsets_become_repetitions():
    rows = tidy_rows(nuts_record("gap_raw-mlp1x10", [0.4, 0.5], [0.9, 1.0]), "bnn_yu")
    assert [(r["repetition"], r["metric"], r["value"]) for r in rows] == [
        (0, "mse", 0.4), (1, "mse", 0.5), (0, "nll", 0.9), (1, "nll", 1.0)]
    assert all(r["anchor"] == "" and r["n_failed"] == 0 for r in rows)
    with pytest.raises(ValueError, match="'mse' is a list, but the record has repetition 3"):
        tidy_rows({**nuts_record("gap_raw-mlp1x10", [0.4], [0.9]), "repetition": 3}, "bnn_yu")


def test_prediction_and_timing_records_tidy():
    record = prediction_record("gap_raw-mlp1x10", "rla_f", 2, 0.5, 1.1, 240.0, n_failed=3)
    rows = tidy_rows(record, "bnn_yu")
    assert {r["metric"]: r["value"] for r in rows} == {"mse": 0.5, "nll": 1.1, "T": 240.0}
    assert all(r["repetition"] == 2 and r["n_failed"] == 3 and r["anchor"] == "euclidean" for r in rows)
    timing = {"stage": "timing", "posterior": "gap_raw-mlp1x10", "method": "rla_f", "per_sample_s": 0.6,
              "per_sample_median_s": 0.5, "batched_s_per_sample": 0.01, "ratio": 60.0}
    metrics = {r["metric"]: r["value"] for r in tidy_rows(timing, "bnn_yu")}
    assert metrics["median_seconds_per_sample"] == 0.5 and metrics["seconds_per_sample"] == 0.6


# ---------------------------------------------------------------- the tables


def make_tidy(inputs="raw", methods=("nuts", "rla_f", "ela", "rla_b", "rla_blog"), seeds=3, failures=None):
    """Records deliberately not in the paper's method order; mse = 0.07 + 0.01 k + 0.001 seed."""
    failures = failures or {}
    records = []
    for split in ("gap", "complete"):
        posterior = f"{split}_{inputs}-mlp1x10"
        for k, method in enumerate(methods):
            mse = [0.07 + 0.01 * k + 0.001 * seed for seed in range(seeds)]
            nll = [0.12 + 0.1 * k] * seeds
            if method == "nuts":
                records.append(nuts_record(posterior, mse, nll))
                continue
            ode = method.startswith("rla")
            for seed in range(seeds):
                records.append(prediction_record(posterior, method, seed, mse[seed], nll[seed],
                                                 240.0 + seed if ode else 0.0,
                                                 failures.get((split, method, seed), 0)))
            if ode:
                records.append({"stage": "timing", "posterior": posterior, "method": method, "per_sample_s": 0.6,
                                "per_sample_median_s": 0.5, "batched_s_per_sample": 0.01, "ratio": 60.0})
    return tidy_frame((record, "bnn_yu") for record in records)


def test_table3_cells_order_values_and_paper():
    spec = SPECS["yu2024_table3"]
    cells = table_cells(spec, make_tidy(), load_paper_values(TABLE3))
    assert list(dict.fromkeys(cells["method"])) == METHOD_ORDER
    rla_f = cells[(cells["split"] == "complete") & (cells["method"] == "rla_f")].set_index("metric")
    mse = 0.07 + 0.01 * 1 + 0.001 * np.arange(3)
    assert rla_f.loc["mse", "mean"] == pytest.approx(mse.mean())
    assert rla_f.loc["mse", "std"] == pytest.approx(np.std(mse))  # population std, as the old table
    assert rla_f.loc["T", "mean"] == pytest.approx(241.0) and rla_f.loc["mse", "n_runs"] == 3
    assert rla_f.loc["median_seconds_per_sample", "mean"] == 0.5
    assert rla_f.loc["mse", "paper_mean"] == 0.072 and rla_f.loc["T", "paper_mean"] == 242.9
    assert rla_f.loc["median_seconds_per_sample", "paper_mean"] == 0.8
    nuts = cells[(cells["split"] == "gap") & (cells["method"] == "nuts")].set_index("metric")
    assert set(nuts.index) == {"mse", "nll"} and nuts.loc["nll", "paper_mean"] == 0.872
    assert nuts.loc["mse", "mean"] == pytest.approx(np.mean(0.07 + 0.001 * np.arange(3)))
    # Bold: the lowest mean of each split and metric over methods (nuts: k = 0).
    best = cells[cells["best"].astype(bool)]
    assert set(zip(best["split"], best["method"], best["metric"])) == {
        (s, "nuts", m) for s in ("complete", "gap") for m in ("mse", "nll")}
    # columns in the spec's order even though the first row (ELA) has no time: Complete's four, then Gap's
    header = render_markdown(spec, cells, SCALE).split("\n\n")[1].splitlines()[0]
    assert [c.strip() for c in header.split("|")[2:-1]] == [
        f"{split} {metric}" for split in ("Complete", "Gap") for metric in ("MSE", "NLL", "T", "time (ms)")]
    text = render_latex(spec, cells, SCALE)
    assert "Complete" in text and "Gap" in text and text.index("Complete") < text.index("Gap")
    assert "RLA-BLog" in text and "\\dagger" not in text
    assert "Table 3" in text


def test_table5_failures_are_marked_and_counted():
    spec = SPECS["yu2024_table5"]
    tidy = make_tidy("standardised", failures={("gap", "rla_b", 0): 4, ("gap", "rla_b", 2): 1})
    cells = table_cells(spec, tidy, load_paper_values(TABLE5))
    rla_b = cells[(cells["split"] == "gap") & (cells["method"] == "rla_b") & cells["metric"].isin(["mse", "nll", "T"])]
    assert set(rla_b["n_failed"]) == {5}
    assert (cells.loc[cells["method"] != "rla_b", "n_failed"].fillna(0) == 0).all()
    markdown = render_markdown(spec, cells, SCALE)
    assert "†" in markdown and "5 of 1500 samples failed" in markdown
    # the raw posteriors do not enter Table 5
    with pytest.raises(ValueError, match="no results"):
        table_cells(spec, make_tidy("raw"))


def test_missing_methods_leave_dashes():
    spec = SPECS["yu2024_table3"]
    cells = table_cells(spec, make_tidy(methods=("rla_f", "nuts")), load_paper_values(TABLE3))
    assert set(cells["method"]) == {"rla_f", "nuts"}
    text = render_markdown(spec, cells, SCALE)
    assert "ELA" not in text.split("\n\n", 1)[1]
    assert cells[(cells["method"] == "nuts") & (cells["metric"] == "mse")]["paper_spread"].notna().all()
    assert cells[(cells["method"] == "rla_f") & (cells["metric"] == "T")]["paper_spread"].isna().all()


def test_hartmann_pushforward_table_over_evaluation_records():
    """Records of workflow/scripts/evaluate_pushforward.py (Hartmann et al. 2026, Fig. 5) as a spec table."""
    def record(method, repetition, w2, failed=0):
        return {"stage": "pushforward_evaluation", "posterior": "drop23-mlp2x10var", "anchor": "euclidean",
                "method": method, "repetition": repetition, "n_samples": 10, "n_failed": failed,
                "samples_used": 10 - failed, "nuts_draws": 400, "w2_mean_over_grid": w2, "w2_rms_over_grid": 2 * w2}

    tidy = tidy_frame((r, "bnn_hartmann") for r in [record("wg", 0, 3.0, 2), record("wg", 1, 5.0),
                                                    record("ela", 0, 50.0), record("ela", 1, 60.0)])
    spec = SPECS["bnn_hartmann_pushforward_w2"]
    cells = table_cells(spec, tidy).set_index(["method", "metric"])
    assert cells.loc[("wg", "w2_mean_over_grid"), "mean"] == 4.0 and cells.loc[("wg", "w2_mean_over_grid"), "std"] == 1.0
    assert bool(cells.loc[("wg", "w2_mean_over_grid"), "best"]) and not bool(cells.loc[("ela", "w2_mean_over_grid"), "best"])
    assert cells.loc[("wg", "samples_used"), "mean"] == 9.0 and cells.loc[("wg", "samples_used"), "n_failed"] == 2
    assert "2 of 20 samples failed" in render_markdown(spec, table_cells(spec, tidy), SCALE)
