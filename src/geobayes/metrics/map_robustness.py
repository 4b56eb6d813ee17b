r"""Robustness of a predictive to the MAP estimate: Hartmann et al. (2026), App. D, Figs. 6-7.

Five random initialisations (a)-(e) of the 142-parameter regression network on Snelson's data
end at five optima; each anchors a Laplace (LA) and a wrapped-Gaussian (WG) approximation whose
push-forward :math:`f_\theta(x)_\#\rho` is sampled on an input grid. The paper claims the WG
predictives are "consistently insensitive to the choice of MAP estimate", the LA ones not. The
numbers behind the claim, computed upstream of the tables and figures (rule ``map_robustness``):

* :func:`optima_table` -- the optima themselves: log posterior, convergence, and pairwise
  distances in parameter space and between the MAP networks on the grid (equal objectives and
  a zero function distance reveal a permutation/sign copy of the same mode).
* :func:`map_w2_table` -- per method, the per-input :math:`W_2` between the predictives of
  every pair of optima, averaged over the pairs
  (:func:`geobayes.metrics.pushforward_w2.pairwise_pushforward_wasserstein2`; Fig. 7), summarised
  over the inputs: its mean and variance over :math:`x`, on and off the training data, with
  failed samples and optima counted.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from geobayes.metrics.pushforward_w2 import PairwiseW2, pairwise_pushforward_wasserstein2

__all__ = ["OptimumPredictive", "optimum_label", "training_intervals", "pairwise_distances", "on_data_mask",
           "optima_table", "map_w2_table"]


def _vector(value: Any, name: str) -> np.ndarray:
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of shape (n,); got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains {int(np.sum(~np.isfinite(arr)))} non-finite values")
    return arr


def optimum_label(k: int) -> str:
    """The paper's label of optimum ``k``: ``(a)``, ``(b)``, ... (at most 26)."""
    if not 0 <= k < 26:
        raise ValueError(f"optimum index must be in 0..25; got {k}")
    return f"({string.ascii_lowercase[k]})"


def training_intervals(
    x_train: Any, *, gap: float | None = None, gap_fraction: float = 0.1
) -> list[tuple[float, float]]:
    """Contiguous x-intervals covered by the training inputs (for the grey shading).

    The sorted inputs are split wherever two neighbours are more than ``gap`` apart; each
    run of inputs gives the interval ``(min, max)``. So the complete split of Snelson's
    data gives one interval and the gap split (no training input in [1.5, 3]) two.

    Parameters
    ----------
    x_train : array_like, shape (N,)
        Training inputs (any order), N >= 1.
    gap : float, optional
        Smallest spacing that separates two intervals.
    gap_fraction : float, default 0.1
        Used when ``gap`` is None: ``gap = gap_fraction * (max - min)`` of ``x_train`` (0.6
        for Snelson's raw inputs on [0, 6], so the 1.5-wide hole of the gap split and the
        1-wide hole of Hartmann et al.'s data, :math:`x \\notin [2, 3]`, are both found).

    Returns
    -------
    list of (float, float)
        The intervals, left to right.

    Raises
    ------
    ValueError
        If ``x_train`` is empty or not finite, or ``gap``/``gap_fraction`` is not > 0.
    """
    x = np.sort(_vector(x_train, "x_train"))
    if x.shape[0] < 1:
        raise ValueError("x_train must hold at least one input")
    if gap is None:
        if not gap_fraction > 0:
            raise ValueError(f"gap_fraction must be > 0; got {gap_fraction!r}")
        gap = gap_fraction * float(x[-1] - x[0])
    elif not gap > 0:
        raise ValueError(f"gap must be > 0; got {gap!r}")
    breaks = np.flatnonzero(np.diff(x) > gap)
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [x.shape[0] - 1]))
    return [(float(x[s]), float(x[e])) for s, e in zip(starts, ends, strict=True)]


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


def pairwise_distances(vectors: Any) -> np.ndarray:
    """Euclidean distances between the rows of ``vectors`` (shape (K, D)) -> (K, K)."""
    v = np.asarray(vectors, dtype=np.float64)
    if v.ndim != 2 or v.shape[0] < 1:
        raise ValueError(f"vectors must be a 2-D array (K, D) with K >= 1; got shape {v.shape}")
    return np.linalg.norm(v[:, None, :] - v[None, :, :], axis=-1)


def on_data_mask(x: Any, x_train: Any, *, gap_fraction: float = 0.1) -> np.ndarray:
    """Grid inputs inside an interval covered by the training inputs
    (:func:`training_intervals`; for Hartmann et al.'s data,
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
        Passed to :func:`training_intervals`.

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
