"""Zero-mean Gaussian prior with a full covariance matrix (e.g. a Gaussian-process kernel)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np


class DenseGaussianPrior(eqx.Module):
    """``N(0, Sigma_pi)`` stored with the lower Cholesky factor of ``Sigma_pi``.

    Latent Gaussian-process priors (Hartmann et al. 2026, Sec. 5.2, Table 1 "GLM" and Fig. 2)
    and the Wishart-drawn prior covariances of Fig. 1 use it. Near-singular kernels are the
    reason the wrapped Gaussian uses Eq. (15), which multiplies by ``Sigma_pi`` and never
    inverts it; the log density and the precision (needed by the Hessian and the Fisher metric)
    go through the Cholesky factor.

    Parameters
    ----------
    covariance
        ``Sigma_pi``, shape (D, D), symmetric positive definite (add jitter to a kernel first).
    """

    covariance_matrix: jax.Array
    cholesky: jax.Array

    def __init__(self, covariance):
        covariance = np.asarray(covariance, dtype=np.float64)
        if covariance.ndim != 2 or covariance.shape[0] != covariance.shape[1]:
            raise ValueError(f"prior covariance must be a square matrix, got shape {covariance.shape}")
        if not np.all(np.isfinite(covariance)):
            raise ValueError("prior covariance has non-finite entries")
        covariance = 0.5 * (covariance + covariance.T)
        try:
            chol = np.linalg.cholesky(covariance)
        except np.linalg.LinAlgError as err:
            raise ValueError(
                "prior covariance is not positive definite; add jitter to the kernel "
                "(experiments.*.kernel.jitter)"
            ) from err
        self.covariance_matrix = jnp.asarray(covariance)
        self.cholesky = jnp.asarray(chol)

    def logdensity(self, theta: jax.Array) -> jax.Array:
        """``log N(theta | 0, Sigma_pi)`` including its normalising constant."""
        w = jsl.solve_triangular(self.cholesky, theta, lower=True)
        return (-0.5 * jnp.dot(w, w) - jnp.sum(jnp.log(jnp.diag(self.cholesky)))
                - 0.5 * theta.shape[0] * jnp.log(2.0 * jnp.pi))

    def precision(self, dim: int) -> jax.Array:
        """``Sigma_pi^{-1}`` by two triangular solves, shape (D, D)."""
        return jsl.cho_solve((self.cholesky, True), jnp.eye(dim))

    def covariance(self, dim: int) -> jax.Array:
        """``Sigma_pi``, shape (D, D)."""
        return self.covariance_matrix

    def whitening(self, dim: int) -> jax.Array:
        """``L`` with ``Sigma_pi = L L^T``: ``theta = L z`` makes the prior ``N(0, I)`` (the
        non-centred parametrisation that NUTS and the MAP search use for near-singular kernels)."""
        return self.cholesky
