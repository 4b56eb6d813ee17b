"""Predictive metrics of posterior function samples (BNN regression on Snelson's 1-D data).

Every function here takes *function samples*: an array ``f_samples`` of shape ``(S, M)``
whose row ``s`` holds the network output :math:`f_{\\theta_s}(x_m)` of posterior sample
:math:`\\theta_s` at the ``M`` inputs :math:`x_m` (the predictive *mean* of the Gaussian
likelihood :math:`y \\mid x, \\theta \\sim \\mathcal N(f_\\theta(x), \\sigma^2)`).

* :func:`predictive_mse` and :func:`predictive_nll` -- Yu et al. (2024), Sec. 5.4,
  Tables 3 and 5 (the definitions of the authors' code, notes Sec. 2.6): the squared
  error of the posterior-mean prediction and the negative log predictive density of the
  Gaussian mixture :math:`\\frac1S\\sum_s \\mathcal N(y \\mid f_{\\theta_s}(x), \\sigma^2)`,
  each averaged over the test points.
* :func:`pushforward_wasserstein2` -- per input :math:`x`, the exact 1-D Wasserstein-2
  distance between the push-forwards :math:`f_\\theta(x)_\\#\\rho` of two posteriors
  (Hartmann et al. 2026, Sec. 5 / Fig. 5), with the aggregates over inputs
  :func:`mean_pushforward_wasserstein2` and :func:`rms_pushforward_wasserstein2`.
* :func:`pairwise_pushforward_wasserstein2` -- mean and variance over all pairs of runs
  of the per-input W2 (Hartmann et al. 2026, App. D, Fig. 7: predictive distributions
  from five MAP estimates).
* :func:`predictive_quantiles` -- quantiles of the predictive mixture (with or without
  the observation noise), for credible bands (Hartmann et al. 2026, Fig. 5, bottom row).

All computations are NumPy float64. Samples must be finite: a sample whose exponential
map failed must be dropped (and counted) by the caller; a NaN or inf is refused with a
message that says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from scipy.special import log_ndtr, logsumexp

__all__ = [
    "predictive_mse",
    "predictive_nll",
    "pushforward_wasserstein2",
    "mean_pushforward_wasserstein2",
    "rms_pushforward_wasserstein2",
    "PairwiseW2",
    "pairwise_pushforward_wasserstein2",
    "predictive_quantiles",
]

_LOG_2PI = math.log(2.0 * math.pi)


def _real_array(name: str, value: Any) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"{name} must be a real numeric array; got dtype {arr.dtype}")
    return arr.astype(np.float64)


def _check_finite(name: str, arr: np.ndarray) -> None:
    bad = int(np.count_nonzero(~np.isfinite(arr)))
    if bad:
        raise ValueError(
            f"{name} contains {bad} non-finite values (NaN or inf) in an array of shape {arr.shape}; "
            "drop failed samples (and count them) before computing predictive metrics"
        )


def _function_samples(name: str, value: Any) -> np.ndarray:
    """Validate function samples: a finite float64 array of shape ``(S, M)``, S, M >= 1."""
    arr = _real_array(name, value)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array of shape (S, M) = (samples, inputs); got shape {arr.shape} "
            "(use f[None, :] for a single sample or f[:, None] for a single input)"
        )
    if arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"{name} must hold at least one sample and one input; got shape {arr.shape}")
    _check_finite(name, arr)
    return arr


def _targets(y_test: Any, n_inputs: int) -> np.ndarray:
    y = _real_array("y_test", y_test)
    if y.ndim != 1 or y.shape[0] != n_inputs:
        raise ValueError(
            f"y_test must be a 1-D array with one target per input (M = {n_inputs}, the columns of "
            f"f_samples); got shape {y.shape}"
        )
    _check_finite("y_test", y)
    return y


def _noise_std(noise_std: Any, n_samples: int) -> np.ndarray:
    """Noise std as a float64 array of shape ``()`` or ``(S,)``, all finite and > 0."""
    sigma = _real_array("noise_std", noise_std)
    if sigma.ndim == 1 and sigma.shape[0] != n_samples:
        raise ValueError(
            f"noise_std must be a scalar or have one value per sample (S = {n_samples}, the rows of "
            f"f_samples); got shape {sigma.shape}"
        )
    if sigma.ndim > 1:
        raise ValueError(f"noise_std must be a scalar or a 1-D array of shape (S,); got shape {sigma.shape}")
    if not (np.all(np.isfinite(sigma)) and np.all(sigma > 0)):
        raise ValueError(f"noise_std must be finite and > 0; got min {float(np.min(sigma))!r}")
    return sigma


def predictive_mse(f_samples: Any, y_test: Any) -> float:
    """Mean squared error of the posterior-mean prediction (Yu et al. 2024, Sec. 5.4, Tables 3, 5).

    .. math:: \\mathrm{MSE} = \\frac1M \\sum_{m=1}^M
              \\Bigl(\\frac1S \\sum_{s=1}^S f_{\\theta_s}(x_m) - y_m\\Bigr)^2,

    the definition of the authors' code (notes on Yu et al. 2024, Sec. 2.6): the mean over
    samples is taken *before* squaring (it is not the mean of the per-sample MSEs).

    Parameters
    ----------
    f_samples : array_like, shape (S, M)
        Network outputs of ``S`` posterior samples at the ``M`` test inputs.
    y_test : array_like, shape (M,)
        Test targets.

    Returns
    -------
    float
        The MSE.

    Raises
    ------
    ValueError
        If ``f_samples`` is not a finite real 2-D array with at least one row and column,
        or ``y_test`` is not finite with one entry per column of ``f_samples``.
    """
    f = _function_samples("f_samples", f_samples)
    y = _targets(y_test, f.shape[1])
    return float(np.mean((f.mean(axis=0) - y) ** 2))


def predictive_nll(f_samples: Any, y_test: Any, noise_std: Any) -> float:
    """Negative log predictive density of the sample mixture (Yu et al. 2024, Sec. 5.4, Tables 3, 5).

    .. math:: \\mathrm{NLL} = -\\frac1M \\sum_{m=1}^M \\log\\Bigl(\\frac1S \\sum_{s=1}^S
              \\mathcal N\\bigl(y_m \\mid f_{\\theta_s}(x_m), \\sigma_s^2\\bigr)\\Bigr),

    computed with ``logsumexp`` over samples, as in the authors' code (notes on Yu et al.
    2024, Sec. 2.6). Yu et al. use one :math:`\\sigma` (the Laplace-optimised noise std) for
    every sample; a per-sample :math:`\\sigma_s` serves models that infer the noise, e.g.
    Hartmann et al. (2026), Sec. 5 (E6), whose last parameter is :math:`\\log\\sigma^2`.
    For standardised data (Yu et al. 2024, Table 5) pass samples and :math:`\\sigma` mapped back
    to the original scale (:math:`f \\cdot y_\\text{std} + y_\\text{mean}` and
    :math:`\\sigma \\cdot y_\\text{std}`), as the authors' code does, so that MSE and NLL refer to
    the original targets.

    Parameters
    ----------
    f_samples : array_like, shape (S, M)
        Network outputs of ``S`` posterior samples at the ``M`` test inputs.
    y_test : array_like, shape (M,)
        Test targets.
    noise_std : float or array_like, shape (S,)
        Observation-noise standard deviation :math:`\\sigma` (not the variance), shared by
        all samples or one per sample; finite and > 0.

    Returns
    -------
    float
        The NLL (natural log, per test point).

    Raises
    ------
    ValueError
        If shapes do not match (the message gives expected and actual shapes), a value is
        not finite, or a noise std is not > 0.
    """
    f = _function_samples("f_samples", f_samples)
    y = _targets(y_test, f.shape[1])
    sigma = _noise_std(noise_std, f.shape[0])
    sigma_col = sigma[:, None] if sigma.ndim == 1 else sigma
    z = (y[None, :] - f) / sigma_col
    log_density = -0.5 * z**2 - np.log(sigma_col) - 0.5 * _LOG_2PI
    log_mixture = logsumexp(log_density, axis=0) - math.log(f.shape[0])
    return float(-np.mean(log_mixture))


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
    a = _function_samples("f_a", f_a)
    b = _function_samples("f_b", f_b)
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
    runs = [_function_samples(f"samples_per_run[{k}]", run) for k, run in enumerate(runs)]
    widths = {run.shape[1] for run in runs}
    if len(widths) != 1:
        raise ValueError(
            "every run must have the same number of inputs (columns); got shapes "
            + ", ".join(str(run.shape) for run in runs)
        )
    pairs = tuple((i, j) for i in range(len(runs)) for j in range(i + 1, len(runs)))
    per_pair = np.stack([pushforward_wasserstein2(runs[i], runs[j]) for i, j in pairs])
    return PairwiseW2(per_pair.mean(axis=0), per_pair.var(axis=0), per_pair, pairs)


def predictive_quantiles(
    f_samples: Any, q: Any, noise_std: Any = None, *, tol: float = 1e-10, max_iter: int = 200
) -> np.ndarray:
    """Quantiles per input of the predictive, with or without the observation noise.

    Without ``noise_std`` the predictive of :math:`f_\\theta(x)` is the empirical law of the
    samples and the quantiles are ``numpy.quantile`` (linear interpolation). With
    ``noise_std`` it is the Gaussian mixture
    :math:`\\frac1S\\sum_s \\mathcal N(f_{\\theta_s}(x), \\sigma_s^2)` of :math:`Y(x)` (the
    predictive of Yu et al. 2024, Sec. 5.4, and of Hartmann et al. 2026, Fig. 5, bottom
    row: "predictive distributions ... and their 95 % credible intervals"); its quantiles
    are found by bisection on the mixture CDF, so they are deterministic (no noise draws).

    Parameters
    ----------
    f_samples : array_like, shape (S, M)
        Network outputs of ``S`` posterior samples at ``M`` inputs.
    q : float or array_like of float in (0, 1)
        Quantile levels (e.g. ``[0.025, 0.975]``).
    noise_std : float or array_like of shape (S,), optional
        Observation-noise std, shared or per sample; ``None`` for the law of :math:`f` alone.
    tol : float, optional
        Absolute tolerance of the bisection, relative to the scale of the mixture.
    max_iter : int, optional
        Maximum bisection steps.

    Returns
    -------
    numpy.ndarray, shape q.shape + (M,)
        The quantiles.

    Raises
    ------
    ValueError
        If a level is not in (0, 1) (open interval with noise, closed without), or shapes
        and values are invalid as in :func:`predictive_nll`.
    """
    f = _function_samples("f_samples", f_samples)
    levels = _real_array("q", q)
    if not np.all(np.isfinite(levels)):
        raise ValueError(f"q must be finite; got {levels}")
    if noise_std is None:
        if np.any((levels < 0) | (levels > 1)):
            raise ValueError(f"quantile levels q must lie in [0, 1]; got {levels}")
        return np.quantile(f, levels, axis=0)
    if np.any((levels <= 0) | (levels >= 1)):
        raise ValueError(f"quantile levels q must lie in (0, 1) with noise; got {levels}")
    sigma = _noise_std(noise_std, f.shape[0])
    sigma_col = np.broadcast_to(sigma[:, None] if sigma.ndim == 1 else sigma, f.shape)
    flat = levels.reshape(-1)
    spread = float(np.max(sigma_col))
    z_max = 40.0
    lo0 = f.min(axis=0) - z_max * spread
    hi0 = f.max(axis=0) + z_max * spread
    scale = np.maximum(hi0 - lo0, 1.0)
    out = np.empty((flat.size, f.shape[1]), dtype=np.float64)
    log_s = math.log(f.shape[0])
    for k, level in enumerate(flat):
        lo, hi = lo0.copy(), hi0.copy()
        log_level = math.log(level)
        for _ in range(max_iter):
            mid = 0.5 * (lo + hi)
            # log CDF of the mixture at mid, stable in the far tails.
            log_cdf = logsumexp(log_ndtr((mid[None, :] - f) / sigma_col), axis=0) - log_s
            below = log_cdf < log_level
            lo = np.where(below, mid, lo)
            hi = np.where(below, hi, mid)
            if np.all(hi - lo <= tol * scale):
                break
        out[k] = 0.5 * (lo + hi)
    return out.reshape(levels.shape + (f.shape[1],))
