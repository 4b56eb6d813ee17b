"""Figures of BNN regression on Snelson's 1-D data (function samples, predictive bands, push-forwards).

* :func:`function_sample_panels` -- a grid (rows: splits such as complete / gap; columns:
  methods) of posterior function samples: Yu et al. (2024), Figs. 6 and 10-14 (grey
  shading over the x-range of the training data, training points, thin blue sample
  curves, the dark mean prediction; x in [-0.5, 6.5], y in [-4, 6], no ticks) and
  Bergamin et al. (2023), Fig. 5 and the "posterior" panels of Figs. D.1-D.4.
* :func:`predictive_band_panels` -- the same grid with the predictive mean and a
  mean :math:`\\pm 2` std band of the predictive including the observation noise
  (Bergamin et al. 2023, the "predictive" panels of Figs. D.1-D.4).
* :func:`pushforward_figure` -- Hartmann et al. (2026), Fig. 5: predictive means of WG,
  NUTS, LA and the MAP curve; the predictive samples at a few inputs; per method the
  predictive mean with a 95 % credible band.
* :func:`wasserstein_across_maps_figure` -- Hartmann et al. (2026), App. D, Fig. 7:
  mean and variance over pairs of MAP estimates of the push-forward :math:`W_2` against
  :math:`x` (:func:`geobayes.metrics.predictive.pairwise_pushforward_wasserstein2`).

Each writer takes the destination ``path`` (its suffix, ``.pdf``, ``.png`` or ``.svg``,
is the format) and optionally a ``png_path`` for a PNG copy, as
:func:`geobayes.report.figures.save_figure` writes a PDF for the paper and a PNG for the
report; every file is written atomically (:func:`geobayes.io.atomic_path`). The
``build_*`` functions return the :class:`matplotlib.figure.Figure` without writing it.
Figures are made without pyplot (Agg backend, selected by :mod:`geobayes.report.figures`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from geobayes.metrics.map_robustness import training_intervals  # re-exported (the figures shade them)
from geobayes.metrics.predictive import predictive_quantiles
from geobayes.metrics.density_grid import check_window
from geobayes.report.figures import save_figure  # (also selects the Agg backend)
from geobayes.report.sample_panels import thin_rows

__all__ = [
    "FunctionPanel",
    "training_intervals",
    "build_function_sample_figure",
    "function_sample_panels",
    "build_predictive_band_figure",
    "predictive_band_panels",
    "build_pushforward_figure",
    "pushforward_figure",
    "build_wasserstein_across_maps_figure",
    "wasserstein_across_maps_figure",
    "YU_XLIM",
    "YU_YLIM",
]

#: Plot window of Yu et al. (2024), Figs. 6 and 10-14 (the authors' code: 500 points on
#: [-0.5, 6.5], y-limits [-4, 6]).
YU_XLIM = (-0.5, 6.5)
YU_YLIM = (-4.0, 6.0)

_SAMPLE_COLOUR = "C0"
_MEAN_COLOUR = "0.1"
_DATA_COLOUR = "black"
_SHADE_COLOUR = "0.88"


class FunctionPanel(NamedTuple):
    """One panel: function samples of one method on one split.

    Attributes
    ----------
    title : str
        Panel title (e.g. ``"RLA-F"``); empty for none.
    x : numpy.ndarray, shape (G,)
        Plotting grid of inputs (increasing).
    f_samples : numpy.ndarray, shape (S, G)
        Network outputs of ``S`` posterior samples on the grid (failed samples dropped).
    x_train, y_train : numpy.ndarray, shape (N,), optional
        Training data, drawn as small dots; ``x_train`` also gives the shaded intervals
        (:func:`training_intervals`) unless ``intervals`` is given.
    noise_std : float or numpy.ndarray of shape (S,), optional
        Observation-noise std (shared or per sample), for :func:`predictive_band_panels`.
    intervals : sequence of (float, float), optional
        Shaded x-intervals, overriding those derived from ``x_train`` (``()`` for none).
    mean : numpy.ndarray, shape (G,), optional
        Mean prediction; default the mean of ``f_samples`` over samples.
    note : str, default ""
        Short text in the panel's upper-left corner (e.g. ``"T = 242.9"``).
    """

    title: str
    x: np.ndarray
    f_samples: np.ndarray
    x_train: np.ndarray | None = None
    y_train: np.ndarray | None = None
    noise_std: Any = None
    intervals: Sequence[tuple[float, float]] | None = None
    mean: np.ndarray | None = None
    note: str = ""


# ---------------------------------------------------------------- validation helpers


def _vector(value: Any, name: str, length: int | None = None) -> np.ndarray:
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim != 1 or (length is not None and arr.shape[0] != length):
        expected = f"({length},)" if length is not None else "(n,)"
        raise ValueError(f"{name} must be a 1-D array of shape {expected}; got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains {int(np.sum(~np.isfinite(arr)))} non-finite values")
    return arr


def _grid(value: Any, name: str) -> np.ndarray:
    x = _vector(value, name)
    if x.shape[0] < 2 or not np.all(np.diff(x) > 0):
        raise ValueError(f"{name} must hold at least two strictly increasing inputs; got shape {x.shape}")
    return x


def _samples(value: Any, name: str, n_inputs: int) -> np.ndarray:
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] != n_inputs or arr.shape[0] < 1:
        raise ValueError(
            f"{name} must be a 2-D array of shape (S, {n_inputs}) = (samples, grid inputs); got shape {arr.shape}"
        )
    bad = int(np.sum(~np.isfinite(arr)))
    if bad:
        raise ValueError(f"{name} contains {bad} non-finite values; drop failed samples (and count them) first")
    return arr


def _positive_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer; got {value!r}")
    return int(value)


def _check_intervals(intervals: Sequence[tuple[float, float]], name: str) -> list[tuple[float, float]]:
    checked = []
    for interval in intervals:
        values = np.asarray(interval, dtype=np.float64)
        if values.shape != (2,) or not np.all(np.isfinite(values)) or not values[0] <= values[1]:
            raise ValueError(f"{name} must be pairs (low, high) with low <= high; got {interval!r}")
        checked.append((float(values[0]), float(values[1])))
    return checked


class _Checked(NamedTuple):
    panel: FunctionPanel
    x: np.ndarray
    f: np.ndarray
    mean: np.ndarray
    x_train: np.ndarray | None
    y_train: np.ndarray | None
    intervals: list[tuple[float, float]]


def _check_panel(panel: Any, where: str, gap_fraction: float) -> _Checked:
    if not isinstance(panel, FunctionPanel):
        raise TypeError(f"{where} must be a FunctionPanel or None; got {type(panel).__name__}")
    name = f"{where} ({panel.title!r})" if panel.title else where
    x = _grid(panel.x, f"x of {name}")
    f = _samples(panel.f_samples, f"f_samples of {name}", x.shape[0])
    mean = f.mean(axis=0) if panel.mean is None else _vector(panel.mean, f"mean of {name}", x.shape[0])
    x_train = y_train = None
    if (panel.x_train is None) != (panel.y_train is None):
        raise ValueError(f"{name}: give both x_train and y_train or neither")
    if panel.x_train is not None:
        x_train = _vector(panel.x_train, f"x_train of {name}")
        y_train = _vector(panel.y_train, f"y_train of {name}", x_train.shape[0])
    if panel.intervals is not None:
        intervals = _check_intervals(panel.intervals, f"intervals of {name}")
    elif x_train is not None and x_train.shape[0] > 0:
        intervals = training_intervals(x_train, gap_fraction=gap_fraction)
    else:
        intervals = []
    return _Checked(panel, x, f, mean, x_train, y_train, intervals)


def _panel_grid(panels: Any) -> list[list[FunctionPanel | None]]:
    if isinstance(panels, FunctionPanel):
        panels = [panels]
    panels = list(panels)
    if not panels:
        raise ValueError("panels must hold at least one FunctionPanel")
    if all(p is None or isinstance(p, FunctionPanel) for p in panels):
        rows = [panels]  # a flat sequence: one row
    else:
        rows = [list(row) for row in panels]
    widths = {len(row) for row in rows}
    if len(widths) != 1 or 0 in widths:
        raise ValueError(f"panels must be rows of equal, non-zero length; got row lengths {[len(r) for r in rows]}")
    if all(p is None for row in rows for p in row):
        raise ValueError("panels must hold at least one FunctionPanel (all are None)")
    return rows


def _draw_data(ax: Axes, checked: _Checked) -> None:
    for low, high in checked.intervals:
        ax.axvspan(low, high, color=_SHADE_COLOUR, lw=0, zorder=0)
    if checked.x_train is not None:
        ax.scatter(checked.x_train, checked.y_train, s=2, color=_DATA_COLOUR, lw=0, zorder=4)


def _finish_panel(ax: Axes, checked: _Checked, xlim, ylim, ticks: bool) -> None:
    if checked.panel.title:
        ax.set_title(checked.panel.title)
    if checked.panel.note:
        ax.text(0.03, 0.97, checked.panel.note, transform=ax.transAxes, va="top", ha="left", fontsize=7)
    ax.set_xlim(*(xlim if xlim is not None else (checked.x[0], checked.x[-1])))
    if ylim is not None:
        ax.set_ylim(*ylim)
    if not ticks:
        ax.set_xticks([])
        ax.set_yticks([])


def _grid_figure(panels, draw, *, row_labels, xlim, ylim, ticks, gap_fraction, panel_size) -> Figure:
    rows = _panel_grid(panels)
    xlim = check_window(xlim, "xlim") if xlim is not None else None
    ylim = check_window(ylim, "ylim") if ylim is not None else None
    if row_labels is not None and len(row_labels) != len(rows):
        raise ValueError(f"row_labels must have one label per row ({len(rows)}); got {len(row_labels)}")
    checked = [
        [None if p is None else _check_panel(p, f"panels[{i}][{j}]", gap_fraction) for j, p in enumerate(row)]
        for i, row in enumerate(rows)
    ]
    nrows, ncols = len(rows), len(rows[0])
    width, height = panel_size
    fig = Figure(figsize=(width * ncols, height * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    for i in range(nrows):
        for j in range(ncols):
            ax = axes[i, j]
            if checked[i][j] is None:
                ax.set_axis_off()
                continue
            draw(ax, checked[i][j])
            _finish_panel(ax, checked[i][j], xlim, ylim, ticks)
        if row_labels is not None:
            axes[i, 0].set_ylabel(row_labels[i])
    return fig


# ---------------------------------------------------------------- function samples (Yu Figs. 6, 10-14)


def build_function_sample_figure(
    panels: Sequence[Sequence[FunctionPanel | None]] | Sequence[FunctionPanel | None],
    *,
    row_labels: Sequence[str] | None = None,
    n_samples: int = 100,
    xlim: Sequence[float] | None = YU_XLIM,
    ylim: Sequence[float] | None = YU_YLIM,
    ticks: bool = False,
    gap_fraction: float = 0.1,
    panel_size: tuple[float, float] = (1.9, 1.6),
) -> Figure:
    """Grid of function-sample panels (Yu et al. 2024, Figs. 6, 10-14; Bergamin et al. 2023, Fig. 5).

    Each panel draws, back to front: grey shading over each contiguous x-interval of the
    training data (one interval for a complete split, two around the hole of a gap
    split), up to ``n_samples`` sample curves as thin blue lines (an evenly strided
    deterministic subset), the mean prediction as a dark line, and the training points
    as small dots. Yu et al.'s figures: rows complete / gap, columns RLA-B, RLA-BLog,
    RLA-F, NUTS, x in [-0.5, 6.5], y in [-4, 6], no ticks (the defaults here).

    Parameters
    ----------
    panels : sequence of rows of FunctionPanel or None
        Rows of panels (``None`` leaves a blank cell); a flat sequence is one row.
    row_labels : sequence of str, optional
        Label per row, at the left (e.g. ``["complete", "gap"]``).
    n_samples : int, default 100
        Most sample curves per panel.
    xlim, ylim : (float, float) or None
        Plot window; ``None``: the grid's range, and matplotlib's automatic y-range.
    ticks : bool, default False
        Draw ticks (Yu et al.'s figures have none).
    gap_fraction : float, default 0.1
        Passed to :func:`training_intervals` for panels without explicit ``intervals``.
    panel_size : (float, float)
        Width and height of one panel, inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not registered with pyplot).

    Raises
    ------
    ValueError
        On empty or ragged ``panels``, a grid that is not increasing, samples whose
        shape does not match the grid (the message names the panel and both shapes),
        non-finite samples, mismatched training data, or a bad window.
    """
    n_samples = _positive_int(n_samples, "n_samples")

    def draw(ax: Axes, checked: _Checked) -> None:
        _draw_data(ax, checked)
        shown = thin_rows(checked.f, n_samples)
        ax.plot(checked.x, shown.T, color=_SAMPLE_COLOUR, lw=0.4, alpha=0.5, zorder=2)
        ax.plot(checked.x, checked.mean, color=_MEAN_COLOUR, lw=1.3, zorder=3)

    return _grid_figure(panels, draw, row_labels=row_labels, xlim=xlim, ylim=ylim, ticks=ticks,
                        gap_fraction=gap_fraction, panel_size=panel_size)


def function_sample_panels(
    path: str | os.PathLike[str],
    panels: Sequence[Sequence[FunctionPanel | None]] | Sequence[FunctionPanel | None],
    *,
    png_path: str | os.PathLike[str] | None = None,
    **options: Any,
) -> list[Path]:
    """Write :func:`build_function_sample_figure` to ``path`` (and ``png_path``), atomically.

    Parameters
    ----------
    path : str or os.PathLike
        Destination; its suffix (``.pdf``, ``.png``, ``.svg``) is the format.
    panels : sequence of rows of FunctionPanel or None
        As :func:`build_function_sample_figure`.
    png_path : str or os.PathLike, optional
        A PNG copy (for the report).
    **options
        Keyword options of :func:`build_function_sample_figure`.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    return list(save_figure(build_function_sample_figure(panels, **options), path, png_path))


