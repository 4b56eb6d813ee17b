"""Tests of geobayes.report.tidy: sidecars become long rows; aggregation keeps failures beside values."""

import math

import numpy as np
import pandas as pd
import pytest

from geobayes.report.tidy import TIDY_COLUMNS, aggregate, load_tidy, tidy_frame, tidy_rows, wide


def evaluation(method="rla_f", repetition=0, w1=0.2, n_failed=0, **extra):
    return {"stage": "evaluation", "posterior": "ripley_standardised-logreg", "anchor": "euclidean",
            "method": method, "repetition": repetition, "wasserstein1": w1, "wasserstein1_first": None,
            "wasserstein2": None, "T": 12.0, "mean_steps": 2.0, "failed_fraction": n_failed / 100,
            "n_samples": 100, "n_failed": n_failed, **extra}


def test_an_evaluation_gives_one_row_per_present_metric():
    rows = tidy_rows(evaluation(), "logreg")
    assert [row["metric"] for row in rows] == ["wasserstein1", "T", "mean_steps", "failed_fraction"]
    assert all(row["experiment"] == "logreg" and row["n_samples"] == 100 for row in rows)
    assert rows[0]["value"] == 0.2 and set(rows[0]) == set(TIDY_COLUMNS)


def test_an_evaluation_carries_the_approximations_cost_and_the_first_repetitions_compile_time():
    first = tidy_rows(evaluation(seconds_per_sample=1e-4, compile_s=2.5), "logreg")
    later = tidy_rows(evaluation(repetition=1, seconds_per_sample=2e-4, compile_s=None), "logreg")
    assert {r["metric"]: r["value"] for r in first}.items() >= {"seconds_per_draw": 1e-4, "compile_seconds": 2.5}.items()
    assert "compile_seconds" not in {r["metric"] for r in later}  # null: no row, never a 0
    assert {r["metric"]: r["value"] for r in later}["seconds_per_draw"] == 2e-4


def test_a_timing_has_no_anchor_or_repetition_and_counts_both_measurements():
    record = {"stage": "timing", "posterior": "p-logreg", "method": "rla_b", "per_sample_s": 0.01,
              "batched_s_per_sample": 0.001, "ratio": 10.0, "n_sequential": 3, "n_batched": 20,
              "failed_sequential": 0, "failed_batched": 1}
    frame = tidy_frame([(record, "logreg")])
    assert list(frame["metric"]) == ["batched_seconds_per_sample", "seconds_per_sample", "sequential_over_batched"]
    assert (frame["anchor"] == "").all() and frame["repetition"].isna().all()


def test_bad_records_are_named():
    with pytest.raises(ValueError, match="stage 'inference' has no tidy form"):
        tidy_rows({"stage": "inference", "posterior": "p", "method": "m"}, "e")
    with pytest.raises(ValueError, match=r"lacks the key fields \['method'\]"):
        tidy_rows({"stage": "evaluation", "posterior": "p"}, "e")


def test_csv_round_trip_keeps_nan_values_empty_anchors_and_counts(tmp_path):
    records = [(evaluation(repetition=k, w1=float("nan") if k == 1 else 0.1 * k, n_failed=100 * (k == 1)), "logreg")
               for k in range(3)]
    records.append(({"stage": "timing", "posterior": "p-logreg", "method": "rla_b", "per_sample_s": 0.5}, "logreg"))
    frame = tidy_frame(records)
    path = tmp_path / "summary.csv"
    frame.to_csv(path, index=False)
    back = load_tidy(path)
    pd.testing.assert_frame_equal(back, frame)
    assert back.loc[(back["metric"] == "wasserstein1") & (back["repetition"] == 1), "value"].isna().all()


def test_load_rejects_other_columns_and_missing_files(tmp_path):
    path = tmp_path / "old.csv"
    pd.DataFrame({"posterior": ["p"], "wasserstein1": [0.1]}).to_csv(path, index=False)
    with pytest.raises(ValueError, match="expected columns experiment,posterior"):
        load_tidy(path)
    with pytest.raises(FileNotFoundError, match="nowhere.csv"):
        load_tidy(tmp_path / "nowhere.csv")


def test_wide_puts_a_runs_metrics_side_by_side():
    frame = tidy_frame([(evaluation(method=m, repetition=k, w1=0.1 + k), "logreg") for m in ("ela", "rla_f")
                        for k in range(2)])
    runs = wide(frame)
    assert len(runs) == 4 and {"wasserstein1", "T", "n_failed"} <= set(runs.columns)
    assert runs.set_index(["method", "repetition"]).loc[("rla_f", 1), "wasserstein1"] == pytest.approx(1.1)


def test_aggregate_population_std_totals_and_nan_propagation():
    values = [0.1, 0.2, 0.4]
    frame = tidy_frame([(evaluation(repetition=k, w1=v, n_failed=k), "logreg") for k, v in enumerate(values)])
    cells = aggregate(frame[frame["metric"] == "wasserstein1"], ["posterior", "method"]).iloc[0]
    assert cells["mean"] == pytest.approx(np.mean(values)) and cells["std"] == pytest.approx(np.std(values))
    assert (cells["n_runs"], cells["n_failed"], cells["n_samples"]) == (3, 3, 300)
    assert aggregate(frame, ["posterior", "method"], ddof=1).set_index("metric").loc["wasserstein1", "std"] \
        == pytest.approx(np.std(values, ddof=1))
    with_nan = tidy_frame([(evaluation(repetition=k, w1=v), "logreg") for k, v in enumerate([0.1, math.nan])])
    cell = aggregate(with_nan[with_nan["metric"] == "wasserstein1"], ["method"]).iloc[0]
    assert math.isnan(cell["mean"]) and cell["n_runs"] == 2
