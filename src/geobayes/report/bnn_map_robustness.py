"""Robustness of the predictive to the MAP estimate: Hartmann et al. (2026), App. D, Figs. 6-7.

Five random initialisations (a)-(e) of the 142-parameter regression network on Snelson's data
end at five optima; each anchors a Laplace (LA) and a wrapped-Gaussian (WG) approximation whose
push-forward :math:`f_\\theta(x)_\\#\\rho` is sampled on an input grid. The paper claims the
WG predictives are "consistently insensitive to the choice of MAP estimate", the LA ones not.

* :func:`optima_table` -- the optima themselves: log posterior, convergence, and pairwise
  distances in parameter space and between the MAP networks on the grid (equal objectives and
  a zero function distance reveal a permutation/sign copy of the same mode).
* :func:`map_w2_table` -- per method, the per-input :math:`W_2` between the predictives of
  every pair of optima, averaged over the pairs
  (:func:`geobayes.metrics.predictive.pairwise_pushforward_wasserstein2`; Fig. 7), summarised
  over the inputs: its mean and variance over :math:`x`, on and off the training data, with
  failed samples and optima counted.
* :func:`build_map_predictives_figure` / :func:`map_predictives_figure` -- Fig. 6: rows LA and
  WG, one column per optimum, the predictive mean and credible band of :math:`f_\\theta(x)`
  with the MAP network and the data. Fig. 7 is
  :func:`geobayes.report.bnn_figures.wasserstein_across_maps_figure`.
"""

from __future__ import annotations

import os
import string
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from geobayes.metrics.predictive import PairwiseW2, pairwise_pushforward_wasserstein2, predictive_quantiles
from geobayes.report.bnn_figures import training_intervals
from geobayes.report.density_grid import check_window
from geobayes.report.figures import save_figure  # (also selects the Agg backend)

__all__ = [
    "OptimumPredictive",
    "optimum_label",
    "pairwise_distances",
    "on_data_mask",
    "optima_table",
    "map_w2_table",
    "default_ylim",
    "build_map_predictives_figure",
    "map_predictives_figure",
]

_SHADE_COLOUR = "0.88"


class OptimumPredictive(NamedTuple):
    """Predictive samples of one approximation at one optimum.

    Attributes
    ----------
    f_grid : numpy.ndarray of shape (S_used, M), or None
        :math:`f_\\theta(x_m)` of the successful samples on the grid; None when every sample
        failed.
    n_samples : int
        Samples drawn (successful and failed).
    n_failed : int
        Samples whose solve failed (dropped from ``f_grid``).
    """

    f_grid: np.ndarray | None
    n_samples: int
    n_failed: int


def optimum_label(k: int) -> str:
    """The paper's label of optimum ``k``: ``(a)``, ``(b)``, ... (at most 26)."""
    if not 0 <= k < 26:
        raise ValueError(f"optimum index must be in 0..25; got {k}")
    return f"({string.ascii_lowercase[k]})"


def pairwise_distances(vectors: Any) -> np.ndarray:
    """Euclidean distances between the rows of ``vectors`` (shape (K, D)) -> (K, K)."""
    v = np.asarray(vectors, dtype=np.float64)
    if v.ndim != 2 or v.shape[0] < 1:
        raise ValueError(f"vectors must be a 2-D array (K, D) with K >= 1; got shape {v.shape}")
    return np.linalg.norm(v[:, None, :] - v[None, :, :], axis=-1)


def on_data_mask(x: Any, x_train: Any, *, gap_fraction: float = 0.1) -> np.ndarray:
    """Grid inputs inside an interval covered by the training inputs
    (:func:`geobayes.report.bnn_figures.training_intervals`; for Hartmann et al.'s data,
    :math:`x \\notin [2, 3]`, two intervals)."""
    x = np.asarray(x, dtype=np.float64)
    mask = np.zeros(x.shape, dtype=bool)
    for low, high in training_intervals(x_train, gap_fraction=gap_fraction):
        mask |= (x >= low) & (x <= high)
    return mask