# ---------------------------------------------------------------- predictive bands (Bergamin Figs. D.1-D.4)


def build_predictive_band_figure(
    panels: Sequence[Sequence[FunctionPanel | None]] | Sequence[FunctionPanel | None],
    *,
    n_std: float = 2.0,
    row_labels: Sequence[str] | None = None,
    xlim: Sequence[float] | None = None,
    ylim: Sequence[float] | None = None,
    ticks: bool = True,
    gap_fraction: float = 0.1,
    panel_size: tuple[float, float] = (2.2, 1.8),
) -> Figure:
    """Grid of predictive panels, mean :math:`\\pm` ``n_std`` predictive std (Bergamin et al. 2023, Figs. D.1-D.4).

    The predictive of :math:`y` at :math:`x` is the mixture
    :math:`\\frac1S\\sum_s \\mathcal N(f_{\\theta_s}(x), \\sigma_s^2)`: its mean is the sample
    mean :math:`\\bar f(x)` and its variance :math:`\\operatorname{Var}_s f_{\\theta_s}(x) +
    \\frac1S\\sum_s \\sigma_s^2` (population variance over samples). Each panel shades the
    training-data intervals, draws the band :math:`\\bar f \\pm n_\\text{std}\\,\\mathrm{sd}`,
    the mean line and the training points. A panel without ``noise_std`` shows the band
    of :math:`f` alone (the epistemic part), and its title says so ("f only").

    Parameters
    ----------
    panels : sequence of rows of FunctionPanel or None
        As :func:`build_function_sample_figure`; ``noise_std`` of each panel is used.
    n_std : float, default 2.0
        Half-width of the band in predictive stds.
    row_labels, xlim, ylim, ticks, gap_fraction, panel_size
        As :func:`build_function_sample_figure` (here with ticks and automatic limits by
        default, as Bergamin et al.'s figures).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        As :func:`build_function_sample_figure`, and for a ``noise_std`` that is not a
        positive scalar or one value per sample.
    """
    if not (np.isfinite(n_std) and n_std > 0):
        raise ValueError(f"n_std must be a finite number > 0; got {n_std!r}")

    def draw(ax: Axes, checked: _Checked) -> None:
        variance = checked.f.var(axis=0)
        noise = checked.panel.noise_std
        if noise is not None:
            sigma = np.asarray(noise, dtype=np.float64)
            if not (sigma.ndim == 0 or sigma.shape == (checked.f.shape[0],)) or not np.all(np.isfinite(sigma)) \
                    or not np.all(sigma > 0):
                raise ValueError(
                    f"noise_std of panel {checked.panel.title!r} must be a positive scalar or have shape "
                    f"({checked.f.shape[0]},); got shape {sigma.shape}"
                )
            variance = variance + float(np.mean(sigma**2))
        sd = np.sqrt(variance)
        _draw_data(ax, checked)
        ax.fill_between(checked.x, checked.mean - n_std * sd, checked.mean + n_std * sd, color=_SAMPLE_COLOUR,
                        alpha=0.3, lw=0, zorder=2)
        ax.plot(checked.x, checked.mean, color=_MEAN_COLOUR, lw=1.3, zorder=3)
        if noise is None:
            ax.text(0.97, 0.03, "f only", transform=ax.transAxes, ha="right", va="bottom", fontsize=6)

    return _grid_figure(panels, draw, row_labels=row_labels, xlim=xlim, ylim=ylim, ticks=ticks,
                        gap_fraction=gap_fraction, panel_size=panel_size)


