"""Rows of 2-D sample scatters over target contours (Yu et al. 2024, Figs. 4, 5, 7, 8, 9).

Each panel of these figures shows one approximation's samples as a scatter over a few
contour lines of the target's log density, on a fixed plot window, with
:math:`\\theta_1` horizontal and :math:`\\theta_2` vertical:

* Fig. 4, squiggle (:math:`a = 1.5`, :math:`S = \\mathrm{diag}(5, 0.05)`): RLA-F, RLA-B;
  window :math:`[-10, 10] \\times [-2, 2]`, levels ``[-5, -3, -1.5]``.
* Fig. 8, "difficult" squiggle (:math:`S = \\mathrm{diag}(10, 0.001)`): RLA-B, RLA-F;
  levels ``[-3, -1, 0]``.
* Fig. 7, banana, 2 x 4: {Euclidean, Hausdorff MAP} x {ELA, RLA-B, RLA-BLog, RLA-F};
  window :math:`[-5.5, 2.5] \\times [-3, 3]`, levels ``[-210, -205, -204]``.
* Fig. 9, funnel (:math:`\\sigma = 3`): ELA, RLA-B, RLA-BLog, RLA-F; window
  :math:`[-10, 10]^2`, levels ``[-10, -5, -2]``.
* Fig. 5 (middle and right panels): RLA-F from the Hausdorff and from a Euclidean MAP
  (:func:`geobayes.report.banana_figures.map_locations_figure`).

The helpers :func:`check_points`, :func:`thin_rows`, :func:`draw_target_contours` and
:func:`draw_sample_panel` are shared with the other target figures.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.metrics.density_grid import check_log_density_grid, check_window

__all__ = [
    "Panel",
    "sample_panels_figure",
    "check_points",
    "thin_rows",
    "draw_target_contours",
    "draw_sample_panel",
    "SAMPLE_COLOUR",
    "MARKER_COLOURS",
]

#: Colour of approximation samples (the paper's blue scatter).
SAMPLE_COLOUR = "C0"
#: Colours of marked points, in the order of a panel's ``markers``.
MARKER_COLOURS = ("C3", "C5", "C2", "C4", "C6", "C8")
_CONTOUR_STYLE = {"colors": "black", "linewidths": 0.8, "linestyles": "solid"}


class Panel(NamedTuple):
    """One panel of a sample figure.

    Attributes
    ----------
    title : str
        Panel title (e.g. ``"RLA-F"``).
    samples : numpy.ndarray
        Approximation samples, shape ``(n, 2)``: column 0 is :math:`\\theta_1`
        (horizontal), column 1 :math:`\\theta_2` (vertical). Failed solves must be dropped
        beforehand (non-finite rows are refused); where every sample failed the array is empty
        and the note must say so (the panel then shows the contours and the note).
    note : str, default ""
        Short text printed in the panel's upper-left corner (e.g. ``"T = 32.4"``).
    markers : mapping of str to numpy.ndarray, default empty
        Label -> points ``(k, 2)`` (or one point ``(2,)``) drawn on top of the samples and
        named in a legend (e.g. ``{"Hausdorff MAP": theta_hat}``).
    """

    title: str
    samples: np.ndarray
    note: str = ""
    markers: Mapping[str, np.ndarray] = MappingProxyType({})


def check_points(points: object, name: str, *, single: bool = False, allow_empty: bool = False) -> np.ndarray:
    """Validate 2-D points and return them as a float64 ``(n, 2)`` array.

    Parameters
    ----------
    points : array_like
        Shape ``(n, 2)`` with ``n >= 1`` (or ``(2,)`` when ``single``).
    name : str
        Name used in error messages.
    single : bool, default False
        Accept one point of shape ``(2,)`` (returned as ``(1, 2)``).
    allow_empty : bool, default False
        Accept ``n == 0`` (a panel whose every sample failed).

    Returns
    -------
    numpy.ndarray
        The points, shape ``(n, 2)``.

    Raises
    ------
    ValueError
        If the shape is not ``(n, 2)`` (or ``(2,)`` when allowed), ``n == 0``, or a value
        is NaN or infinite.
    """
    array = np.asarray(points, dtype=np.float64)
    if single and array.shape == (2,):
        array = array[None, :]
    if array.ndim != 2 or array.shape[1] != 2:
        wanted = "(n, 2) or (2,)" if single else "(n, 2)"
        raise ValueError(f"{name} must have shape {wanted} (theta_1, theta_2 columns); got shape {array.shape}")
    if array.shape[0] == 0 and not allow_empty:
        raise ValueError(f"{name} holds no points")
    bad_rows = ~np.all(np.isfinite(array), axis=1)
    if bad_rows.any():
        raise ValueError(
            f"{name} holds {int(bad_rows.sum())} non-finite rows of {array.shape[0]} "
            "(drop failed solves before plotting and say so in the panel's note)"
        )
    return array


def _panel_samples(panel: Panel) -> np.ndarray:
    """The panel's samples, checked; an empty panel must say why in its note."""
    samples = check_points(panel.samples, f"samples of panel {panel.title!r}", allow_empty=True)
    if samples.shape[0] == 0 and not panel.note:
        raise ValueError(f"samples of panel {panel.title!r} holds no points and its note does not say why "
                         "(e.g. '500 of 500 failed')")
    return samples


