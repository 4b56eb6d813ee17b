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
* :func:`predictive_quantiles` -- quantiles of the predictive mixture (with or without
  the observation noise), for credible bands (Hartmann et al. 2026, Fig. 5, bottom row).

The push-forward Wasserstein-2 distances of the same samples are in
:mod:`geobayes.metrics.pushforward_w2`.

All computations are NumPy float64. Samples must be finite: a sample whose exponential
map failed must be dropped (and counted) by the caller; a NaN or inf is refused with a
message that says so.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.special import log_ndtr, logsumexp

from geobayes.metrics.function_samples import check_finite, function_samples, real_array

__all__ = [
    "predictive_mse",
    "predictive_nll",
    "predictive_quantiles",
]

_LOG_2PI = math.log(2.0 * math.pi)


def _targets(y_test: Any, n_inputs: int) -> np.ndarray:
    y = real_array("y_test", y_test)
    if y.ndim != 1 or y.shape[0] != n_inputs:
        raise ValueError(
            f"y_test must be a 1-D array with one target per input (M = {n_inputs}, the columns of "
            f"f_samples); got shape {y.shape}"
        )
    check_finite("y_test", y)
    return y


def _noise_std(noise_std: Any, n_samples: int) -> np.ndarray:
    """Noise std as a float64 array of shape ``()`` or ``(S,)``, all finite and > 0."""
    sigma = real_array("noise_std", noise_std)
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
    f = function_samples("f_samples", f_samples)
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
    f = function_samples("f_samples", f_samples)
    y = _targets(y_test, f.shape[1])
    sigma = _noise_std(noise_std, f.shape[0])
    sigma_col = sigma[:, None] if sigma.ndim == 1 else sigma
    z = (y[None, :] - f) / sigma_col
    log_density = -0.5 * z**2 - np.log(sigma_col) - 0.5 * _LOG_2PI
    log_mixture = logsumexp(log_density, axis=0) - math.log(f.shape[0])
    return float(-np.mean(log_mixture))


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
    f = function_samples("f_samples", f_samples)
    levels = real_array("q", q)
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