def predictive_band_panels(
    path: str | os.PathLike[str],
    panels: Sequence[Sequence[FunctionPanel | None]] | Sequence[FunctionPanel | None],
    *,
    png_path: str | os.PathLike[str] | None = None,
    **options: Any,
) -> list[Path]:
    """Write :func:`build_predictive_band_figure` to ``path`` (and ``png_path``), atomically.

    Parameters
    ----------
    path : str or os.PathLike
        Destination; its suffix is the format.
    panels : sequence of rows of FunctionPanel or None
        As :func:`build_predictive_band_figure`.
    png_path : str or os.PathLike, optional
        A PNG copy.
    **options
        Keyword options of :func:`build_predictive_band_figure`.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    return list(save_figure(build_predictive_band_figure(panels, **options), path, png_path))


# ---------------------------------------------------------------- Hartmann Fig. 5


def _method_samples(samples: Mapping[str, Any], n_inputs: int) -> dict[str, np.ndarray]:
    if not isinstance(samples, Mapping) or not samples:
        raise ValueError("samples must be a non-empty mapping from method label to (S, M) function samples")
    return {str(k): _samples(v, f"samples[{k!r}]", n_inputs) for k, v in samples.items()}


def _probe_columns(x: np.ndarray, probe_x: Sequence[float] | None) -> list[int]:
    if probe_x is None:
        return sorted({int(round(q * (x.shape[0] - 1))) for q in (1 / 6, 1 / 2, 5 / 6)})
    values = np.atleast_1d(np.asarray(probe_x, dtype=np.float64))
    if values.ndim != 1 or not 1 <= values.shape[0] <= 4 or not np.all(np.isfinite(values)):
        raise ValueError(f"probe_x must hold 1 to 4 finite inputs; got {probe_x!r}")
    outside = values[(values < x[0]) | (values > x[-1])]
    if outside.size:
        raise ValueError(f"probe_x {outside.tolist()} lie outside the grid [{x[0]}, {x[-1]}]")
    return [int(np.argmin(np.abs(x - v))) for v in values]


def build_pushforward_figure(
    x: Any,
    samples: Mapping[str, Any],
    *,
    x_train: Any = None,
    y_train: Any = None,
    map_f: Any = None,
    noise_std: Mapping[str, Any] | None = None,
    probe_x: Sequence[float] | None = None,
    level: float = 0.95,
    xlim: Sequence[float] | None = None,
    ylim: Sequence[float] | None = None,
    bins: int = 40,
    gap_fraction: float = 0.1,
) -> Figure:
    """Hartmann et al. (2026), Fig. 5: push-forward predictives of WG, NUTS and LA on Snelson's data.

    Top left: the predictive mean :math:`\\mathbb E[Y(x)] = \\frac1S\\sum_s f_{\\theta_s}(x)`
    along ``x`` for each method, the MAP curve :math:`f_{\\hat\\theta}(x)` (dashed), the
    training points and the grey training-data intervals; the probe inputs are dotted
    vertical lines. Top right: one panel per probe input with a histogram (density) of
    each method's predictive samples :math:`f_{\\theta_s}(x)` there (the paper's
    "scatter plot of the predictive distributions ... at particular inputs"; the input
    used is the grid point nearest each ``probe_x``). Bottom row: per method, the
    predictive mean and the central ``level`` credible band from the quantiles of the
    predictive (:func:`geobayes.metrics.predictive.predictive_quantiles`: the mixture
    with the observation noise when ``noise_std`` has the method, else of :math:`f`).

    Parameters
    ----------
    x : array_like, shape (M,)
        Increasing grid of inputs.
    samples : mapping of str to array_like of shape (S_k, M)
        Method label (e.g. ``"WG"``, ``"NUTS"``, ``"LA"``) to its function samples on ``x``;
        the order is the colour and panel order.
    x_train, y_train : array_like, shape (N,), optional
        Training data.
    map_f : array_like, shape (M,), optional
        The MAP network :math:`f_{\\hat\\theta}` on ``x``.
    noise_std : mapping of str to float or array_like of shape (S_k,), optional
        Observation-noise std per method (Hartmann et al. infer :math:`\\sigma^2`, so one
        value per sample); methods not in the mapping get bands of :math:`f` alone.
    probe_x : sequence of float, optional
        One to four inputs for the histograms; default the grid points at 1/6, 1/2 and
        5/6 of the grid.
    level : float, default 0.95
        Credible level of the bands.
    xlim, ylim : (float, float), optional
        Plot window (``ylim`` is also the value range of the histograms); default the
        grid's range and automatic limits. LA is "essentially uncontrolled" in the
        paper, so a ``ylim`` is usually needed.
    bins : int, default 40
        Histogram bins.
    gap_fraction : float, default 0.1
        Passed to :func:`training_intervals`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If the grid is not increasing, a method's samples do not have one column per grid
        input, ``map_f``/training data do not match, ``noise_std`` names an unknown method,
        a probe input lies outside the grid, or ``level`` is not in (0, 1).
    """
    x = _grid(x, "x")
    methods = _method_samples(samples, x.shape[0])
    if not 0 < level < 1:
        raise ValueError(f"level must lie in (0, 1); got {level!r}")
    bins = _positive_int(bins, "bins")
    noise_std = dict(noise_std or {})
    unknown = sorted(set(map(str, noise_std)) - set(methods))
    if unknown:
        raise ValueError(f"noise_std names methods {unknown} that have no samples; methods: {list(methods)}")
    map_curve = _vector(map_f, "map_f", x.shape[0]) if map_f is not None else None
    if (x_train is None) != (y_train is None):
        raise ValueError("give both x_train and y_train or neither")
    data = None
    if x_train is not None:
        xt = _vector(x_train, "x_train")
        data = (xt, _vector(y_train, "y_train", xt.shape[0]), training_intervals(xt, gap_fraction=gap_fraction))
    xlim = check_window(xlim, "xlim") if xlim is not None else (float(x[0]), float(x[-1]))
    ylim = check_window(ylim, "ylim") if ylim is not None else None
    columns = _probe_columns(x, probe_x)
    colours = {name: f"C{k}" for k, name in enumerate(methods)}
    tail = (1 - level) / 2
    bands = {name: predictive_quantiles(f, [tail, 1 - tail], noise_std.get(name)) for name, f in methods.items()}

    fig = Figure(figsize=(2.4 * max(len(methods), 3), 5.2), layout="constrained")
    top, bottom = fig.subfigures(2, 1)
    top_axes = top.subplots(1, 1 + len(columns), width_ratios=[2.2] + [1.0] * len(columns), squeeze=False)[0]
    bottom_axes = bottom.subplots(1, len(methods), squeeze=False, sharey=True)[0]

    def draw_data(ax: Axes) -> None:
        if data is not None:
            for low, high in data[2]:
                ax.axvspan(low, high, color=_SHADE_COLOUR, lw=0, zorder=0)
            ax.scatter(data[0], data[1], s=3, color=_DATA_COLOUR, lw=0, zorder=4, label="data")
        ax.set_xlim(*xlim)
        if ylim is not None:
            ax.set_ylim(*ylim)
        ax.set_xlabel("$x$")

    ax = top_axes[0]
    draw_data(ax)
    for name, f in methods.items():
        ax.plot(x, f.mean(axis=0), color=colours[name], lw=1.3, label=name, zorder=3)
    if map_curve is not None:
        ax.plot(x, map_curve, color="black", lw=1.0, ls="--", label="MAP", zorder=3)
    for column in columns:
        ax.axvline(x[column], color="0.4", lw=0.7, ls=":", zorder=1)
    ax.set_ylabel(r"$\mathbb{E}[Y(x)]$")
    ax.legend(loc="best", frameon=False)

    for ax, column in zip(top_axes[1:], columns, strict=True):
        values = {name: f[:, column] for name, f in methods.items()}
        if ylim is not None:
            value_range = ylim
        else:
            pooled = np.concatenate(list(values.values()))
            value_range = tuple(np.quantile(pooled, [0.005, 0.995]))
            if value_range[0] == value_range[1]:
                value_range = (value_range[0] - 0.5, value_range[1] + 0.5)
        for name, v in values.items():
            ax.hist(v, bins=bins, range=value_range, density=True, histtype="step", color=colours[name], lw=1.0)
        if map_curve is not None:
            ax.axvline(map_curve[column], color="black", lw=0.8, ls="--")
        ax.set_title(f"$x = {x[column]:.3g}$")
        ax.set_xlabel(r"$f_\theta(x)$")
        ax.set_yticks([])

    for ax, (name, f) in zip(bottom_axes, methods.items(), strict=True):
        draw_data(ax)
        low, high = bands[name]
        ax.fill_between(x, low, high, color=colours[name], alpha=0.3, lw=0, zorder=2)
        ax.plot(x, f.mean(axis=0), color=colours[name], lw=1.3, zorder=3)
        ax.set_title(name if name in noise_std else f"{name} ($f$ only)")
    bottom_axes[0].set_ylabel("$y$")
    bottom.suptitle(f"Predictive mean and {100 * level:g}% credible band", fontsize=9)
    return fig


def pushforward_figure(
    path: str | os.PathLike[str],
    x: Any,
    samples: Mapping[str, Any],
    *,
    png_path: str | os.PathLike[str] | None = None,
    **options: Any,
) -> list[Path]:
    """Write :func:`build_pushforward_figure` (Hartmann et al. 2026, Fig. 5) to ``path``, atomically.

    Parameters
    ----------
    path : str or os.PathLike
        Destination; its suffix is the format.
    x, samples
        As :func:`build_pushforward_figure`.
    png_path : str or os.PathLike, optional
        A PNG copy.
    **options
        Keyword options of :func:`build_pushforward_figure`.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    return list(save_figure(build_pushforward_figure(x, samples, **options), path, png_path))