def thin_rows(samples: np.ndarray, max_points: int) -> np.ndarray:
    """Deterministic subsample: at most ``max_points`` evenly strided rows, first and last kept.

    Parameters
    ----------
    samples : numpy.ndarray
        Array whose rows are samples.
    max_points : int
        Largest number of rows returned (at least 1).

    Returns
    -------
    numpy.ndarray
        ``samples`` itself if it has at most ``max_points`` rows, else the rows at
        ``round(linspace(0, n - 1, max_points))``.
    """
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)) or max_points < 1:
        raise ValueError(f"max_points must be a positive integer; got {max_points!r}")
    n = samples.shape[0]
    if n <= max_points:
        return samples
    if max_points == 1:
        return samples[:1]
    return samples[np.round(np.linspace(0, n - 1, max_points)).astype(int)]


def _check_levels(levels: Sequence[float]) -> np.ndarray:
    values = np.asarray(levels, dtype=np.float64)
    if values.ndim != 1 or values.size == 0 or not np.all(np.isfinite(values)):
        raise ValueError(f"levels must be a non-empty sequence of finite log-density values; got {levels!r}")
    values = np.sort(values)
    if np.any(np.diff(values) == 0):
        raise ValueError(f"levels must be distinct; got {levels!r}")
    return values


def draw_target_contours(
    ax: Axes, grid: tuple[np.ndarray, np.ndarray, np.ndarray], levels: Sequence[float], **style: object
) -> None:
    """Draw contour lines of a gridded log density at ``levels`` (black, thin, solid; below samples).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Target axes.
    grid : tuple of numpy.ndarray
        ``(xx, yy, zz)`` from :func:`geobayes.metrics.density_grid.log_density_grid`.
    levels : sequence of float
        Log-density values (sorted here).
    **style
        Overrides of the contour style (e.g. ``linestyles="dashed"``).

    Raises
    ------
    ValueError
        If the levels are invalid, or if none lies within the range of the log density
        on the grid (the panel would show no contour: usually levels meant for a log
        density with another additive constant).
    """
    values = _check_levels(levels)
    xx, yy, zz = grid
    finite = zz[np.isfinite(zz)]
    if finite.size == 0:
        raise ValueError("the log density is -inf on the whole plot window; nothing to contour")
    low, high = float(finite.min()), float(finite.max())
    if not np.any((values > low) & (values < high)):
        raise ValueError(
            f"no contour level of {values.tolist()} lies within the log density's range [{low:.4g}, {high:.4g}] "
            "on the plot window (levels are log-density values and depend on its additive constant)"
        )
    ax.contour(xx, yy, np.ma.masked_invalid(zz), levels=values, zorder=1, **{**_CONTOUR_STYLE, **style})


def _check_markers(panel: Panel) -> dict[str, np.ndarray]:
    if not isinstance(panel.markers, Mapping):
        raise ValueError(
            f"markers of panel {panel.title!r} must map labels to points; got {type(panel.markers).__name__}"
        )
    return {
        str(label): check_points(points, f"marker {label!r} of panel {panel.title!r}", single=True)
        for label, points in panel.markers.items()
    }


