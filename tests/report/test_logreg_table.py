"""Tests of geobayes.report.logreg_table (layout of Yu et al. (2024), Table 2) on synthetic summaries."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geobayes.io import save_csv
from geobayes.report.logreg_table import (
    SUMMARY_COLUMNS,
    aggregate_logreg,
    comparison_latex,
    load_summary,
    logreg_comparison,
    logreg_table_latex,
)
from geobayes.report.paper_values import load_paper_values

TABLE2 = Path(__file__).resolve().parents[2] / "workflow/resources/paper_values/yu2024_table2.csv"
SCALE = {"samples": 100, "repetitions": 3, "reference_draws": 2000}


def make_summary(cells, seeds=3, failed=None, w=None, methods=("ela", "rla_b", "rla_f")):
    """Per-seed summary rows: W = base + 0.01 * seed (base depends on method), T = 10 * (k + 1) for ODE methods."""
    failed = failed or {}
    w = w or {}
    base = {"ela": 0.30, "rla_b": 0.40, "rla_blog": 0.35, "rla_f": 0.20}
    rows = []
    for inputs, dataset in cells:
        for k, method in enumerate(methods):
            for seed in range(seeds):
                n_failed = failed.get((inputs, dataset, method, seed), 0)
                rows.append(
                    {
                        "dataset": dataset,
                        "inputs": inputs,
                        "posterior": f"{dataset}_{inputs}-logreg",
                        "method": method,
                        "seed": seed,
                        "wasserstein1": w.get((inputs, dataset, method, seed), base[method] + 0.01 * seed),
                        "T": 0.0 if method == "ela" else 10.0 * (k + 1) + seed,
                        "n_samples": 100,
                        "n_failed": n_failed,
                        "failed_fraction": n_failed / 100,
                        "mean_steps": 0.0 if method == "ela" else 2.0,
                    }
                )
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))


def row_cells(tex, dataset_label, inputs_label=None):
    """Cells of the table body line for a data set (optionally the first line of an inputs block)."""
    for line in tex.splitlines():
        cells = [c.strip() for c in line.removesuffix("\\\\").split(" & ")]
        if len(cells) > 2 and cells[1] == dataset_label and (inputs_label is None or cells[0] == inputs_label):
            return cells
    raise AssertionError(f"no row for {dataset_label} in\n{tex}")


def test_aggregate_mean_and_population_std_exact():
    w = {("raw", "pima", "rla_f", 0): 0.1, ("raw", "pima", "rla_f", 1): 0.2, ("raw", "pima", "rla_f", 2): 0.4}
    summary = make_summary([("raw", "pima")], w=w, failed={("raw", "pima", "rla_f", 1): 7})
    agg = aggregate_logreg(summary).set_index(["inputs", "dataset", "method"])
    cell = agg.loc[("raw", "pima", "rla_f")]
    mean = (0.1 + 0.2 + 0.4) / 3
    assert cell["W_mean"] == pytest.approx(mean, rel=1e-15)
    std = math.sqrt(((0.1 - mean) ** 2 + (0.2 - mean) ** 2 + (0.4 - mean) ** 2) / 3)  # ddof = 0
    assert cell["W_std"] == pytest.approx(std, rel=1e-12)
    assert cell["T_mean"] == pytest.approx(31.0) and cell["T_std"] == pytest.approx(math.sqrt(2 / 3))
    assert cell["n_failed"] == 7 and cell["n_samples"] == 300 and cell["n_seeds"] == 3
    assert cell["failed_fraction"] == pytest.approx(7 / 300)
    assert agg.loc[("raw", "pima", "ela"), "T_mean"] == 0.0


def test_aggregate_orders_rows_as_the_paper_and_propagates_nan():
    summary = make_summary([("raw", "german"), ("standardised", "pima"), ("raw", "ripley")],
                           w={("raw", "german", "rla_b", 2): np.nan})
    agg = aggregate_logreg(summary)
    assert list(agg[["inputs", "dataset"]].drop_duplicates().itertuples(index=False, name=None)) == [
        ("standardised", "pima"), ("raw", "ripley"), ("raw", "german")]
    nan_cell = agg[(agg["dataset"] == "german") & (agg["method"] == "rla_b")]
    assert np.isnan(nan_cell["W_mean"].iloc[0])


def test_aggregate_rejects_bad_input():
    summary = make_summary([("raw", "pima")])
    with pytest.raises(ValueError, match="lacks columns"):
        aggregate_logreg(summary.drop(columns="n_failed"))
    with pytest.raises(ValueError, match="duplicated"):
        aggregate_logreg(pd.concat([summary, summary.iloc[:1]]))
    bad = summary.copy()
    bad.loc[0, "dataset"] = "iris"
    with pytest.raises(ValueError, match="iris"):
        aggregate_logreg(bad)


def test_best_w_is_bold_in_the_right_cell():
    # rla_f best on Ripl; ela best on stand. Hear (override so that ELA wins there)
    w = {("standardised", "heart", "ela", s): 0.05 for s in range(3)}
    agg = aggregate_logreg(make_summary([("standardised", "ripley"), ("standardised", "heart")], w=w))
    tex = logreg_table_latex(agg, ["ela", "rla_b", "rla_f"], **SCALE)
    ripl = row_cells(tex, "Ripl")
    # columns: inputs, data, ELA W, RLA-B W, RLA-B T, RLA-F W, RLA-F T
    assert len(ripl) == 7
    assert "\\mathbf" in ripl[5] and "\\mathbf" not in ripl[2] + ripl[3]
    hear = row_cells(tex, "Hear")
    assert "\\mathbf" in hear[2] and "\\mathbf" not in hear[3] + hear[5]
    assert ripl[0] == "stand." and hear[0] == ""


def test_failed_marker_appears_iff_samples_failed():
    cells = [("standardised", "ripley"), ("raw", "heart")]
    clean = logreg_table_latex(aggregate_logreg(make_summary(cells)), ["ela", "rla_b", "rla_f"], **SCALE)
    assert "dagger" not in clean
    failed = {("raw", "heart", "rla_b", 2): 13}
    tex = logreg_table_latex(aggregate_logreg(make_summary(cells, failed=failed)), ["ela", "rla_b", "rla_f"], **SCALE)
    hear = row_cells(tex, "Hear")
    assert "\\dagger" in hear[3]
    assert all("dagger" not in c for i, c in enumerate(hear) if i != 3)
    assert all("dagger" not in c for c in row_cells(tex, "Ripl"))
    assert "raw Hear RLA-B: 13 of 300 samples" in tex
    assert "$$" not in tex  # marks live inside the cell's math, never as an adjacent formula
    assert "excluded from $\\mathcal{W}$" in tex and "counted at the cap in $T$" in tex


def test_missing_cells_are_omitted_and_methods_follow_the_argument():
    summary = make_summary([("standardised", "pima"), ("standardised", "german")],
                           methods=("ela", "rla_b", "rla_blog", "rla_f"))
    summary = summary[~((summary["dataset"] == "german") & (summary["method"] == "rla_blog"))]
    agg = aggregate_logreg(summary)
    tex = logreg_table_latex(agg, ["rla_f", "ela", "rla_blog"], **SCALE)
    assert "raw" not in tex.split("\\midrule", 1)[1] and "Ripl" not in tex and "Hear" not in tex
    header = next(line for line in tex.splitlines() if "multicolumn" in line)
    assert header.index("RLA-F") < header.index("ELA") < header.index("RLA-BLog")
    assert "RLA-B}" not in header  # rla_b not requested
    germ = row_cells(tex, "Germ")
    assert germ[-2:] == ["--", "--"]  # rla_blog absent for Germ: W and T
    assert "100 samples" in tex and "2,000 NUTS reference draws" in tex and "3 repetitions" in tex
    assert "Cells off the stated scale" not in tex
    with pytest.raises(ValueError, match="no results"):
        logreg_table_latex(agg, ["ela", "rla_x"], **SCALE)


def test_off_scale_cells_are_reported():
    agg = aggregate_logreg(make_summary([("raw", "pima")], seeds=2))
    tex = logreg_table_latex(agg, ["ela", "rla_f"], **SCALE)
    assert "Cells off the stated scale" in tex and "2 repetitions" in tex


def test_comparison_flags_far_values_and_not_close_ones():
    paper = load_paper_values(TABLE2)
    # stand. Ripl: ELA at the paper's 0.106 (close), RLA-F at 0.5 (paper 0.064: far)
    w = {}
    for s in range(3):
        w[("standardised", "ripley", "ela", s)] = 0.106 + 0.001 * (s - 1)
        w[("standardised", "ripley", "rla_f", s)] = 0.5
    agg = aggregate_logreg(make_summary([("standardised", "ripley")], w=w))
    comp = logreg_comparison(agg, paper).set_index(["method", "metric"])
    assert not comp.loc[("ela", "W"), "outside_paper_spread"]
    assert comp.loc[("rla_f", "W"), "outside_paper_spread"]
    assert comp.loc[("rla_f", "W"), "difference"] == pytest.approx(0.5 - 0.064)
    assert comp.loc[("ela", "W"), "tolerance"] == pytest.approx(2 * 0.005)  # floor beats paper std 0.004
    assert pd.isna(comp.loc[("rla_f", "T"), "outside_paper_spread"])
    assert comp.loc[("rla_f", "T"), "ratio"] == pytest.approx(31.0 / 12.2)
    assert ("ela", "T") not in comp.index  # the paper has no T for ELA
    assert comp.loc[("rla_b", "W"), "paper_mean"] == 0.236
    tex = comparison_latex(logreg_comparison(agg, paper), source="workflow/resources/paper_values/yu2024_table2.csv")
    assert "Table~2" in tex and "AISTATS 2024" in tex and "paper\\_values/yu2024\\_table2.csv" in tex
    flagged = [line for line in tex.splitlines() if line.endswith("\\\\") and "\\star" in line]
    assert [line.split(" & ")[2] for line in flagged] == ["RLA-B", "RLA-F"]  # rla_b synthetic 0.41 vs 0.236


def test_csv_roundtrip(tmp_path):
    agg = aggregate_logreg(make_summary([("raw", "pima")]))
    out = save_csv(agg, tmp_path / "sub" / "logreg.csv")
    back = pd.read_csv(out)
    assert list(back.columns) == list(agg.columns) and len(back) == len(agg)
    assert not list((tmp_path / "sub").glob(".*.tmp"))
    make_summary([("raw", "pima")]).to_csv(tmp_path / "summary.csv", index=False)
    assert len(load_summary(tmp_path / "summary.csv")) == 9
    make_summary([("raw", "pima")]).drop(columns="T").to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(ValueError, match="bad.csv"):
        load_summary(tmp_path / "bad.csv")