# ---------------------------------------------------------------- Hartmann Fig. 7


def _mean_and_variance(value: Any, name: str, n_inputs: int) -> tuple[np.ndarray, np.ndarray]:
    if hasattr(value, "mean") and hasattr(value, "variance") and not isinstance(value, np.ndarray):
        mean, variance = value.mean, value.variance
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        mean, variance = value
    else:
        raise ValueError(
            f"per_method[{name!r}] must be a PairwiseW2 (from pairwise_pushforward_wasserstein2) or a "
            f"(mean, variance) pair; got {type(value).__name__}"
        )
    mean = _vector(mean, f"mean of per_method[{name!r}]", n_inputs)
    variance = _vector(variance, f"variance of per_method[{name!r}]", n_inputs)
    if np.any(variance < 0):
        raise ValueError(f"variance of per_method[{name!r}] must be >= 0")
    return mean, variance


def build_wasserstein_across_maps_figure(
    x: Any,
    per_method: Mapping[str, Any],
    *,
    band: str = "variance",
    yscale: str = "linear",
    x_train: Any = None,
    gap_fraction: float = 0.1,
) -> Figure:
    """Hartmann et al. (2026), App. D, Fig. 7: pairwise push-forward :math:`W_2` across MAP estimates vs :math:`x`.

    For every method (LA, WG) a line of the mean over the pairs of MAP estimates of the
    per-input :math:`W_2` and a band of mean :math:`\\pm` variance (the paper: "the
    resulting mean and variance are plotted"; ``band="std"`` draws :math:`\\pm` std
    instead). The band is clipped at 0 (a distance is never negative).

    Parameters
    ----------
    x : array_like, shape (M,)
        Increasing grid of inputs (the paper: :math:`x \\in [-3, 10]`).
    per_method : mapping of str to PairwiseW2 or (mean, variance)
        Method label to the result of
        :func:`geobayes.metrics.predictive.pairwise_pushforward_wasserstein2` (or a pair of
        arrays of shape ``(M,)``).
    band : {"variance", "std"}, default "variance"
        Half-width of the band.
    yscale : {"linear", "log", "symlog"}, default "linear"
        Scale of the :math:`W_2` axis (LA's distances can be orders of magnitude larger).
    x_train : array_like, shape (N,), optional
        Training inputs, shaded as in the other figures.
    gap_fraction : float, default 0.1
        Passed to :func:`training_intervals`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        On an empty mapping, arrays that do not match the grid, a negative variance, or
        an unknown ``band``/``yscale``.
    """
    x = _grid(x, "x")
    if not isinstance(per_method, Mapping) or not per_method:
        raise ValueError("per_method must be a non-empty mapping from method label to PairwiseW2 or (mean, variance)")
    if band not in ("variance", "std"):
        raise ValueError(f"band must be 'variance' or 'std'; got {band!r}")
    if yscale not in ("linear", "log", "symlog"):
        raise ValueError(f"yscale must be 'linear', 'log' or 'symlog'; got {yscale!r}")
    curves = {str(k): _mean_and_variance(v, str(k), x.shape[0]) for k, v in per_method.items()}
    fig = Figure(figsize=(4.4, 3.0), layout="constrained")
    ax = fig.subplots()
    if x_train is not None:
        for low, high in training_intervals(x_train, gap_fraction=gap_fraction):
            ax.axvspan(low, high, color=_SHADE_COLOUR, lw=0, zorder=0)
    for k, (name, (mean, variance)) in enumerate(curves.items()):
        half = variance if band == "variance" else np.sqrt(variance)
        ax.fill_between(x, np.maximum(mean - half, 0.0), mean + half, color=f"C{k}", alpha=0.25, lw=0, zorder=1)
        ax.plot(x, mean, color=f"C{k}", lw=1.3, label=name, zorder=2)
    ax.set_xlim(float(x[0]), float(x[-1]))
    ax.set_yscale(yscale)
    ax.set_xlabel("$x$")
    ax.set_ylabel(r"pairwise $W_2$ across MAPs")
    ax.set_title(rf"mean $\pm$ {band} over pairs of MAP estimates")
    ax.legend(frameon=False)
    return fig


def wasserstein_across_maps_figure(
    path: str | os.PathLike[str],
    x: Any,
    per_method: Mapping[str, Any],
    *,
    png_path: str | os.PathLike[str] | None = None,
    **options: Any,
) -> list[Path]:
    """Write :func:`build_wasserstein_across_maps_figure` (Hartmann et al. 2026, Fig. 7) to ``path``, atomically.

    Parameters
    ----------
    path : str or os.PathLike
        Destination; its suffix is the format.
    x, per_method
        As :func:`build_wasserstein_across_maps_figure`.
    png_path : str or os.PathLike, optional
        A PNG copy.
    **options
        Keyword options of :func:`build_wasserstein_across_maps_figure`.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    return list(save_figure(build_wasserstein_across_maps_figure(x, per_method, **options), path, png_path))
