"""Yu et al. (2023) Fig. 3 draws the per-seed curves it is given and names bad input."""

from __future__ import annotations

import numpy as np
import pytest

from geobayes.report.figures import save_figure
from geobayes.report.yu2023_mnist_figures import convergence_figure


def test_convergence_figure_draws_two_panels_with_bands(tmp_path):
    rng = np.random.default_rng(0)
    curves = {name: {"test_lp": -0.1 + 0.01 * rng.normal(size=(2, 6)), "test_accuracy": 0.97 + 0.001 * rng.normal(size=(2, 6))}
              for name in ("identity", "monge")}
    curves["identity"]["test_lp"][:, 0] = np.nan  # burn-in: no sample yet
    fig = convergence_figure(curves, {"identity": "Identity", "monge": "Monge"})
    lp_axes = fig.axes[0]
    assert len(lp_axes.lines) == 2 and len(lp_axes.collections) == 2
    np.testing.assert_allclose(lp_axes.lines[1].get_ydata(), curves["monge"]["test_lp"].mean(axis=0))
    save_figure(fig, tmp_path / "fig3.png")
    assert (tmp_path / "fig3.png").stat().st_size > 0


def test_bad_curves_are_named():
    with pytest.raises(ValueError, match="curves must hold at least one sampler"):
        convergence_figure({}, {})
    with pytest.raises(ValueError, match=r"monge test_lp must have shape \(seeds, epochs\)"):
        convergence_figure({"monge": {"test_lp": np.zeros(3), "test_accuracy": np.zeros((1, 3))}}, {})