def optima_table(objectives: Sequence[float], converged: Sequence[bool], grad_norms: Sequence[float],
                 num_steps: Sequence[int], positions: Any, map_f: Any) -> pd.DataFrame:
    """One row per optimum: log posterior, convergence, and distances to the other optima.

    Parameters
    ----------
    objectives, converged, grad_norms, num_steps : sequence, length K
        Per optimum: log posterior at the optimum, convergence flag, gradient norm and BFGS steps.
    positions : array_like, shape (K, D)
        The optima.
    map_f : array_like, shape (K, M)
        Each MAP network :math:`f_{\\hat\\theta_k}` on the input grid.

    Returns
    -------
    pandas.DataFrame
        Columns ``optimum`` (``(a)``, ...), ``log_posterior``, ``converged``, ``grad_norm``,
        ``num_steps``, ``param_distance_<label>`` (Euclidean distance of the parameter vectors)
        and ``map_f_rms_distance_<label>`` (root mean square over the grid of
        :math:`f_{\\hat\\theta_k} - f_{\\hat\\theta_j}`) to each optimum, and
        ``nearest_param_distance`` and ``nearest_map_f_rms_distance`` to the closest other one
        (NaN for a single optimum).

    Raises
    ------
    ValueError
        If the per-optimum lengths differ.
    """
    positions = np.asarray(positions, dtype=np.float64)
    curves = np.asarray(map_f, dtype=np.float64)
    k = positions.shape[0] if positions.ndim == 2 else -1
    lengths = {len(objectives), len(converged), len(grad_norms), len(num_steps), k,
               curves.shape[0] if curves.ndim == 2 else -1}
    if len(lengths) != 1 or k < 1:
        raise ValueError("objectives, converged, grad_norms, num_steps, positions (K, D) and map_f (K, M) must "
                         f"describe the same K >= 1 optima; got lengths {sorted(lengths)}")
    params = pairwise_distances(positions)
    functions = np.sqrt(np.mean((curves[:, None, :] - curves[None, :, :]) ** 2, axis=-1))
    labels = [optimum_label(i) for i in range(k)]
    frame = pd.DataFrame({"optimum": labels, "log_posterior": np.asarray(objectives, dtype=np.float64),
                          "converged": np.asarray(converged, dtype=bool),
                          "grad_norm": np.asarray(grad_norms, dtype=np.float64),
                          "num_steps": np.asarray(num_steps, dtype=np.int64)})
    for j, label in enumerate(labels):
        frame[f"param_distance_{label.strip('()')}"] = params[:, j]
    for j, label in enumerate(labels):
        frame[f"map_f_rms_distance_{label.strip('()')}"] = functions[:, j]
    off = ~np.eye(k, dtype=bool)
    frame["nearest_param_distance"] = [params[i, off[i]].min() if k > 1 else np.nan for i in range(k)]
    frame["nearest_map_f_rms_distance"] = [functions[i, off[i]].min() if k > 1 else np.nan for i in range(k)]
    return frame


def _usable(run: OptimumPredictive, where: str, n_inputs: int | None) -> bool:
    if not isinstance(run, OptimumPredictive):
        raise TypeError(f"{where} must be an OptimumPredictive; got {type(run).__name__}")
    if run.f_grid is None:
        return False
    f = np.asarray(run.f_grid)
    if f.ndim != 2 or (n_inputs is not None and f.shape[1] != n_inputs):
        raise ValueError(f"{where}: f_grid must have shape (S, {n_inputs}); got {f.shape}")
    return f.shape[0] > 0


