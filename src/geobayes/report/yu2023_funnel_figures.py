"""Yu et al. (2023), Figs. 1 and 2: Monge geodesics on the funnel and the samplers' draws.

Both figures only draw: the geodesic paths, their endpoints, the chains' draws and the log
density on the window are computed upstream (rules ``yu2023_funnel_geodesics``,
``yu2023_funnel_chain`` and ``target_density_grid``-style grids written with the figure data).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from matplotlib.figure import Figure

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.metrics.density_grid import check_log_density_grid, check_window
from geobayes.report.sample_panels import Panel, check_points, draw_sample_panel, draw_target_contours

__all__ = ["GeodesicPanel", "SamplerPanel", "funnel_geodesics_figure", "funnel_samples_figure"]

#: The paper's colour of geodesics (red arrows and the red endpoint curve).
GEODESIC_COLOUR = "C3"


class GeodesicPanel(NamedTuple):
    """One panel of Fig. 1.

    Attributes
    ----------
    base_point : numpy.ndarray
        Start of every geodesic, shape ``(2,)``.
    paths : numpy.ndarray
        Geodesics drawn as arrows, shape ``(k, T, 2)`` (points along each path, finite).
    endpoints : numpy.ndarray
        ``Exp_base(v)`` for many directions, in angular order, shape ``(m, 2)``: the curve.
    """

    base_point: np.ndarray
    paths: np.ndarray
    endpoints: np.ndarray


class SamplerPanel(NamedTuple):
    """One sampler of Fig. 2.

    Attributes
    ----------
    title : str
        Sampler label.
    points : numpy.ndarray
        Draws shown in the scatter, shape ``(n, 2)``.
    theta2 : numpy.ndarray
        Draws of the last coordinate for the histogram, shape ``(m,)``.
    note : str
        Text in the scatter's corner (e.g. the W1 of the marginal).
    """

    title: str
    points: np.ndarray
    theta2: np.ndarray
    note: str = ""


def funnel_geodesics_figure(panels: Sequence[GeodesicPanel], *, density, xlim, ylim, levels) -> Figure:
    """Fig. 1: Monge-metric geodesics from each base point over the funnel's contours.

    Parameters
    ----------
    panels : sequence of GeodesicPanel
        One axes each (the paper: base points (2, -4) and (5, 10)).
    density : tuple of numpy.ndarray
        ``(xx, yy, zz)``, the log density on the window.
    xlim, ylim : sequence of float
        The window (paper's code: [-5, 9] x [-25, 25]).
    levels : sequence of float
        Contour levels (log-density values).
    """
    panels = list(panels)
    if not panels:
        raise ValueError("panels must hold at least one GeodesicPanel")
    grid = check_log_density_grid(density)
    xlim, ylim = check_window(xlim, "xlim"), check_window(ylim, "ylim")
    fig = Figure(figsize=(3.0 * len(panels), 3.0), constrained_layout=True)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, panel in zip(axes, panels):
        base = check_points(panel.base_point, "base_point", single=True)[0]
        paths = np.asarray(panel.paths, dtype=np.float64)
        if paths.ndim != 3 or paths.shape[2] != 2 or paths.shape[1] < 2 or not np.all(np.isfinite(paths)):
            raise ValueError(f"paths must be finite with shape (k, T >= 2, 2); got shape {paths.shape}")
        endpoints = check_points(panel.endpoints, "endpoints")
        draw_target_contours(ax, grid, levels)
        for path in paths:
            ax.plot(path[:, 0], path[:, 1], color=GEODESIC_COLOUR, lw=0.9, zorder=2)
            ax.annotate("", xy=path[-1], xytext=path[-2], zorder=3,
                        arrowprops={"arrowstyle": "-|>", "color": GEODESIC_COLOUR, "lw": 0.9})
        closed = np.vstack([endpoints, endpoints[:1]])
        ax.plot(closed[:, 0], closed[:, 1], color=GEODESIC_COLOUR, lw=1.4, zorder=2)
        ax.plot(*base, "o", color="black", ms=3, zorder=4)
        ax.set_title(f"base point ({base[0]:g}, {base[1]:g})")
        ax.set_xlim(xlim)
        ax.set_ylim(ylim)
        ax.set_xlabel(r"$\theta_1$")
    axes[0].set_ylabel(r"$\theta_2$")
    return fig


def funnel_samples_figure(panels: Sequence[SamplerPanel], *, density, xlim, ylim, levels, variance: float,
                          bins: int = 60) -> Figure:
    """Fig. 2: per sampler, its draws over the contours and the histogram of ``theta_2``
    against the exact marginal ``N(0, variance)`` (a line).

    Parameters
    ----------
    panels : sequence of SamplerPanel
        One pair of axes each (the paper: Identity, RMSprop, Monge, Shampoo).
    density, xlim, ylim, levels
        As :func:`funnel_geodesics_figure`.
    variance : float
        Variance of the exact ``theta_2`` marginal (paper's code: 80).
    bins : int
        Histogram bins over ``ylim``.
    """
    panels = list(panels)
    if not panels:
        raise ValueError("panels must hold at least one SamplerPanel")
    if not (np.isfinite(variance) and variance > 0):
        raise ValueError(f"variance must be finite and > 0, got {variance}")
    grid = check_log_density_grid(density)
    xlim, ylim = check_window(xlim, "xlim"), check_window(ylim, "ylim")
    fig = Figure(figsize=(2.6 * len(panels), 4.6), constrained_layout=True)
    axes = fig.subplots(2, len(panels), squeeze=False, gridspec_kw={"height_ratios": [1.6, 1.0]})
    y = np.linspace(*ylim, 400)
    exact = np.exp(-0.5 * y**2 / variance) / np.sqrt(2 * np.pi * variance)
    for column, panel in enumerate(panels):
        draw_sample_panel(axes[0, column], Panel(panel.title, panel.points, panel.note), grid, levels,
                          xlim=xlim, ylim=ylim)
        theta2 = np.asarray(panel.theta2, dtype=np.float64)
        if theta2.ndim != 1 or theta2.size == 0 or not np.all(np.isfinite(theta2)):
            raise ValueError(f"theta2 of {panel.title!r} must be a non-empty finite 1-D array; got shape {theta2.shape}")
        hist = axes[1, column]
        hist.hist(theta2, bins=np.linspace(*ylim, bins + 1), density=True, orientation="horizontal",
                  color="orange", alpha=0.7)
        hist.plot(exact, y, color="C0", lw=1.2)
        hist.set_ylim(ylim)
        hist.set_xlabel("density")
        axes[0, column].set_xlabel(r"$\theta_1$")
    axes[0, 0].set_ylabel(r"$\theta_2$")
    axes[1, 0].set_ylabel(r"$\theta_2$")
    return fig
