"""Covariance functions of the latent Gaussian-process priors."""

from __future__ import annotations

import numpy as np


def squared_exponential_kernel(
    inputs: np.ndarray, *, variance: float, lengthscale: float, jitter: float
) -> np.ndarray:
    """``K_ij = variance exp(-|x_i - x_j|^2 / (2 lengthscale^2)) + jitter variance delta_ij``.

    Hartmann et al. (2026), Sec. 6 (Table 1 "GLM": ``variance = 100``, ``lengthscale = 1000``
    for every input dimension; Fig. 2: ``variance = lengthscale = 100``). The paper gives no
    jitter; with ``lengthscale = 1000`` the kernel is numerically of rank about D + 2, so a
    relative jitter is added on the diagonal (documented in docs/deviations.md).

    Parameters
    ----------
    inputs
        ``X``, shape (N, D).
    variance, lengthscale
        Signal variance and the common length-scale of the ARD kernel.
    jitter
        Diagonal added, relative to ``variance``.

    Returns
    -------
    numpy.ndarray
        ``K``, shape (N, N), float64.
    """
    for name, value in (("variance", variance), ("lengthscale", lengthscale)):
        if not (np.isfinite(value) and value > 0):
            raise ValueError(f"kernel {name} must be finite and > 0, got {value}")
    if not (np.isfinite(jitter) and jitter >= 0):
        raise ValueError(f"kernel jitter must be finite and >= 0, got {jitter}")
    x = np.asarray(inputs, dtype=np.float64) / lengthscale
    sq = np.sum(x * x, axis=1)
    dist2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * x @ x.T, 0.0)
    return variance * np.exp(-0.5 * dist2) + jitter * variance * np.eye(x.shape[0])


def kernel_from_options(options: dict, X: np.ndarray) -> np.ndarray:
    """The SE kernel matrix of ``options['kernel']`` (``variance``, ``lengthscale``, relative
    ``jitter``) on the inputs ``X`` (Hartmann et al. 2026, Table 1 and Fig. 2)."""
    kernel = options["kernel"]
    return squared_exponential_kernel(X, variance=float(kernel["variance"]), lengthscale=float(kernel["lengthscale"]),
                                      jitter=float(kernel["jitter"]))
