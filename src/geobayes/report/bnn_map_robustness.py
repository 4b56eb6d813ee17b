"""Figs. 6-7 of Hartmann et al. (2026), App. D: the predictive at several MAP estimates.

The numbers (pairwise push-forward :math:`W_2` across optima, the optima's objectives and
distances) are computed upstream by rule ``map_robustness``
(:mod:`geobayes.metrics.map_robustness`); their tables are the entries
``bnn_hartmann_map_w2`` / ``bnn_hartmann_map_optima`` of ``workflow/resources/tables.yaml``.

* :func:`build_map_predictives_figure` -- Fig. 6: rows LA and
  WG, one column per optimum, the predictive mean and credible band of :math:`f_\\theta(x)`
  with the MAP network and the data. Fig. 7 is
  :func:`geobayes.report.bnn_pushforward_figures.build_wasserstein_across_maps_figure`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from geobayes.metrics.map_robustness import optimum_label, training_intervals
from geobayes.metrics.predictive import predictive_quantiles
from geobayes.metrics.density_grid import check_window
import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)

__all__ = [
    "optimum_label",
    "default_ylim",
    "build_map_predictives_figure",
]

_SHADE_COLOUR = "0.88"


def default_ylim(y_train: Any, *, margin: float = 0.75) -> tuple[float, float]:
    """Plot window of the predictive panels: the range of ``y_train`` widened by ``margin`` times
    its span on each side (LA's bands can be orders of magnitude wider; the paper's Fig. 6 shows
    a window around the data as well)."""
    y = np.asarray(y_train, dtype=np.float64)
    if y.ndim != 1 or y.shape[0] < 1 or not np.all(np.isfinite(y)):
        raise ValueError(f"y_train must be a finite 1-D array with at least one value; got shape {y.shape}")
    low, high = float(y.min()), float(y.max())
    span = max(high - low, 1.0)
    return low - margin * span, high + margin * span


def build_map_predictives_figure(
    x: Any,
    per_method: Mapping[str, Sequence[Any]],
    *,
    map_f: Any = None,
    x_train: Any = None,
    y_train: Any = None,
    failed: Mapping[str, Sequence[int]] | None = None,
    level: float = 0.95,
    ylim: Sequence[float] | None = None,
    gap_fraction: float = 0.1,
    panel_size: tuple[float, float] = (2.0, 1.7),
) -> Figure:
    """Hartmann et al. (2026), App. D, Fig. 6: the predictive of each method at each optimum.

    Rows are methods (the paper: LA, then WG), columns the optima (a), (b), ... Each panel shows
    the grey training-data intervals, the central ``level`` credible band of
    :math:`f_\\theta(x)_\\#\\rho` (quantiles of the samples, no observation noise: the paper's
    :math:`f_\\theta(x_*)_\\#\\rho`), the predictive mean, the MAP network
    :math:`f_{\\hat\\theta}` of that optimum (dashed) and the data. A panel whose samples all
    failed says so.

    Parameters
    ----------
    x : array_like, shape (M,)
        Increasing input grid.
    per_method : mapping of str to sequence of (array_like of shape (S, M) or None)
        Row label to the function samples at each optimum (None: every sample failed). Every
        row has one entry per optimum.
    map_f : array_like, shape (K, M), optional
        Each optimum's MAP network on ``x``.
    x_train, y_train : array_like, shape (N,), optional
        Training data.
    failed : mapping of str to sequence of int, optional
        Failed samples per row and optimum, noted in the panel when > 0.
    level : float, default 0.95
        Credible level of the bands.
    ylim : (float, float), optional
        Window of the value axis; default :func:`default_ylim` of ``y_train`` when given.
    gap_fraction : float, default 0.1
        Passed to :func:`geobayes.report.bnn_figures.training_intervals`.
    panel_size : (float, float)
        Width and height of one panel, inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        On an empty mapping, rows of different lengths, samples that do not match the grid,
        a ``map_f`` without one curve per optimum, or ``level`` outside (0, 1).
    """
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1 or x.shape[0] < 2 or not np.all(np.diff(x) > 0):
        raise ValueError(f"x must hold at least two strictly increasing inputs; got shape {x.shape}")
    if not isinstance(per_method, Mapping) or not per_method:
        raise ValueError("per_method must be a non-empty mapping from method label to samples per optimum")
    if not 0 < level < 1:
        raise ValueError(f"level must lie in (0, 1); got {level!r}")
    rows = {str(name): list(runs) for name, runs in per_method.items()}
    counts = {len(runs) for runs in rows.values()}
    if len(counts) != 1 or 0 in counts:
        raise ValueError(f"every method needs one entry per optimum; got {({k: len(v) for k, v in rows.items()})}")
    n_optima = counts.pop()
    for name, runs in rows.items():
        for k, f in enumerate(runs):
            if f is not None and (np.ndim(f) != 2 or np.shape(f)[1] != x.shape[0] or np.shape(f)[0] < 1):
                raise ValueError(f"samples of {name!r} at optimum {k} must have shape (S, {x.shape[0]}); "
                                 f"got {np.shape(f)}")
    curves = None
    if map_f is not None:
        curves = np.asarray(map_f, dtype=np.float64)
        if curves.shape != (n_optima, x.shape[0]):
            raise ValueError(f"map_f must have shape ({n_optima}, {x.shape[0]}) (optima, grid); got {curves.shape}")
    if (x_train is None) != (y_train is None):
        raise ValueError("give both x_train and y_train or neither")
    intervals = training_intervals(x_train, gap_fraction=gap_fraction) if x_train is not None else []
    if ylim is not None:
        ylim = check_window(ylim, "ylim")
    elif y_train is not None:
        ylim = default_ylim(y_train)
    tail = (1 - level) / 2
    fig = Figure(figsize=(panel_size[0] * n_optima, panel_size[1] * len(rows)), layout="constrained")
    axes = fig.subplots(len(rows), n_optima, squeeze=False, sharex=True, sharey=True)
    for i, (name, runs) in enumerate(rows.items()):
        for k, f in enumerate(runs):
            ax = axes[i, k]
            for low, high in intervals:
                ax.axvspan(low, high, color=_SHADE_COLOUR, lw=0, zorder=0)
            if f is not None:
                f = np.asarray(f, dtype=np.float64)
                band = predictive_quantiles(f, [tail, 1 - tail])
                ax.fill_between(x, band[0], band[1], color=f"C{i}", alpha=0.3, lw=0, zorder=1)
                ax.plot(x, f.mean(axis=0), color=f"C{i}", lw=1.2, zorder=3)
            else:
                ax.text(0.5, 0.5, "every sample failed", transform=ax.transAxes, ha="center", va="center",
                        fontsize=7)
            if curves is not None:
                ax.plot(x, curves[k], color="black", lw=0.9, ls="--", zorder=4)
            if x_train is not None:
                ax.scatter(x_train, y_train, s=2, color="black", lw=0, zorder=5)
            n_failed = int((failed or {}).get(name, [0] * n_optima)[k])
            if n_failed:
                ax.text(0.03, 0.97, f"{n_failed} failed", transform=ax.transAxes, ha="left", va="top", fontsize=6)
            ax.set_xlim(float(x[0]), float(x[-1]))
            if ylim is not None:
                ax.set_ylim(*ylim)
            if i == 0:
                ax.set_title(optimum_label(k))
            if i == len(rows) - 1:
                ax.set_xlabel("$x$")
        axes[i, 0].set_ylabel(name)
    fig.suptitle(rf"$f_\theta(x)_\#\rho$ at each optimum: mean, {100 * level:g}% band, MAP (dashed)", fontsize=9)
    return fig
