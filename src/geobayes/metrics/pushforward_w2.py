"""Exact 1-D Wasserstein-2 distances between the push-forwards of posteriors through a network.

* :func:`pushforward_wasserstein2` -- per input :math:`x`, the exact 1-D Wasserstein-2
  distance between the push-forwards :math:`f_\\theta(x)_\\#\\rho` of two posteriors
  (Hartmann et al. 2026, Sec. 5 / Fig. 5), with the aggregates over inputs
  :func:`mean_pushforward_wasserstein2` and :func:`rms_pushforward_wasserstein2`.
* :func:`pairwise_pushforward_wasserstein2` -- mean and variance over all pairs of runs
  of the per-input W2 (Hartmann et al. 2026, App. D, Fig. 7: predictive distributions
  from five MAP estimates).

Inputs are function samples (:mod:`geobayes.metrics.function_samples`); all computations are
NumPy float64.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from geobayes.metrics.function_samples import function_samples

__all__ = [
    "pushforward_wasserstein2",
    "mean_pushforward_wasserstein2",
    "rms_pushforward_wasserstein2",
    "PairwiseW2",
    "pairwise_pushforward_wasserstein2",
]


def _quantile_indices(n_a: int, n_b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merged quantile levels of two uniform empirical laws of sizes ``n_a`` and ``n_b``.

    The levels :math:`\\{i/n_a\\} \\cup \\{j/n_b\\}` are kept exactly as integers
    ``L = level * n_a * n_b``; on the interval ending at level ``L`` the quantile functions
    are the order statistics ``ceil(L / n_b) - 1`` of ``a`` and ``ceil(L / n_a) - 1`` of ``b``.

    Returns
    -------
    weights : numpy.ndarray, shape (K,)
        Lengths of the intervals between consecutive merged levels (they sum to 1).
    index_a, index_b : numpy.ndarray of int, shape (K,)
        Order statistics of ``a`` and ``b`` on each interval.
    """
    total = n_a * n_b
    levels = np.union1d(np.arange(1, n_a + 1, dtype=np.int64) * n_b, np.arange(1, n_b + 1, dtype=np.int64) * n_a)
    weights = np.diff(np.concatenate(([0], levels))).astype(np.float64) / total
    index_a = (levels + n_b - 1) // n_b - 1
    index_b = (levels + n_a - 1) // n_a - 1
    return weights, index_a, index_b


def pushforward_wasserstein2(f_a: Any, f_b: Any) -> np.ndarray:
    """Exact 1-D Wasserstein-2 distance per input between two sets of predictive samples.

    For each input :math:`x_m` (column ``m``) the columns hold draws from the push-forwards
    :math:`f_\\theta(x_m)_\\#\\rho_a` and :math:`f_\\theta(x_m)_\\#\\rho_b` (Hartmann et al.
    2026, Sec. 5, Fig. 5). For 1-D laws the optimal coupling is monotone, so

    .. math:: W_2^2(\\mu, \\nu) = \\int_0^1 \\bigl(F_\\mu^{-1}(u) - F_\\nu^{-1}(u)\\bigr)^2 \\, du

    (e.g. Peyré & Cuturi, "Computational Optimal Transport", 2019, Remark 2.30). For
    uniform empirical laws of sizes :math:`S_a` and :math:`S_b` the quantile functions are
    step functions of the sorted samples; the integral is a finite sum over the merged
    levels :math:`\\{i/S_a\\} \\cup \\{j/S_b\\}` (for :math:`S_a = S_b` it reduces to
    :math:`\\frac1S\\sum_i (a_{(i)} - b_{(i)})^2`). This equals
    ``ot.wasserstein_1d(a, b, p=2) ** 0.5`` of POT, computed without POT.

    Parameters
    ----------
    f_a : array_like, shape (S_a, M)
        Predictive samples of the first posterior at ``M`` inputs.
    f_b : array_like, shape (S_b, M)
        Predictive samples of the second posterior at the same ``M`` inputs; ``S_b`` may
        differ from ``S_a``.

    Returns
    -------
    numpy.ndarray, shape (M,)
        :math:`W_2` at each input (float64, >= 0).

    Raises
    ------
    ValueError
        If an array is not a finite real 2-D array or the numbers of inputs differ.

    Notes
    -----
    Memory is about ``(S_a + S_b) * M`` float64 twice (the sorted samples and the values on
    the merged levels).
    """
    a = function_samples("f_a", f_a)
    b = function_samples("f_b", f_b)
    if a.shape[1] != b.shape[1]:
        raise ValueError(
            f"f_a and f_b must have the same number of inputs (columns); got shapes {a.shape} and {b.shape}"
        )
    a = np.sort(a, axis=0)
    b = np.sort(b, axis=0)
    if a.shape[0] == b.shape[0]:
        squared = np.mean((a - b) ** 2, axis=0)
    else:
        weights, index_a, index_b = _quantile_indices(a.shape[0], b.shape[0])
        squared = weights @ (a[index_a] - b[index_b]) ** 2
    return np.sqrt(np.maximum(squared, 0.0))