def map_w2_table(x: Any, per_method: Mapping[str, Sequence[OptimumPredictive]], x_train: Any, *,
                 gap_fraction: float = 0.1) -> tuple[pd.DataFrame, dict[str, PairwiseW2]]:
    """Per method, the pairwise push-forward :math:`W_2` across optima, summarised over :math:`x`.

    Hartmann et al. (2026), App. D, Fig. 7: at every input :math:`x` the :math:`W_2` between the
    predictives :math:`f_\\theta(x)_\\#\\rho^{(i)}` and :math:`f_\\theta(x)_\\#\\rho^{(j)}` of every
    pair of optima is computed (exactly, from the sorted samples) and averaged over the pairs,
    :math:`\\bar W_2(x)`; its spread over the pairs is the per-input variance. An optimum whose
    samples all failed takes no part (it is counted in ``failed_optima``); its failed samples,
    like every other failed sample, are counted in ``failed_samples``.

    Parameters
    ----------
    x : array_like, shape (M,)
        The input grid.
    per_method : mapping of str to sequence of OptimumPredictive
        Method name (e.g. ``"ela"``, ``"wg"``) to its predictive at each optimum, in the order of
        the optima.
    x_train : array_like, shape (N,)
        Training inputs: the "on data" inputs are those inside their intervals
        (:func:`on_data_mask`).
    gap_fraction : float, default 0.1
        Passed to :func:`geobayes.report.bnn_figures.training_intervals`.

    Returns
    -------
    table : pandas.DataFrame
        One row per method: ``optima``, ``optima_used``, ``failed_optima``, ``pairs``,
        ``samples_per_optimum``, ``failed_samples``, ``failed_per_optimum`` (``;``-separated),
        ``w2_mean_over_x`` and ``w2_variance_over_x`` (mean and population variance over the
        grid of :math:`\\bar W_2(x)`), ``w2_max_over_x``, ``pair_variance_mean_over_x`` (mean over
        the grid of the variance over pairs), ``w2_mean_on_data``, ``w2_mean_off_data``, and the
        grid (``grid_low``, ``grid_high``, ``grid_points``, ``grid_points_on_data``). With fewer
        than two usable optima the W2 columns are NaN.
    pairwise : dict of str to PairwiseW2
        The per-input results of the methods with at least two usable optima (Fig. 7).

    Raises
    ------
    ValueError
        On an empty mapping, a method without optima, or samples that do not match the grid.
    """
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1 or x.shape[0] < 1:
        raise ValueError(f"x must be a 1-D grid; got shape {x.shape}")
    if not isinstance(per_method, Mapping) or not per_method:
        raise ValueError("per_method must be a non-empty mapping from method name to the predictives per optimum")
    on_data = on_data_mask(x, x_train, gap_fraction=gap_fraction)
    rows, pairwise = [], {}
    for method, runs in per_method.items():
        runs = list(runs)
        if not runs:
            raise ValueError(f"method {method!r} has no optima")
        usable = [_usable(run, f"per_method[{method!r}][{k}]", x.shape[0]) for k, run in enumerate(runs)]
        row = {"method": method, "optima": len(runs), "optima_used": int(sum(usable)),
               "failed_optima": int(len(runs) - sum(usable)), "pairs": 0,
               "samples_per_optimum": int(max(run.n_samples for run in runs)),
               "failed_samples": int(sum(run.n_failed for run in runs)),
               "failed_per_optimum": ";".join(str(int(run.n_failed)) for run in runs)}
        stats = dict.fromkeys(("w2_mean_over_x", "w2_variance_over_x", "w2_max_over_x", "pair_variance_mean_over_x",
                               "w2_mean_on_data", "w2_mean_off_data"), float("nan"))
        if sum(usable) >= 2:
            result = pairwise_pushforward_wasserstein2([run.f_grid for run, ok in zip(runs, usable, strict=True) if ok])
            pairwise[method] = result
            row["pairs"] = len(result.pairs)
            stats.update(w2_mean_over_x=float(result.mean.mean()), w2_variance_over_x=float(result.mean.var()),
                         w2_max_over_x=float(result.mean.max()),
                         pair_variance_mean_over_x=float(result.variance.mean()))
            if on_data.any():
                stats["w2_mean_on_data"] = float(result.mean[on_data].mean())
            if (~on_data).any():
                stats["w2_mean_off_data"] = float(result.mean[~on_data].mean())
        rows.append({**row, **stats, "grid_low": float(x[0]), "grid_high": float(x[-1]),
                     "grid_points": int(x.shape[0]), "grid_points_on_data": int(on_data.sum())})
    return pd.DataFrame(rows), pairwise


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


def map_predictives_figure(path: str | os.PathLike[str], x: Any, per_method: Mapping[str, Sequence[Any]], *,
                           png_path: str | os.PathLike[str] | None = None, **options: Any) -> list[Path]:
    """Write :func:`build_map_predictives_figure` (Hartmann et al. 2026, Fig. 6) to ``path``, atomically.

    Parameters
    ----------
    path : str or os.PathLike
        Destination; its suffix (``.pdf``, ``.png``, ``.svg``) is the format.
    x, per_method
        As :func:`build_map_predictives_figure`.
    png_path : str or os.PathLike, optional
        A PNG copy.
    **options
        Keyword options of :func:`build_map_predictives_figure`.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    return list(save_figure(build_map_predictives_figure(x, per_method, **options), path, png_path))
