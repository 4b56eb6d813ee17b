"""Tests of geobayes.report.comparison: long-format aggregation, ours-vs-paper merge and flags, Markdown."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geobayes.report import logreg_table
from geobayes.report.comparison import (
    COMPARISON_VALUE_COLUMNS,
    DEFAULT_FLOOR,
    FLAG_MARK,
    LONG_COLUMNS,
    aggregate_long,
    compare_long,
    comparison_markdown,
    outside_spread,
    spread_tolerance,
)
from geobayes.report.logreg_table import aggregate_logreg, logreg_comparison
from geobayes.report.paper_values import load_paper_values

PAPER_VALUES = Path(__file__).resolve().parents[2] / "workflow/resources/paper_values"
KEYS = ["inputs", "dataset", "method"]


def banana_runs(w_by_method, t_by_method=None, failed=None):
    """Per-run rows of a banana summary: W values per (inputs, method), one run per value."""
    t_by_method = t_by_method or {}
    failed = failed or {}
    rows = []
    for (inputs, method), values in w_by_method.items():
        for seed, w in enumerate(values):
            rows.append({"inputs": inputs, "dataset": "banana", "method": method, "seed": seed,
                         "wasserstein1": w, "T": t_by_method.get((inputs, method), 0.0),
                         "n_failed": failed.get((inputs, method, seed), 0), "n_samples": 100})
    return pd.DataFrame(rows)


def paper_frame(rows):
    return pd.DataFrame(rows, columns=["inputs", "dataset", "method", "metric", "mean", "std"])


# --------------------------------------------------------------------------- aggregate_long


def test_aggregate_mean_population_std_and_totals():
    summary = banana_runs({("euclidean", "rla_f"): [0.1, 0.2, 0.4], ("euclidean", "ela"): [1.0, 1.0, 1.0]},
                          t_by_method={("euclidean", "rla_f"): 24.0},
                          failed={("euclidean", "rla_f", 1): 7})
    agg = aggregate_long(summary, KEYS, {"W": "wasserstein1", "T": "T"})
    assert list(agg.columns) == [*KEYS, *LONG_COLUMNS]
    # First-appearance order of key tuples; metrics in the mapping's order.
    assert list(zip(agg["method"], agg["metric"])) == [("rla_f", "W"), ("rla_f", "T"), ("ela", "W"), ("ela", "T")]
    cell = agg.set_index(["method", "metric"]).loc[("rla_f", "W")]
    mean = 0.7 / 3
    assert cell["mean"] == pytest.approx(mean, rel=1e-15)
    population = math.sqrt(((0.1 - mean) ** 2 + (0.2 - mean) ** 2 + (0.4 - mean) ** 2) / 3)
    assert cell["std"] == pytest.approx(population, rel=1e-12)
    assert cell["std"] != pytest.approx(np.std([0.1, 0.2, 0.4], ddof=1))
    assert (cell["n_runs"], cell["n_failed"], cell["n_samples"]) == (3, 7, 300)
    t = agg.set_index(["method", "metric"]).loc[("rla_f", "T")]
    assert (t["mean"], t["std"], t["n_failed"]) == (24.0, 0.0, 7)


def test_aggregate_propagates_a_nan_run():
    summary = banana_runs({("hausdorff", "rla_b"): [0.3, np.nan, 0.35], ("hausdorff", "rla_f"): [0.14, 0.15]})
    agg = aggregate_long(summary, KEYS, {"W": "wasserstein1"}).set_index("method")
    assert np.isnan(agg.loc["rla_b", "mean"]) and np.isnan(agg.loc["rla_b", "std"])
    assert agg.loc["rla_b", "n_runs"] == 3
    assert agg.loc["rla_f", "mean"] == pytest.approx(0.145)


def test_aggregate_agrees_with_aggregate_logreg():
    rng = np.random.default_rng(0)
    rows = [{"dataset": d, "inputs": i, "posterior": f"{d}_{i}-logreg", "method": m, "seed": s,
             "wasserstein1": rng.uniform(), "T": rng.uniform(10, 20), "n_samples": 50, "n_failed": int(s == 1),
             "failed_fraction": 0.0, "mean_steps": 2.0}
            for d in ("pima", "heart") for i in ("raw",) for m in ("ela", "rla_f") for s in range(3)]
    summary = pd.DataFrame(rows)
    long = aggregate_long(summary, KEYS, {"W": "wasserstein1", "T": "T"}).set_index([*KEYS, "metric"])
    wide = aggregate_logreg(summary).set_index(KEYS)
    for key, cell in wide.iterrows():
        for metric in ("W", "T"):
            assert long.loc[(*key, metric), "mean"] == pytest.approx(cell[f"{metric}_mean"], rel=1e-14)
            assert long.loc[(*key, metric), "std"] == pytest.approx(cell[f"{metric}_std"], rel=1e-12)
        assert long.loc[(*key, "W"), "n_failed"] == cell["n_failed"]


def test_aggregate_rejects_bad_input():
    summary = banana_runs({("euclidean", "ela"): [1.0, 1.1]})
    with pytest.raises(ValueError, match=r"lacks columns \['n_samples'\]"):
        aggregate_long(summary.drop(columns="n_samples"), KEYS, {"W": "wasserstein1"})
    with pytest.raises(ValueError, match="lacks columns"):
        aggregate_long(summary, KEYS, {"W": "w1"})
    with pytest.raises(ValueError, match="at least one column"):
        aggregate_long(summary, [], {"W": "wasserstein1"})
    with pytest.raises(ValueError, match="non-empty mapping"):
        aggregate_long(summary, KEYS, {})
    with pytest.raises(ValueError, match="holds no rows"):
        aggregate_long(summary.iloc[:0], KEYS, {"W": "wasserstein1"})
    with pytest.raises(ValueError, match="clash"):
        aggregate_long(summary.rename(columns={"method": "metric"}), ["inputs", "metric"], {"W": "wasserstein1"})
    bad = summary.copy()
    bad["wasserstein1"] = ["0.1", "oops"]
    with pytest.raises(ValueError, match="'wasserstein1'.*not numeric"):
        aggregate_long(bad, KEYS, {"W": "wasserstein1"})
    bad = summary.copy()
    bad.loc[0, "n_failed"] = 200
    with pytest.raises(ValueError, match="exceeds 'n_samples'"):
        aggregate_long(bad, KEYS, {"W": "wasserstein1"})
    bad = summary.copy()
    bad.loc[1, "method"] = None
    with pytest.raises(ValueError, match=r"missing key values in rows \[1\]"):
        aggregate_long(bad, KEYS, {"W": "wasserstein1"})


# --------------------------------------------------------------------------- flag rule


def test_flag_rule_on_hand_made_rows():
    #           ours   s_ours paper  s_paper   tolerance = 2 max(s_paper, s_ours, 0.005)
    rows = [
        (0.111, 0.001, 0.100, 0.006, False),  # paper's spread: |0.011| <= 0.012
        (0.113, 0.001, 0.100, 0.006, True),  # paper's spread: |0.013| > 0.012
        (0.109, 0.004, 0.100, 0.000, False),  # floor beats both stds: |0.009| <= 0.010
        (0.111, 0.004, 0.100, 0.000, True),  # floor beats both stds: |0.011| > 0.010
        (0.290, 0.100, 0.100, 0.001, False),  # our own spread is wide: |0.19| <= 0.2
        (0.091, 0.001, 0.100, 0.001, False),  # below the paper's value, inside: |-0.009| <= 0.010
        (0.050, 0.001, 0.100, 0.001, True),  # below the paper's value, outside
        (np.nan, np.nan, 0.100, 0.004, True),  # no successful samples: flagged
        (0.100, np.nan, 0.100, np.nan, False),  # missing stds count as 0 (floor rules)
    ]
    ours_mean, ours_std, paper_mean, paper_std, expected = map(np.array, zip(*rows))
    np.testing.assert_array_equal(outside_spread(ours_mean, ours_std, paper_mean, paper_std), expected)
    assert spread_tolerance(0.004, 0.001).item() == pytest.approx(0.010)  # floor 0.005 beats 0.004
    assert spread_tolerance(0.006, 0.001).item() == pytest.approx(0.012)
    assert spread_tolerance(np.nan, np.nan, floor=0.02).item() == pytest.approx(0.04)
    with pytest.raises(ValueError, match="floor must be a finite number >= 0"):
        spread_tolerance(0.1, 0.1, floor=-1.0)
    assert DEFAULT_FLOOR == logreg_table.DEFAULT_FLOOR  # one rule, one floor


def test_compare_long_matches_logreg_comparison_on_table2():
    paper = load_paper_values(PAPER_VALUES / "yu2024_table2.csv")
    rng = np.random.default_rng(1)
    rows = [{"dataset": "ripley", "inputs": "standardised", "posterior": "p", "method": m, "seed": s,
             "wasserstein1": base + rng.normal(scale=0.01), "T": 12.0 + s, "n_samples": 100, "n_failed": 0,
             "failed_fraction": 0.0, "mean_steps": 2.0}
            for m, base in (("ela", 0.106), ("rla_b", 0.3), ("rla_f", 0.064)) for s in range(5)]
    summary = pd.DataFrame(rows)
    old = logreg_comparison(aggregate_logreg(summary), paper).set_index([*KEYS, "metric"])
    new = compare_long(aggregate_long(summary, KEYS, {"W": "wasserstein1", "T": "T"}), paper, keys=KEYS)
    both = new[new["in_ours"] & new["in_paper"]].set_index([*KEYS, "metric"])
    assert sorted(both.index) == sorted(old.index)
    w = both.xs("W", level="metric")
    np.testing.assert_array_equal(w["outside_spread"].to_numpy(),
                                  old.xs("W", level="metric").loc[w.index, "outside_paper_spread"].to_numpy(dtype=bool))
    assert w.loc[("standardised", "ripley", "rla_b"), "outside_spread"]  # 0.3 vs 0.236
    assert not w.loc[("standardised", "ripley", "ela"), "outside_spread"]
    np.testing.assert_allclose(both["ratio"], old.loc[both.index, "ratio"], rtol=1e-14)


def test_compare_long_keeps_one_sided_rows_and_orders_as_the_paper():
    paper = paper_frame([
        ("euclidean", "banana", "ela", "W", 1.434, 0.01),
        ("euclidean", "banana", "rla_f", "W", 0.791, 0.014),
        ("euclidean", "banana", "rla_f", "T", 24.9, np.nan),
        ("hausdorff", "banana", "rla_f", "W", 0.143, 0.009),
    ])
    summary = banana_runs({("euclidean", "rla_f"): [0.80, 0.82], ("euclidean", "ela"): [1.40, 1.44],
                           ("euclidean", "rla_x"): [0.5, 0.5]},
                          t_by_method={("euclidean", "rla_f"): 30.0, ("euclidean", "ela"): 0.0},
                          failed={("euclidean", "rla_f", 0): 3})
    ours = aggregate_long(summary, KEYS, {"W": "wasserstein1", "T": "T"})
    comparison = compare_long(ours, paper, keys=KEYS, floor=0.005)
    assert list(comparison.columns) == [*KEYS, *COMPARISON_VALUE_COLUMNS]
    assert comparison.attrs["floor"] == 0.005
    order = list(zip(comparison["inputs"], comparison["method"], comparison["metric"]))
    assert order == [("euclidean", "ela", "W"), ("euclidean", "ela", "T"), ("euclidean", "rla_f", "W"),
                     ("euclidean", "rla_f", "T"), ("hausdorff", "rla_f", "W"), ("euclidean", "rla_x", "W"),
                     ("euclidean", "rla_x", "T")]
    c = comparison.set_index(["inputs", "method", "metric"])
    # In both, W: 0.81 vs 0.791 -> |0.019| <= 2 * 0.014 = 0.028 -> inside.
    row = c.loc[("euclidean", "rla_f", "W")]
    assert row["difference"] == pytest.approx(0.81 - 0.791) and row["tolerance"] == pytest.approx(0.028)
    assert not row["outside_spread"] and row["in_ours"] and row["in_paper"]
    assert (row["n_runs"], row["n_failed"], row["n_samples"]) == (2, 3, 200)
    # T: paper has no std -> informational, no flag, but difference and ratio.
    t = c.loc[("euclidean", "rla_f", "T")]
    assert not t["outside_spread"] and np.isnan(t["tolerance"])
    assert t["ratio"] == pytest.approx(30.0 / 24.9) and t["difference"] == pytest.approx(5.1)
    # Paper only: NaN on our side, not flagged, counts <NA>.
    paper_only = c.loc[("hausdorff", "rla_f", "W")]
    assert paper_only["in_paper"] and not paper_only["in_ours"] and not paper_only["outside_spread"]
    assert np.isnan(paper_only["ours_mean"]) and np.isnan(paper_only["difference"])
    assert pd.isna(paper_only["n_runs"])
    # Ours only (ELA's T = 0 and an extra method): NaN on the paper's side, not flagged.
    ours_only = c.loc[("euclidean", "rla_x", "W")]
    assert ours_only["in_ours"] and not ours_only["in_paper"] and not ours_only["outside_spread"]
    assert np.isnan(ours_only["paper_mean"]) and ours_only["ours_mean"] == 0.5
    assert not c.loc[("euclidean", "ela", "T"), "in_paper"]
    assert comparison["outside_spread"].dtype == bool and comparison["in_paper"].dtype == bool


def test_compare_long_flags_far_and_nan_values():
    paper = paper_frame([("raw", "pima", "rla_f", "W", 0.112, 0.008), ("raw", "heart", "rla_f", "W", 0.644, 0.012)])
    ours = pd.DataFrame({"inputs": ["raw", "raw"], "dataset": ["pima", "heart"], "method": ["rla_f", "rla_f"],
                         "metric": ["W", "W"], "mean": [0.2, np.nan], "std": [0.001, np.nan],
                         "n_runs": [5, 5], "n_failed": [0, 500], "n_samples": [500, 500]})
    c = compare_long(ours, paper, keys=KEYS).set_index("dataset")
    assert c.loc["pima", "outside_spread"] and c.loc["pima", "tolerance"] == pytest.approx(0.016)
    assert c.loc["heart", "outside_spread"]  # all samples failed: no W, flagged


def test_compare_long_rejects_bad_input():
    paper = paper_frame([("raw", "pima", "rla_f", "W", 0.112, 0.008)])
    ours = aggregate_long(banana_runs({("euclidean", "ela"): [1.0]}), KEYS, {"W": "wasserstein1"})
    with pytest.raises(ValueError, match="floor"):
        compare_long(ours, paper, keys=KEYS, floor=float("nan"))
    with pytest.raises(ValueError, match=r"our aggregate lacks columns \['n_runs'\]"):
        compare_long(ours.drop(columns="n_runs"), paper, keys=KEYS)
    with pytest.raises(ValueError, match="paper values lacks columns"):
        compare_long(ours, paper.drop(columns="std"), keys=KEYS)
    with pytest.raises(ValueError, match="paper values: duplicated rows"):
        compare_long(ours, pd.concat([paper, paper]), keys=KEYS)
    with pytest.raises(ValueError, match="our aggregate: duplicated rows"):
        compare_long(pd.concat([ours, ours]), paper, keys=KEYS)
    with pytest.raises(ValueError, match="not the string"):
        compare_long(ours, paper, keys="method")


# --------------------------------------------------------------------------- Markdown


def markdown_rows(text):
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| ") and "---" not in line]


def test_markdown_table_cells_flags_and_failures():
    paper = paper_frame([
        ("euclidean", "banana", "ela", "W", 1.434, 0.01),
        ("euclidean", "banana", "rla_f", "W", 0.791, 0.014),
        ("euclidean", "banana", "rla_f", "T", 24.9, np.nan),
        ("hausdorff", "banana", "rla_f", "W", 0.143, 0.009),
    ])
    summary = banana_runs({("euclidean", "ela"): [1.0, 1.0], ("euclidean", "rla_f"): [0.79, 0.79]},
                          t_by_method={("euclidean", "rla_f"): 30.0}, failed={("euclidean", "rla_f", 1): 4})
    comparison = compare_long(aggregate_long(summary, KEYS, {"W": "wasserstein1", "T": "T"}), paper, keys=KEYS)
    text = comparison_markdown(comparison, title="Table 1: banana", keys=KEYS, caption="W to 20,000 NUTS draws.")
    assert text.startswith("**Table 1: banana**\n\nW to 20,000 NUTS draws.\n") and text.endswith("\n")
    header, *rows = markdown_rows(text)
    assert header == [*KEYS, "metric", "ours (mean ± std)", "paper (mean ± std)", "difference", "ratio", "flag",
                      "failures"]
    by_key = {(r[0], r[2], r[3]): r for r in rows}
    ela = by_key[("euclidean", "ELA", "W")]
    assert ela[4:10] == ["1 ± 0", "1.434 ± 0.01", "-0.434", "0.6974", FLAG_MARK, ""]
    rla_f = by_key[("euclidean", "RLA-F", "W")]
    assert rla_f[4:] == ["0.79 ± 0", "0.791 ± 0.014", "-0.001", "0.9987", "", "4 of 200 failed"]
    t = by_key[("euclidean", "RLA-F", "T")]
    assert t[4:8] == ["30 ± 0", "24.9", "+5.1", "1.205"] and t[8] == ""
    assert by_key[("hausdorff", "RLA-F", "W")][4:6] == ["not run", "0.143 ± 0.009"]
    assert by_key[("euclidean", "ELA", "T")][4:6] == ["0 ± 0", "not in paper"]
    assert sum(FLAG_MARK in r[8] for r in rows) == 1
    assert "2·max(std paper, std ours, 0.005)" in text
    assert "The paper gives no std for `T`" in text and "compare the ratio" in text


def test_markdown_without_failures_or_unflagged_metrics_and_bad_input():
    paper = paper_frame([("raw", "pima", "rla_f", "W", 0.112, 0.008), ("raw", "heart", "rla_f", "W", 0.644, 0.012)])
    ours = pd.DataFrame({"inputs": ["raw"], "dataset": ["pima"], "method": ["rla_f"], "metric": ["W"],
                         "mean": [18513.84], "std": [np.nan], "n_runs": [1], "n_failed": [0], "n_samples": [10]})
    comparison = compare_long(ours, paper, keys=KEYS)
    text = comparison_markdown(comparison, title="t", keys=KEYS, caption="")
    assert "failed" not in text and "The paper gives no std" not in text
    assert markdown_rows(text)[1][4] == "18,513.8"
    with pytest.raises(ValueError, match="title"):
        comparison_markdown(comparison, title=" ", keys=KEYS, caption="")
    with pytest.raises(ValueError, match="lacks columns"):
        comparison_markdown(comparison.drop(columns="ratio"), title="t", keys=KEYS, caption="")
