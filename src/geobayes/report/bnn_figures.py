"""Figures of BNN regression on Snelson's 1-D data (function samples, predictive bands, push-forwards).

* :func:`build_function_sample_figure` -- a grid (rows: splits such as complete / gap; columns:
  methods) of posterior function samples: Yu et al. (2024), Figs. 6 and 10-14 (grey
  shading over the x-range of the training data, training points, thin blue sample
  curves, the dark mean prediction; x in [-0.5, 6.5], y in [-4, 6], no ticks) and
  Bergamin et al. (2023), Fig. 5 and the "posterior" panels of Figs. D.1-D.4.
* :func:`build_predictive_band_figure` -- the same grid with the predictive mean and a
  mean :math:`\\pm 2` std band of the predictive including the observation noise
  (Bergamin et al. 2023, the "predictive" panels of Figs. D.1-D.4).
Hartmann et al.'s (2026) push-forward figures (Figs. 5 and 7) are in
:mod:`geobayes.report.bnn_pushforward_figures`; the input checks both use in
:mod:`geobayes.report.function_checks`.

The ``build_*`` functions return the :class:`matplotlib.figure.Figure`;
:func:`geobayes.report.figures.save_figure` writes it to each destination (its suffix,
``.pdf``, ``.png`` or ``.svg``, is the format), atomically, as for every figure of the pipeline.
Figures are made without pyplot (Agg backend, selected by :mod:`geobayes.report.figures`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from geobayes.metrics.density_grid import check_window
from geobayes.metrics.map_robustness import training_intervals  # re-exported (the figures shade them)
import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.report.function_checks import check_grid, check_intervals, check_positive_int, check_samples, check_vector
from geobayes.report.sample_panels import thin_rows

__all__ = [
    "FunctionPanel",
    "training_intervals",
    "build_function_sample_figure",
    "build_predictive_band_figure",
    "YU_XLIM",
    "YU_YLIM",
]

#: Plot window of Yu et al. (2024), Figs. 6 and 10-14 (the authors' code: 500 points on
#: [-0.5, 6.5], y-limits [-4, 6]).
YU_XLIM = (-0.5, 6.5)
YU_YLIM = (-4.0, 6.0)

_SAMPLE_COLOUR = "C0"
_MEAN_COLOUR = "0.1"
#: Training points and the shaded training-data intervals, shared with bnn_pushforward_figures.
DATA_COLOUR = "black"
SHADE_COLOUR = "0.88"


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
        Observation-noise std (shared or per sample), for :func:`build_predictive_band_figure`.
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
    x = check_grid(panel.x, f"x of {name}")
    f = check_samples(panel.f_samples, f"f_samples of {name}", x.shape[0])
    mean = f.mean(axis=0) if panel.mean is None else check_vector(panel.mean, f"mean of {name}", x.shape[0])
    x_train = y_train = None
    if (panel.x_train is None) != (panel.y_train is None):
        raise ValueError(f"{name}: give both x_train and y_train or neither")
    if panel.x_train is not None:
        x_train = check_vector(panel.x_train, f"x_train of {name}")
        y_train = check_vector(panel.y_train, f"y_train of {name}", x_train.shape[0])
    if panel.intervals is not None:
        intervals = check_intervals(panel.intervals, f"intervals of {name}")
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
        ax.axvspan(low, high, color=SHADE_COLOUR, lw=0, zorder=0)
    if checked.x_train is not None:
        ax.scatter(checked.x_train, checked.y_train, s=2, color=DATA_COLOUR, lw=0, zorder=4)


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
    n_samples = check_positive_int(n_samples, "n_samples")

    def draw(ax: Axes, checked: _Checked) -> None:
        _draw_data(ax, checked)
        shown = thin_rows(checked.f, n_samples)
        ax.plot(checked.x, shown.T, color=_SAMPLE_COLOUR, lw=0.4, alpha=0.5, zorder=2)
        ax.plot(checked.x, checked.mean, color=_MEAN_COLOUR, lw=1.3, zorder=3)

    return _grid_figure(panels, draw, row_labels=row_labels, xlim=xlim, ylim=ylim, ticks=ticks,
                        gap_fraction=gap_fraction, panel_size=panel_size)


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
