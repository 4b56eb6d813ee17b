"""Yu et al. (2023) Figs. 1 and 2 draw what they are given and refuse bad input by name."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.metrics.density_grid import log_density_grid
from geobayes.report.figures import save_figure
from geobayes.report.plot_windows import YU2023_FUNNEL_WINDOW as WINDOW
from geobayes.report.yu2023_funnel_figures import (GeodesicPanel, SamplerPanel, funnel_geodesics_figure,
                                                     funnel_samples_figure)
from geobayes.targets import SoftplusFunnel

FUNNEL = SoftplusFunnel("yu2023_funnel")


@pytest.fixture(scope="module")
def density():
    logdensity = jax.jit(jax.vmap(FUNNEL.logdensity))
    return log_density_grid(lambda p: np.asarray(logdensity(jnp.asarray(p))), WINDOW.xlim, WINDOW.ylim, n=60)


def _geodesic_panel(base):
    t = np.linspace(0, 1, 5)[:, None]
    directions = np.array([[1.0, 0.0], [0.0, 1.0]])
    paths = np.stack([base + t * 3 * d for d in directions])
    angles = np.linspace(0, 2 * np.pi, 50, endpoint=False)
    return GeodesicPanel(np.array(base), paths, base + 3 * np.stack([np.cos(angles), np.sin(angles)], 1))


def test_figures_draw_and_save(tmp_path, density):
    fig = funnel_geodesics_figure([_geodesic_panel([2.0, -4.0]), _geodesic_panel([5.0, 10.0])], density=density,
                                  xlim=WINDOW.xlim, ylim=WINDOW.ylim, levels=WINDOW.levels)
    assert len(fig.axes) == 2
    save_figure(fig, tmp_path / "geodesics.png")
    draws = np.asarray(FUNNEL.sample_exact(jax.random.PRNGKey(0), 500))
    panels = [SamplerPanel(name, draws, draws[:, 1], "W1 0.1") for name in ("Identity", "Monge")]
    fig = funnel_samples_figure(panels, density=density, xlim=WINDOW.xlim, ylim=WINDOW.ylim, levels=WINDOW.levels,
                                variance=80.0)
    assert len(fig.axes) == 4
    assert (tmp_path / "geodesics.png").stat().st_size > 0
    save_figure(fig, tmp_path / "samples.png")


def test_bad_inputs_are_named(density):
    bad = _geodesic_panel([2.0, -4.0])._replace(paths=np.zeros((2, 1, 2)))
    with pytest.raises(ValueError, match="paths must be finite with shape"):
        funnel_geodesics_figure([bad], density=density, xlim=WINDOW.xlim, ylim=WINDOW.ylim, levels=WINDOW.levels)
    panel = SamplerPanel("Identity", np.zeros((3, 2)), np.array([np.nan]))
    with pytest.raises(ValueError, match="theta2 of 'Identity'"):
        funnel_samples_figure([panel], density=density, xlim=WINDOW.xlim, ylim=WINDOW.ylim, levels=WINDOW.levels,
                              variance=80.0)
    with pytest.raises(ValueError, match="variance must be finite"):
        funnel_samples_figure([panel], density=density, xlim=WINDOW.xlim, ylim=WINDOW.ylim, levels=WINDOW.levels,
                              variance=0.0)
