"""Hartmann et al. (2026), App. D, Figs. 6-7: pairwise W2 across optima (known answers), the
optima's table, failure counts, and the figure of the predictives per optimum."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from geobayes.metrics.map_robustness import OptimumPredictive, map_w2_table, on_data_mask, optima_table
from geobayes.metrics.pushforward_w2 import pushforward_wasserstein2
from geobayes.report.bnn_map_robustness import (
    build_map_predictives_figure,
    default_ylim,
    optimum_label,
)
from geobayes.report.figures import save_figure
from geobayes.report.table_spec import read_table_specs
from geobayes.report.tables import render_markdown, table_cells
from geobayes.report.tidy import tidy_frame

# Exact standard-normal quantiles: samples whose empirical law is N(0, 1) up to O(log S / S).
S = 4000
Z = norm.ppf((np.arange(S) + 0.5) / S)
X = np.linspace(-3.0, 10.0, 6)
X_TRAIN = np.concatenate([np.linspace(0.0, 2.0, 20), np.linspace(3.0, 6.0, 30)])


def gaussian_run(mean, std, n_failed=0):
    """Predictive samples N(mean, std^2) at every grid input (same law at every x)."""
    f = mean + std * np.tile(Z[:, None], (1, X.shape[0]))
    return OptimumPredictive(f, S + n_failed, n_failed)


def test_two_gaussian_predictives_have_the_closed_form_w2():
    """W2(N(m1, s1^2), N(m2, s2^2))^2 = (m1 - m2)^2 + (s1 - s2)^2 (e.g. Peyre & Cuturi 2019, Rem. 2.31)."""
    a, b = gaussian_run(0.5, 1.0).f_grid, gaussian_run(-1.0, 2.5).f_grid
    expected = math.sqrt(1.5**2 + 1.5**2 * np.mean(Z**2))  # exact for these quantile samples
    np.testing.assert_allclose(pushforward_wasserstein2(a, b), expected, rtol=1e-12)
    np.testing.assert_allclose(pushforward_wasserstein2(a, b), math.sqrt(1.5**2 + 1.5**2), rtol=2e-3)


def test_identical_predictives_are_zero_apart():
    run = gaussian_run(1.0, 0.3)
    table, pairwise = map_w2_table(X, {"wg": [run] * 5}, X_TRAIN)
    row = table.iloc[0]
    assert row["pairs"] == 10 and row["optima_used"] == 5
    for column in ("w2_mean_over_x", "w2_variance_over_x", "w2_max_over_x", "pair_variance_mean_over_x",
                   "w2_mean_on_data", "w2_mean_off_data"):
        assert row[column] == 0.0, column
    np.testing.assert_array_equal(pairwise["wg"].mean, np.zeros(X.shape[0]))


def test_mean_and_variance_over_pairs_and_over_x_are_the_closed_forms():
    """Optima (a), (b): N(0, 1); (c): N(3, 2^2). Pairs: 0, sqrt(10), sqrt(10)."""
    runs = [gaussian_run(0.0, 1.0), gaussian_run(0.0, 1.0), gaussian_run(3.0, 2.0)]
    table, pairwise = map_w2_table(X, {"ela": runs}, X_TRAIN)
    w2 = math.sqrt(9.0 + np.mean(Z**2))
    np.testing.assert_allclose(pairwise["ela"].mean, 2 * w2 / 3, rtol=1e-12)
    np.testing.assert_allclose(pairwise["ela"].variance, 2 * w2**2 / 3 - (2 * w2 / 3) ** 2, rtol=1e-10)
    row = table.set_index("method").loc["ela"]
    assert row["w2_mean_over_x"] == pytest.approx(2 * math.sqrt(10.0) / 3, rel=1e-3)
    assert row["w2_variance_over_x"] == pytest.approx(0.0, abs=1e-20)  # the same law at every x
    assert row["pair_variance_mean_over_x"] == pytest.approx(20.0 / 9.0, rel=2e-3)


def test_on_and_off_data_means_split_the_grid_at_the_training_intervals():
    mask = on_data_mask(X, X_TRAIN)
    np.testing.assert_array_equal(mask, (X >= 0) & (X <= 2) | (X >= 3) & (X <= 6))
    base = gaussian_run(0.0, 1.0)
    moved = base.f_grid.copy()
    moved[:, ~mask] += 2.0  # differs only off the data
    table, _ = map_w2_table(X, {"wg": [base, OptimumPredictive(moved, S, 0)]}, X_TRAIN)
    row = table.iloc[0]
    assert row["w2_mean_on_data"] == pytest.approx(0.0, abs=1e-12)
    assert row["w2_mean_off_data"] == pytest.approx(2.0, rel=1e-12)
    assert row["grid_points_on_data"] == mask.sum() and row["grid_points"] == X.shape[0]


def test_failed_samples_and_optima_are_counted_not_dropped():
    runs = [gaussian_run(0.0, 1.0, n_failed=3), OptimumPredictive(None, S, S), gaussian_run(1.0, 1.0)]
    table, pairwise = map_w2_table(X, {"wg": runs, "ela": [gaussian_run(0.0, 1.0), OptimumPredictive(None, S, S)]},
                                   X_TRAIN)
    rows = table.set_index("method")
    assert rows.loc["wg", "optima"] == 3 and rows.loc["wg", "optima_used"] == 2
    assert rows.loc["wg", "failed_optima"] == 1 and rows.loc["wg", "pairs"] == 1
    assert rows.loc["wg", "failed_samples"] == 3 + S and rows.loc["wg", "failed_per_optimum"] == f"3;{S};0"
    assert rows.loc["wg", "w2_mean_over_x"] == pytest.approx(1.0, rel=1e-12)
    # A method with fewer than two usable optima: no W2, the failures still reported.
    assert rows.loc["ela", "pairs"] == 0 and np.isnan(rows.loc["ela", "w2_mean_over_x"])
    assert rows.loc["ela", "failed_optima"] == 1 and "ela" not in pairwise


def test_w2_table_rejects_samples_off_the_grid():
    with pytest.raises(ValueError, match=r"per_method\['wg'\]\[1\]: f_grid must have shape \(S, 6\)"):
        map_w2_table(X, {"wg": [gaussian_run(0.0, 1.0), OptimumPredictive(np.zeros((4, 5)), 4, 0)]}, X_TRAIN)
    with pytest.raises(ValueError, match="non-empty mapping"):
        map_w2_table(X, {}, X_TRAIN)


def test_optima_table_lists_objectives_and_distances():
    positions = np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])
    curves = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, -1.0]])
    frame = optima_table([-1.0, -2.0, -3.0], [True, True, False], [1e-6, 2e-6, 0.5], [10, 20, 30], positions, curves)
    assert isinstance(frame, pd.DataFrame) and list(frame["optimum"]) == ["(a)", "(b)", "(c)"]
    np.testing.assert_allclose(frame["param_distance_b"], [5.0, 0.0, math.sqrt(18.0)])
    np.testing.assert_allclose(frame["nearest_param_distance"], [1.0, math.sqrt(18.0), 1.0])
    # (a) and (b) are the same function (e.g. a permutation of hidden units): distance 0.
    np.testing.assert_allclose(frame["nearest_map_f_rms_distance"], [0.0, 0.0, 1.0])
    assert list(frame["converged"]) == [True, True, False]
    with pytest.raises(ValueError, match="same K >= 1 optima"):
        optima_table([-1.0], [True], [0.0], [1], positions, curves)


def test_records_tidy_into_the_two_tables():
    """The sidecars of workflow/scripts/map_robustness.py as tidy rows and the spec tables over them."""
    specs = read_table_specs(Path(__file__).resolve().parents[2] / "workflow/resources/tables.yaml")
    runs = {"wg": [gaussian_run(0.0, 1.0), gaussian_run(0.0, 1.0, n_failed=2)],
            "ela": [gaussian_run(0.0, 1.0), gaussian_run(1.0, 2.0), OptimumPredictive(None, S, S)]}
    table, _ = map_w2_table(X, runs, X_TRAIN)
    records = [{"stage": "map_robustness", "posterior": "drop23-mlp2x10var", "n_failed": int(row["failed_samples"]),
                "n_samples": sum(r.n_samples for r in runs[row["method"]]), **row} for row in table.to_dict("records")]
    frame = optima_table([-1.0, -2.0], [True, False], [1e-6, 0.5], [10, 20], np.array([[0.0, 0.0], [3.0, 4.0]]),
                         np.array([[0.0, 0.0], [1.0, 1.0]]))
    records.append({"stage": "map_optima", "posterior": "drop23-mlp2x10var", "method": "map",
                    **{c: [float(v) for v in frame[c]] for c in ("log_posterior", "converged", "grad_norm", "num_steps",
                                                                 "nearest_param_distance", "nearest_map_f_rms_distance")}})
    tidy = tidy_frame((r, "bnn_hartmann_maps") for r in records)
    w2 = table_cells(specs["bnn_hartmann_map_w2"], tidy).set_index(["method", "metric"])
    assert w2.loc[("wg", "w2_mean_over_x"), "mean"] == pytest.approx(0.0, abs=1e-12)
    assert w2.loc[("ela", "w2_mean_over_x"), "mean"] == pytest.approx(math.sqrt(2.0), rel=1e-2)
    assert w2.loc[("ela", "optima_used"), "mean"] == 2 and int(w2.loc[("ela", "w2_mean_over_x"), "n_failed"]) == S
    assert bool(w2.loc[("wg", "w2_mean_over_x"), "best"])
    optima = table_cells(specs["bnn_hartmann_map_optima"], tidy).set_index(["repetition", "metric"])
    assert optima.loc[("1", "log_posterior"), "mean"] == -2.0 and optima.loc[("1", "converged"), "mean"] == 0.0
    assert optima.loc[("0", "nearest_param_distance"), "mean"] == pytest.approx(5.0)
    assert "(b)" in render_markdown(specs["bnn_hartmann_map_optima"], table_cells(specs["bnn_hartmann_map_optima"], tidy),
                                    {})


def test_labels_and_window():
    assert [optimum_label(k) for k in (0, 4)] == ["(a)", "(e)"]
    with pytest.raises(ValueError, match="0..25"):
        optimum_label(26)
    assert default_ylim(np.array([-1.0, 2.0])) == pytest.approx((-3.25, 4.25))


def test_figure_has_a_panel_per_method_and_optimum(tmp_path):
    runs = {"ELA": [gaussian_run(0.0, 1.0).f_grid, None, gaussian_run(1.0, 3.0).f_grid],
            "WG": [gaussian_run(0.0, 0.5).f_grid] * 3}
    fig = build_map_predictives_figure(X, runs, map_f=np.zeros((3, X.shape[0])), x_train=X_TRAIN,
                                       y_train=np.sin(X_TRAIN), failed={"ELA": [0, 7, 0], "WG": [1, 0, 0]})
    axes = fig.get_axes()
    assert len(axes) == 6
    assert [ax.get_title() for ax in axes[:3]] == ["(a)", "(b)", "(c)"]
    texts = [t.get_text() for ax in axes for t in ax.texts]
    assert "every sample failed" in texts and "7 failed" in texts and "1 failed" in texts
    assert axes[0].get_ylim() == pytest.approx(default_ylim(np.sin(X_TRAIN)))
    written = save_figure(build_map_predictives_figure(X, runs), tmp_path / "maps.pdf", tmp_path / "maps.png")
    assert [p.name for p in written] == ["maps.pdf", "maps.png"]
    assert (tmp_path / "maps.pdf").read_bytes()[:4] == b"%PDF" and (tmp_path / "maps.png").stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maps.pdf", "maps.png"]  # no temporary left


@pytest.mark.parametrize(("runs", "options", "message"), [
    ({"ELA": [np.zeros((3, 6))], "WG": [np.zeros((3, 6))] * 2}, {}, "one entry per optimum"),
    ({"ELA": [np.zeros((3, 5))]}, {}, r"optimum 0 must have shape \(S, 6\)"),
    ({"ELA": [np.zeros((3, 6))]}, {"map_f": np.zeros((2, 6))}, r"map_f must have shape \(1, 6\)"),
    ({"ELA": [np.zeros((3, 6))]}, {"level": 1.0}, "level must lie in"),
    ({"ELA": [np.zeros((3, 6))]}, {"x_train": X_TRAIN}, "both x_train and y_train"),
])
def test_figure_rejects_bad_input(runs, options, message):
    with pytest.raises(ValueError, match=message):
        build_map_predictives_figure(X, runs, **options)


def test_writer_refuses_an_unknown_format(tmp_path):
    with pytest.raises(ValueError, match="must end in one of"):
        save_figure(build_map_predictives_figure(X, {"WG": [np.zeros((3, 6))]}), tmp_path / "maps.jpg")
    assert not list(tmp_path.iterdir())