def mean_pushforward_wasserstein2(f_a: Any, f_b: Any) -> float:
    """Average over inputs of the per-input push-forward :math:`W_2` (our reading of Hartmann et al. 2026, Fig. 5).

    Hartmann et al. (2026), Sec. 5, report one number per approximation,
    ":math:`W_2(f_\\theta(x)_\\#\\rho_{WG}, f_\\theta(x)_\\#\\rho_{NUTS}) \\approx 2.932`" (LA:
    56.283), without saying over which inputs or how the per-input distances are combined.
    **We average the per-input** :math:`W_2` **over the input grid**,

    .. math:: \\bar W_2 = \\frac1M \\sum_{m=1}^M W_2\\bigl(f_\\theta(x_m)_\\#\\rho_a,
              f_\\theta(x_m)_\\#\\rho_b\\bigr),

    i.e. the mean of :func:`pushforward_wasserstein2`. The root-mean-square aggregate is
    :func:`rms_pushforward_wasserstein2`. Both depend on the grid (its range and spacing),
    which must be reported with the number.

    Parameters
    ----------
    f_a, f_b : array_like, shapes (S_a, M) and (S_b, M)
        Predictive samples of the two posteriors at the same ``M`` inputs.

    Returns
    -------
    float
        The mean of the per-input :math:`W_2`.

    Raises
    ------
    ValueError
        As :func:`pushforward_wasserstein2`.
    """
    return float(np.mean(pushforward_wasserstein2(f_a, f_b)))


def rms_pushforward_wasserstein2(f_a: Any, f_b: Any) -> float:
    """Root mean square over inputs of the per-input push-forward :math:`W_2` (alternative aggregate).

    .. math:: W_2^{\\mathrm{rms}} = \\Bigl(\\frac1M \\sum_{m=1}^M W_2^2\\bigl(f_\\theta(x_m)_\\#\\rho_a,
              f_\\theta(x_m)_\\#\\rho_b\\bigr)\\Bigr)^{1/2}.

    This is the :math:`W_2` between the product of the per-input marginals under the cost
    :math:`\\frac1M\\lVert\\cdot\\rVert_2^2`, a lower bound of the :math:`W_2` between the joint
    laws of :math:`(f_\\theta(x_1), \\dots, f_\\theta(x_M))` under that cost (it couples each
    input separately). Always :math:`\\ge` :func:`mean_pushforward_wasserstein2`. Hartmann
    et al. (2026) do not say which aggregate they report; see
    :func:`mean_pushforward_wasserstein2`.

    Parameters
    ----------
    f_a, f_b : array_like, shapes (S_a, M) and (S_b, M)
        Predictive samples of the two posteriors at the same ``M`` inputs.

    Returns
    -------
    float
        The root mean square of the per-input :math:`W_2`.

    Raises
    ------
    ValueError
        As :func:`pushforward_wasserstein2`.
    """
    w2 = pushforward_wasserstein2(f_a, f_b)
    return float(np.sqrt(np.mean(w2**2)))


class PairwiseW2(NamedTuple):
    """Per-input :math:`W_2` between all pairs of runs (:func:`pairwise_pushforward_wasserstein2`).

    Attributes
    ----------
    mean : numpy.ndarray, shape (M,)
        Mean over the :math:`K(K-1)/2` pairs of the per-input :math:`W_2`.
    variance : numpy.ndarray, shape (M,)
        Population variance (``ddof=0``) over the pairs of the per-input :math:`W_2`.
    per_pair : numpy.ndarray, shape (K(K-1)/2, M)
        The per-input :math:`W_2` of every pair, in the order of ``pairs``.
    pairs : tuple of (int, int)
        The run indices ``(i, j)``, ``i < j``, in lexicographic order.
    """

    mean: np.ndarray
    variance: np.ndarray
    per_pair: np.ndarray
    pairs: tuple[tuple[int, int], ...]


def pairwise_pushforward_wasserstein2(samples_per_run: Sequence[Any]) -> PairwiseW2:
    """Mean and variance over all pairs of runs of the per-input push-forward :math:`W_2`.

    Hartmann et al. (2026), App. D, Fig. 7: for each input :math:`x`, the predictive
    distributions :math:`f_\\theta(x)_\\#\\rho^{(k)}` of :math:`K = 5` approximations built
    at different MAP estimates are compared by all :math:`K(K-1)/2 = 10` pairwise
    :math:`W_2` distances (:func:`pushforward_wasserstein2`), and the mean and variance of
    these distances are plotted against :math:`x`. The paper does not say whether the
    variance is over pairs with ``ddof=0`` or ``1``; we use the population variance
    (``ddof=0``), as for every std in this project.

    Parameters
    ----------
    samples_per_run : sequence of array_like, each of shape (S_k, M)
        Predictive samples of each of the ``K >= 2`` runs at the same ``M`` inputs (the
        sample counts ``S_k`` may differ).

    Returns
    -------
    PairwiseW2
        ``mean`` and ``variance`` of shape ``(M,)``, ``per_pair`` of shape
        ``(K(K-1)/2, M)`` and the index ``pairs``.

    Raises
    ------
    ValueError
        If fewer than two runs are given, a run is not a finite real 2-D array, or the runs
        have different numbers of inputs (the message lists the shapes).
    """
    if isinstance(samples_per_run, np.ndarray) and samples_per_run.ndim == 3:
        runs = [samples_per_run[k] for k in range(samples_per_run.shape[0])]
    else:
        runs = list(samples_per_run)
    if len(runs) < 2:
        raise ValueError(f"samples_per_run must hold at least two runs; got {len(runs)}")
    runs = [function_samples(f"samples_per_run[{k}]", run) for k, run in enumerate(runs)]
    widths = {run.shape[1] for run in runs}
    if len(widths) != 1:
        raise ValueError(
            "every run must have the same number of inputs (columns); got shapes "
            + ", ".join(str(run.shape) for run in runs)
        )
    pairs = tuple((i, j) for i in range(len(runs)) for j in range(i + 1, len(runs)))
    per_pair = np.stack([pushforward_wasserstein2(runs[i], runs[j]) for i, j in pairs])
    return PairwiseW2(per_pair.mean(axis=0), per_pair.var(axis=0), per_pair, pairs)
