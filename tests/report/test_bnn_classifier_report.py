"""Report of Hartmann et al. (2026), App. D: Figs. 8-9 and the per-optimum tables (spec entries over tidy rows)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from geobayes.metrics.classifier_variance import variance_summary
from geobayes.report.bnn_classifier import (
    optimum_label,
    spectra_figure,
    variance_figure,
)
from geobayes.report.figures import save_figure
from geobayes.report.table_spec import read_table_specs
from geobayes.report.tables import render_markdown, table_cells
from geobayes.report.tidy import tidy_frame

SPECS = read_table_specs(Path(__file__).resolve().parents[2] / "workflow/resources/tables.yaml")


def _map_record(k, drop):
    """A MAP sidecar as workflow/scripts/bnn_classifier_map.py writes it."""
    return {"stage": "bnn_classifier_map", "posterior": "banana-classifier", "anchor": f"optimum{k}", "method": "map",
            "optimum": k, "logdensity": -100.0 - k, "log_likelihood": -90.0 - k, "training_accuracy": 0.9,
            "converged": True, "fisher_drop_index": drop, "fisher_largest": 1e3,
            "fisher_spectrum": {"largest": 1e3, "drop_index": drop, "above": {"1e-06": drop + 3}}}


def _fit(k, method, on, off, failed=0):
    """An approximation sidecar as workflow/scripts/bnn_classifier_approximate.py writes it."""
    grid = np.array([on, on, off, off])
    variance = variance_summary(np.full(3, on), grid, np.array([False, False, True, True]))
    return {"stage": "bnn_classifier_approximation", "posterior": "banana-classifier", "anchor": f"optimum{k}",
            "method": method, "predictive_variance": variance, "variance_on_data": variance["on_data"],
            "variance_off_data": variance["off_data"], "off_on_ratio": variance["off_on_ratio"],
            "n_samples": 10, "n_failed": failed, "failed_fraction": failed / 10, "max_residual": 0.1}


def test_variance_summary():
    summary = variance_summary(np.array([0.1, 0.3]), np.array([0.2, 0.8, 1.0]), np.array([False, True, True]))
    assert summary["on_data"] == pytest.approx(0.2) and summary["off_data"] == pytest.approx(0.9)
    assert summary["off_on_ratio"] == pytest.approx(4.5) and summary["off_data_points"] == 2
    assert summary["grid"] == pytest.approx(2.0 / 3.0)
    none_off = variance_summary(np.zeros(2), np.ones(3), np.zeros(3, dtype=bool))
    assert np.isnan(none_off["off_data"]) and np.isnan(none_off["off_on_ratio"])
    with pytest.raises(ValueError, match="does not match"):
        variance_summary(np.ones(2), np.ones(3), np.ones(2, dtype=bool))


def test_tables_have_one_row_per_optimum_with_ratios_and_failures():
    records = [_map_record(1, 48), _map_record(0, 52), _fit(0, "ela", 0.1, 0.2), _fit(0, "wg", 0.01, 0.04, 2),
               _fit(1, "ela", 0.2, 0.2), _fit(1, "wg", 0.02, 0.1)]
    tidy = tidy_frame((r, "bnn_classifier") for r in records)
    optima = table_cells(SPECS["bnn_classifier_optima"], tidy)
    drop = optima[optima["metric"] == "fisher_drop_index"]
    assert list(drop["anchor"]) == ["optimum0", "optimum1"] and list(drop["mean"]) == [52, 48]
    assert set(optima["metric"]) == {"log_posterior", "log_likelihood", "training_accuracy", "converged",
                                     "fisher_largest", "fisher_drop_index"}
    variance = table_cells(SPECS["bnn_classifier_variance"], tidy)
    ratio = variance[variance["metric"] == "off_on_ratio"].set_index(["anchor", "method"])["mean"]
    np.testing.assert_allclose([ratio[("optimum0", "wg")], ratio[("optimum1", "wg")]], [4.0, 5.0])
    np.testing.assert_allclose([ratio[("optimum0", "ela")], ratio[("optimum1", "ela")]], [2.0, 1.0])
    failed = variance[variance["metric"] == "variance_on_data"].set_index(["anchor", "method"])
    assert list(failed.loc[[("optimum0", "wg"), ("optimum1", "wg")], "n_failed"]) == [2, 0]
    text = render_markdown(SPECS["bnn_classifier_variance"], variance, {})
    assert "(a)" in text and "(b)" in text and "(a), WG: 2 of 10 samples failed" in text


def test_figures_are_written(tmp_path):
    x1, x2 = np.linspace(-1, 1, 4), np.linspace(-2, 2, 5)
    rng = np.random.default_rng(0)
    panels = [{"optimum": k, "x1": x1, "x2": x2, "map_probability": rng.uniform(size=20),
               "ela": rng.uniform(size=20), "wg": rng.uniform(size=20) / 10} for k in range(2)]
    X, y = rng.normal(size=(7, 2)), np.array([0, 1, 0, 1, 1, 0, 1.0])
    fig = variance_figure(panels, X, y)
    assert len(fig.axes) == 2 * 3 + 2  # panels + one colour bar per method
    assert save_figure(fig, tmp_path / "v.pdf")[0].stat().st_size > 0
    spectra = [np.geomspace(1e3, 1e-20, 30), np.geomspace(1e2, 1e-18, 30)]
    fig = spectra_figure(spectra, [10, 12])
    assert len(fig.axes) == 2 and fig.axes[1].get_title() == "(b)"
    assert save_figure(fig, tmp_path / "s.pdf")[0].stat().st_size > 0
    with pytest.raises(ValueError, match="at least one"):
        variance_figure([], X, y)
    with pytest.raises(ValueError, match="optimum index"):
        optimum_label(26)
