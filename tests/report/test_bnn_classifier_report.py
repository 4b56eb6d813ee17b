"""Report of Hartmann et al. (2026), App. D: Figs. 8-9 and the per-optimum table."""

from __future__ import annotations

import numpy as np
import pytest

from geobayes.report.bnn_classifier import (
    classifier_table,
    optimum_label,
    spectra_figure,
    variance_figure,
)
from geobayes.report.figures import save_figure


def _map_record(k, drop):
    return {"optimum": k, "logdensity": -100.0 - k, "log_likelihood": -90.0 - k, "training_accuracy": 0.9,
            "converged": True, "fisher_spectrum": {"largest": 1e3, "drop_index": drop, "above": {"1e-06": drop + 3}}}


def _fit(on, off, failed=0):
    return {"predictive_variance": {"on_data": on, "off_data": off}, "n_samples": 10, "n_failed": failed,
            "max_residual": 0.1}


def test_table_has_one_row_per_optimum_with_ratios_and_failures():
    maps = [_map_record(1, 48), _map_record(0, 52)]
    fits = {(0, "ela"): _fit(0.1, 0.2), (0, "wg"): _fit(0.01, 0.04, 2),
            (1, "ela"): _fit(0.2, 0.2), (1, "wg"): _fit(0.02, 0.1)}
    table = classifier_table(maps, fits)
    assert list(table["optimum"]) == ["(a)", "(b)"]
    assert list(table["fisher_drop_index"]) == [52, 48]
    assert list(table["fisher_above_1e-06_rel"]) == [55, 51]
    np.testing.assert_allclose(table["wg_off_on_ratio"], [4.0, 5.0])
    np.testing.assert_allclose(table["la_off_on_ratio"], [2.0, 1.0])
    assert list(table["wg_failed"]) == [2, 0] and list(table["wg_samples"]) == [10, 10]
    del fits[(1, "wg")]
    with pytest.raises(KeyError, match="optimum 1.*'wg'"):
        classifier_table(maps, fits)


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
