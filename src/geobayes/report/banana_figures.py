"""Banana figures of Yu et al. (2024): Fig. 1 (Fisher metric and Exp map) and Fig. 5 (MAP choice).

The banana posterior (Sec. 5.2): :math:`\\theta \\sim \\mathcal N(0, 2^2 I)`,
:math:`y_n \\mid \\theta \\sim \\mathcal N(\\theta_1 + \\theta_2^2, 2^2)`, :math:`N = 100`.
It has two Euclidean MAPs, mirror images under :math:`\\theta_2 \\mapsto -\\theta_2`, and
one Hausdorff MAP on the :math:`\\theta_1` axis. :math:`\\theta_1` is horizontal and
:math:`\\theta_2` vertical, as in the paper.

* Fig. 1, left: ellipses of :math:`G(\\theta)^{-1}` (Fisher metric, green) on a 7 x 7 grid
  over :math:`[-2.7, 2.3] \\times [-1, 4]`, with diameters
  :math:`0.5\\sqrt{\\lambda_i}` along the eigenvectors of :math:`G^{-1}` (as the paper's
  code), over dashed target contours at log densities ``-210, -205, -200``. Right:
  Gaussian points :math:`\\hat\\theta + v` (orange), their images
  :math:`\\mathrm{Exp}_{\\hat\\theta}(v)` (blue), the MAP (red) and one arrow from a point
  to its image. No ticks.
* Fig. 5: left, the contours with both Euclidean MAPs (blue) and the Hausdorff MAP
  (brown); middle, RLA-F samples from the Hausdorff MAP; right, from a Euclidean MAP.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Ellipse

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.metrics.density_grid import check_log_density_grid, check_window
from geobayes.report.plot_windows import BANANA_METRIC_WINDOW, ELLIPSE_GRID, ellipse_centres
from geobayes.report.sample_panels import Panel, check_points, draw_sample_panel, draw_target_contours

__all__ = [
    "ELLIPSE_SCALE",
    "metric_ellipse",
    "metric_ellipses_figure",
    "map_locations_figure",
]

#: Ellipse diameters are this multiple of the square roots of the eigenvalues of G^{-1}
#: (``multiplier = 0.5`` in the paper's code for Fig. 1).
ELLIPSE_SCALE = 0.5

_BASE_COLOUR = "orange"
_MAPPED_COLOUR = "C0"
_METRIC_COLOUR = "green"
_MODE_COLOUR = "red"
_EUCLIDEAN_MAP_COLOUR = "C0"
_HAUSDORFF_MAP_COLOUR = "C5"


def _check_metric(matrix: object, theta: np.ndarray) -> np.ndarray:
    g = np.asarray(matrix, dtype=np.float64)
    where = f"at theta = {theta.tolist()}"
    if g.shape != (2, 2):
        raise ValueError(f"metric must be a (2, 2) matrix; got shape {g.shape} {where}")
    if not np.all(np.isfinite(g)):
        raise ValueError(f"metric is not finite {where}: {g.tolist()}")
    if not np.allclose(g, g.T, rtol=1e-8, atol=1e-12 * max(1.0, float(np.abs(g).max()))):
        raise ValueError(f"metric is not symmetric {where}: {g.tolist()}")
    if np.linalg.eigvalsh(0.5 * (g + g.T))[0] <= 0.0:
        raise ValueError(f"metric is not positive definite {where}: {g.tolist()}")
    return 0.5 * (g + g.T)


def metric_ellipse(metric_matrix: np.ndarray, centre: Sequence[float], scale: float = ELLIPSE_SCALE) -> Ellipse:
    """Ellipse of :math:`G^{-1}` at ``centre``: diameters ``scale * sqrt(eigenvalues of G^{-1})``.

    Parameters
    ----------
    metric_matrix : numpy.ndarray
        Symmetric positive-definite metric :math:`G`, shape ``(2, 2)``.
    centre : sequence of float
        Where the ellipse is drawn.
    scale : float, default :data:`ELLIPSE_SCALE`
        Multiple of :math:`\\sqrt{\\lambda_i(G^{-1})}` giving each diameter.

    Returns
    -------
    matplotlib.patches.Ellipse
        Unfilled green ellipse (not yet added to an axes); ``width`` lies along the
        eigenvector of the largest eigenvalue of :math:`G^{-1}`.
    """
    centre = np.asarray(centre, dtype=np.float64)
    g = _check_metric(metric_matrix, centre)
    eigenvalues, eigenvectors = np.linalg.eigh(np.linalg.inv(g))
    major = eigenvectors[:, 1]
    return Ellipse(
        xy=tuple(centre),
        width=scale * np.sqrt(eigenvalues[1]),
        height=scale * np.sqrt(eigenvalues[0]),
        angle=float(np.degrees(np.arctan2(major[1], major[0]))),
        facecolor="none",
        edgecolor=_METRIC_COLOUR,
        linewidth=0.9,
        zorder=2,
    )


def _plain_axes(ax: Axes, xlim: tuple[float, float], ylim: tuple[float, float]) -> None:
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_xlabel(r"$\theta_1$")
    ax.set_ylabel(r"$\theta_2$")


def _inside(points: np.ndarray, xlim: tuple[float, float], ylim: tuple[float, float]) -> np.ndarray:
    return (
        (points[:, 0] >= xlim[0]) & (points[:, 0] <= xlim[1]) & (points[:, 1] >= ylim[0]) & (points[:, 1] <= ylim[1])
    )


def _arrow_pair(
    base: np.ndarray, mapped: np.ndarray, toward: np.ndarray, xlim: tuple[float, float], ylim: tuple[float, float]
) -> int:
    """Row whose base point is nearest ``toward``, among rows with both ends in the window if any."""
    candidates = np.flatnonzero(_inside(base, xlim, ylim) & _inside(mapped, xlim, ylim))
    if candidates.size == 0:
        candidates = np.arange(base.shape[0])
    return int(candidates[np.argmin(np.linalg.norm(base[candidates] - toward, axis=1))])


def metric_ellipses_figure(
    metrics: np.ndarray,
    density: tuple[np.ndarray, np.ndarray, np.ndarray],
    mode: Sequence[float],
    base_points: np.ndarray,
    mapped_points: np.ndarray,
    *,
    grid: tuple[int, int] = ELLIPSE_GRID,
    xlim: Sequence[float] = BANANA_METRIC_WINDOW.xlim,
    ylim: Sequence[float] = BANANA_METRIC_WINDOW.ylim,
    levels: Sequence[float] = BANANA_METRIC_WINDOW.levels,
    arrow_toward: Sequence[float] = (1.2, 3.5),
) -> Figure:
    """Fisher-metric ellipses and the exponential map on the banana (Yu et al. 2024, Fig. 1).

    Parameters
    ----------
    metrics : numpy.ndarray
        The metric :math:`G(\\theta)` (the Fisher metric in the paper), symmetric positive definite,
        at each ellipse centre (:func:`geobayes.report.plot_windows.ellipse_centres` of ``grid``,
        ``xlim``, ``ylim``): shape ``(grid[0] * grid[1], 2, 2)``.
    density : tuple of numpy.ndarray
        The target's log density on a grid over the window, ``(xx, yy, zz)``
        (:func:`geobayes.metrics.density_grid.log_density_grid`, computed upstream).
    mode : sequence of float
        The MAP :math:`\\hat\\theta` (the paper's code uses the Hausdorff MAP), shape ``(2,)``.
    base_points : numpy.ndarray
        Gaussian points :math:`\\hat\\theta + v`, shape ``(n, 2)`` (300 in the paper).
    mapped_points : numpy.ndarray
        Their images :math:`\\mathrm{Exp}_{\\hat\\theta}(v)`, shape ``(n, 2)``, row by row.
    grid : tuple of int, default :data:`~geobayes.report.plot_windows.ELLIPSE_GRID`
        Ellipse centres along :math:`\\theta_1` and :math:`\\theta_2`, evenly spaced over
        the window including its edges.
    xlim, ylim : sequence of float
        Window of both panels.
    levels : sequence of float
        Contour levels (log-density values; the paper's ``-200`` lies above the banana's
        maximum, so only two lines show).
    arrow_toward : sequence of float, default (1.2, 3.5)
        The arrow joins the pair whose base point is nearest this point (the paper's
        code's choice), among the pairs with both ends inside the window when there are any.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels; ``axes[0].patches`` are the ellipses (row-major over the grid,
        :math:`\\theta_1` fastest).

    Raises
    ------
    ValueError
        On a bad window, grid, density grid, levels or point arrays, base and mapped points of
        different shapes, or metrics that are not one finite symmetric positive-definite
        ``(2, 2)`` matrix per centre.
    """
    window_x, window_y = check_window(xlim, "xlim"), check_window(ylim, "ylim")
    centres = ellipse_centres(grid, window_x, window_y)
    metrics = np.asarray(metrics, dtype=np.float64)
    if metrics.shape != (len(centres), 2, 2):
        raise ValueError(f"metrics must hold one (2, 2) matrix per ellipse centre of the {grid} grid: expected shape "
                         f"{(len(centres), 2, 2)}, got {metrics.shape}")
    mode = check_points(mode, "mode", single=True)
    if mode.shape != (1, 2):
        raise ValueError(f"mode must be one point of shape (2,); got {mode.shape[0]} points")
    base = check_points(base_points, "base_points")
    mapped = check_points(mapped_points, "mapped_points")
    if base.shape != mapped.shape:
        raise ValueError(
            f"base_points and mapped_points must pair up row by row; got shapes {base.shape} and {mapped.shape}"
        )
    target_point = check_points(arrow_toward, "arrow_toward", single=True)[0]
    ellipses = [metric_ellipse(matrix, centre) for matrix, centre in zip(metrics, centres, strict=True)]
    density = check_log_density_grid(density)

    fig = Figure(figsize=(5.6, 2.9), layout="constrained")
    ax_metric, ax_map = fig.subplots(1, 2)
    draw_target_contours(ax_metric, density, levels, linestyles="dashed")
    for ellipse in ellipses:
        ax_metric.add_patch(ellipse)
    _plain_axes(ax_metric, window_x, window_y)
    ax_metric.set_title(r"metric $G(\theta)^{-1}$")

    draw_target_contours(ax_map, density, levels, linestyles="dashed")
    ax_map.scatter(base[:, 0], base[:, 1], s=6, alpha=0.5, color=_BASE_COLOUR, linewidths=0, zorder=2,
                   label=r"$\hat\theta + v$")
    ax_map.scatter(mapped[:, 0], mapped[:, 1], s=6, alpha=0.5, color=_MAPPED_COLOUR, linewidths=0, zorder=2,
                   label=r"$\mathrm{Exp}_{\hat\theta}(v)$")
    ax_map.plot(mode[0, 0], mode[0, 1], "o", ms=6, color=_MODE_COLOUR, mec="black", mew=0.5, zorder=5,
                label=r"$\hat\theta$")
    chosen = _arrow_pair(base, mapped, target_point, window_x, window_y)
    start, end = base[chosen], mapped[chosen]
    ax_map.annotate("", xy=tuple(end), xytext=tuple(start), zorder=6,
                    arrowprops={"arrowstyle": "-|>", "color": "darkolivegreen", "lw": 1.2, "shrinkA": 2,
                                "shrinkB": 2})
    middle = 0.5 * (start + end)
    ax_map.annotate(r"$\mathrm{Exp}_{\hat\theta}(v)$", xy=tuple(middle), xytext=(0, 4), textcoords="offset points",
                    ha="center", va="bottom", zorder=6)
    _plain_axes(ax_map, window_x, window_y)
    ax_map.legend(loc="lower left", frameon=True, framealpha=0.8, handletextpad=0.2)
    ax_map.set_title("exponential map")
    return fig


def map_locations_figure(
    density: tuple[np.ndarray, np.ndarray, np.ndarray],
    euclidean_maps: np.ndarray,
    hausdorff_map: Sequence[float],
    hausdorff_samples: np.ndarray,
    euclidean_samples: np.ndarray,
    *,
    xlim: Sequence[float],
    ylim: Sequence[float],
    levels: Sequence[float],
    max_points: int = 2000,
) -> Figure:
    """Where the MAPs lie, and RLA-F from each (Yu et al. 2024, Fig. 5).

    Parameters
    ----------
    density : tuple of numpy.ndarray
        The target's log density on a grid over the window, ``(xx, yy, zz)`` (computed upstream,
        rule ``target_density_grid``).
    euclidean_maps : numpy.ndarray
        The Euclidean MAPs (maxima of the log density), shape ``(k, 2)`` (two on the banana).
    hausdorff_map : sequence of float
        The Hausdorff MAP (maximum of :math:`\\log\\pi - \\frac12\\log\\det G`), shape ``(2,)``.
    hausdorff_samples, euclidean_samples : numpy.ndarray
        RLA-F samples started from the Hausdorff MAP and from a Euclidean MAP, ``(n, 2)``.
    xlim, ylim : sequence of float
        Window of all three panels (the paper's banana window is
        :math:`[-5.5, 2.5] \\times [-3, 3]`).
    levels : sequence of float
        Contour levels (log-density values; banana ``[-210, -205, -204]``).
    max_points : int, default 2000
        Most samples drawn per panel.

    Returns
    -------
    matplotlib.figure.Figure
        Three panels (left: MAP locations; middle: from the Hausdorff MAP; right: from the
        Euclidean MAP).

    Raises
    ------
    ValueError
        On a bad window or levels, or point arrays that are not finite with two columns.
    """
    window_x, window_y = check_window(xlim, "xlim"), check_window(ylim, "ylim")
    euclidean = check_points(euclidean_maps, "euclidean_maps", single=True)
    hausdorff = check_points(hausdorff_map, "hausdorff_map", single=True)
    if hausdorff.shape != (1, 2):
        raise ValueError(f"hausdorff_map must be one point of shape (2,); got {hausdorff.shape[0]} points")
    panels = [
        Panel("RLA-F, Hausdorff MAP", check_points(hausdorff_samples, "hausdorff_samples")),
        Panel("RLA-F, Euclidean MAP", check_points(euclidean_samples, "euclidean_samples")),
    ]
    density = check_log_density_grid(density)

    fig = Figure(figsize=(7.2, 2.5), layout="constrained")
    ax_maps, *ax_samples = fig.subplots(1, 3, sharex=True, sharey=True)
    draw_target_contours(ax_maps, density, levels)
    ax_maps.plot(euclidean[:, 0], euclidean[:, 1], "o", ms=5, color=_EUCLIDEAN_MAP_COLOUR, mec="black", mew=0.5,
                 linestyle="none", zorder=3, label="Euclidean MAP" + ("s" if len(euclidean) > 1 else ""))
    ax_maps.plot(hausdorff[:, 0], hausdorff[:, 1], "o", ms=5, color=_HAUSDORFF_MAP_COLOUR, mec="black", mew=0.5,
                 linestyle="none", zorder=3, label="Hausdorff MAP")
    ax_maps.legend(loc="best", frameon=True, framealpha=0.8, handletextpad=0.2)
    ax_maps.set_title("MAP locations")
    ax_maps.set_xlim(window_x)
    ax_maps.set_ylim(window_y)
    for ax, panel in zip(ax_samples, panels, strict=True):
        draw_sample_panel(ax, panel, density, levels, xlim=window_x, ylim=window_y, max_points=max_points)
    for ax in (ax_maps, *ax_samples):
        ax.set_xlabel(r"$\theta_1$")
    ax_maps.set_ylabel(r"$\theta_2$")
    return fig