def draw_sample_panel(
    ax: Axes,
    panel: Panel,
    grid: tuple[np.ndarray, np.ndarray, np.ndarray],
    levels: Sequence[float],
    *,
    xlim: tuple[float, float],
    ylim: tuple[float, float],
    max_points: int = 2000,
) -> None:
    """Draw one :class:`Panel`: contours, thinned sample scatter, markers, note and title.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Target axes.
    panel : Panel
        What to draw.
    grid : tuple of numpy.ndarray
        ``(xx, yy, zz)`` of the target's log density.
    levels : sequence of float
        Contour levels (log-density values).
    xlim, ylim : tuple of float
        Plot window.
    max_points : int, default 2000
        Most samples drawn (:func:`thin_rows`).
    """
    if not isinstance(panel, Panel):
        raise TypeError(f"expected a Panel, got {type(panel).__name__}")
    samples = _panel_samples(panel)
    markers = _check_markers(panel)
    draw_target_contours(ax, grid, levels)
    shown = thin_rows(samples, max_points)
    ax.scatter(shown[:, 0], shown[:, 1], s=2, alpha=0.35, color=SAMPLE_COLOUR, linewidths=0, zorder=2,
               rasterized=True)
    for k, (label, marked) in enumerate(markers.items()):
        ax.plot(marked[:, 0], marked[:, 1], "o", ms=5, mec="black", mew=0.6,
                color=MARKER_COLOURS[k % len(MARKER_COLOURS)], label=label, linestyle="none", zorder=3)
    if markers:
        ax.legend(loc="lower right", frameon=True, framealpha=0.8, handletextpad=0.2, borderpad=0.3)
    if panel.note:
        ax.text(0.03, 0.97, panel.note, transform=ax.transAxes, ha="left", va="top", zorder=4,
                bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.8})
    ax.set_title(panel.title)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)


def sample_panels_figure(
    panels: Sequence[Panel],
    *,
    density: tuple[np.ndarray, np.ndarray, np.ndarray],
    xlim: Sequence[float],
    ylim: Sequence[float],
    levels: Sequence[float],
    ncols: int | None = None,
    max_points: int = 2000,
    axis_labels: tuple[str, str] = (r"$\theta_1$", r"$\theta_2$"),
) -> Figure:
    """Grid of sample scatters over target contours (Yu et al. 2024, Figs. 4, 5, 7, 8, 9).

    Parameters
    ----------
    panels : sequence of Panel
        One axes each, filled row by row.
    density : tuple of numpy.ndarray
        The target's log density on a grid over the window, ``(xx, yy, zz)`` as
        :func:`geobayes.metrics.density_grid.log_density_grid` computes it (upstream, in rule
        ``target_density_grid``: a figure only draws).
    xlim, ylim : sequence of float
        Plot window of :math:`\\theta_1` (horizontal) and :math:`\\theta_2` (vertical).
    levels : sequence of float
        Contour levels as log-density values, as in the paper's code (banana
        ``[-210, -205, -204]``, squiggle ``[-5, -3, -1.5]`` / difficult ``[-3, -1, 0]``,
        funnel ``[-10, -5, -2]``).
    ncols : int, optional
        Panels per row; default all in one row up to 4 (Fig. 7 passes 4 for its 2 x 4).
    max_points : int, default 2000
        Most samples drawn per panel (deterministic, evenly strided subsample).
    axis_labels : tuple of str
        Labels of the horizontal and vertical axes (outer axes only).

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not registered with pyplot).

    Raises
    ------
    ValueError
        On no panels, a bad ``ncols``, window or levels, samples that are not finite
        ``(n, 2)`` arrays, or levels outside the log density's range on the window.
    """
    panels = list(panels)
    if not panels:
        raise ValueError("panels must hold at least one Panel")
    for panel in panels:
        if not isinstance(panel, Panel):
            raise TypeError(f"panels must be Panel instances; got {type(panel).__name__}")
    if ncols is None:
        ncols = min(len(panels), 4)
    if isinstance(ncols, bool) or not isinstance(ncols, (int, np.integer)) or ncols < 1:
        raise ValueError(f"ncols must be a positive integer; got {ncols!r}")
    if len(axis_labels) != 2:
        raise ValueError(f"axis_labels must be two strings (horizontal, vertical); got {axis_labels!r}")
    window_x, window_y = check_window(xlim, "xlim"), check_window(ylim, "ylim")
    _check_levels(levels)
    for panel in panels:
        _panel_samples(panel)
        _check_markers(panel)
    grid = check_log_density_grid(density)

    ncols = min(int(ncols), len(panels))
    nrows = math.ceil(len(panels) / ncols)
    fig = Figure(figsize=(2.4 * ncols, 2.2 * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True)
    for index, ax in enumerate(axes.flat):
        if index >= len(panels):
            ax.remove()
            continue
        draw_sample_panel(ax, panels[index], grid, levels, xlim=window_x, ylim=window_y, max_points=max_points)
        row, col = divmod(index, ncols)
        if row == nrows - 1 or index + ncols >= len(panels):
            ax.set_xlabel(axis_labels[0])
            ax.xaxis.set_tick_params(labelbottom=True)
        if col == 0:
            ax.set_ylabel(axis_labels[1])
    return fig
