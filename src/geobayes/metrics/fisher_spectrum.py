"""Eigenvalue spectrum of the Fisher information at a network optimum (Hartmann et al. 2026, Fig. 9)."""

from __future__ import annotations

import equinox as eqx
import jax
import numpy as np


def likelihood_fisher(posterior, theta: jax.Array) -> np.ndarray:
    """``I(theta) = Dh(theta)^T I_Xi(h(theta)) Dh(theta)``, shape (D, D), without the prior.

    Hartmann et al. (2026), Sec. 3 / App. D: the Fisher information of the likelihood pulled
    back by the embedding; for the Bernoulli classifier ``J^T diag(p (1 - p)) J`` with ``J`` the
    Jacobian of the logits and ``p = sigmoid(f_theta(x_n))``. The metric of the WG is this plus
    the prior precision.
    """
    fisher = np.asarray(_pullback_fisher(posterior, jax.numpy.asarray(theta, dtype=jax.numpy.float64)))
    return 0.5 * (fisher + fisher.T)


@eqx.filter_jit
def _pullback_fisher(posterior, theta: jax.Array) -> jax.Array:
    """``Dh^T I_Xi Dh`` compiled once (eager ``jacfwd`` dispatches thousands of small operations)."""
    return posterior.family.pullback_fisher(posterior.embed(theta), jax.jacfwd(posterior.embed)(theta))


def fisher_spectrum(matrix: np.ndarray) -> np.ndarray:
    """Eigenvalues of a symmetric matrix, largest first (dense ``eigvalsh``)."""
    return np.linalg.eigvalsh(np.asarray(matrix, dtype=np.float64))[::-1].copy()


def count_above(eigenvalues: np.ndarray, thresholds, *, relative: bool = True) -> dict[str, int]:
    """Number of eigenvalues above each threshold (times the largest one if ``relative``).

    Returns a dict ``{"1e-06": count, ...}`` keyed by the threshold as written by ``repr``.
    """
    eigenvalues = np.asarray(eigenvalues)
    scale = float(eigenvalues.max()) if relative else 1.0
    return {f"{float(t):.0e}": int(np.sum(eigenvalues > float(t) * scale)) for t in thresholds}


def drop_index(eigenvalues: np.ndarray, floor: float) -> int:
    """Number of directions before the sharpest drop of the spectrum.

    The largest ratio ``lambda_i / lambda_{i+1}`` of consecutive eigenvalues (sorted
    descending), over the ``i`` whose ``lambda_i`` is above ``floor * lambda_max``, so that the
    gaps between numerical zeros (the rank is at most n) are never chosen but the drop into
    them is; returns ``i + 1``, the count of eigenvalues before the drop. A non-positive
    ``lambda_{i+1}`` counts as the smallest positive float. Hartmann et al. (2026), Fig. 9: "a
    sharp drop after roughly 50 directions".

    Raises
    ------
    ValueError
        If the largest eigenvalue is not positive and finite, or there is only one eigenvalue.
    """
    eigenvalues = np.sort(np.asarray(eigenvalues, dtype=np.float64))[::-1]
    if eigenvalues.size < 2 or not (np.isfinite(eigenvalues[0]) and eigenvalues[0] > 0):
        raise ValueError(f"drop_index: needs at least two eigenvalues and a positive, finite largest one, "
                         f"got {eigenvalues[:2]!r}")
    kept = int(np.sum(eigenvalues > floor * eigenvalues[0]))
    upper = eigenvalues[:min(kept, eigenvalues.size - 1)]
    lower = np.maximum(eigenvalues[1:upper.size + 1], np.finfo(np.float64).tiny)
    return int(np.argmax(upper / lower)) + 1
