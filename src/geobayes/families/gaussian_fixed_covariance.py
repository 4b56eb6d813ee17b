"""Gaussian family with a known, full covariance, parameterised by its mean vector."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl


class GaussianFixedCovariance(eqx.Module):
    """``y ~ N(mu, Sigma_y)`` with the mean vector ``mu`` (shape (M,)) as parameter.

    Hartmann et al. (2026), Sec. 5.3 (squiggle, Rosenbrock) and App. C.2 (Neal's funnel):
    ``KL(1||2) = 1/2 |mu2 - mu1|^2_{Sigma_y^{-1}}``, so the symmetrised KL is
    ``|mu1 - mu2|^2_{Sigma_y^{-1}}`` and the Fisher information is ``Sigma_y^{-1}``.

    Parameters
    ----------
    covariance
        ``Sigma_y``, shape (M, M), symmetric positive definite.
    """

    covariance: jax.Array

    def __init__(self, covariance):
        covariance = jnp.asarray(covariance, dtype=jnp.float64)
        if covariance.ndim != 2 or covariance.shape[0] != covariance.shape[1]:
            raise ValueError(f"covariance must be a square matrix, got shape {covariance.shape}")
        if not isinstance(covariance, jax.core.Tracer) and not bool(
            jnp.all(jnp.isfinite(jnp.linalg.cholesky(covariance)))
        ):
            raise ValueError("covariance must be symmetric positive definite")
        self.covariance = covariance

    @property
    def _cholesky(self) -> jax.Array:
        return jnp.linalg.cholesky(self.covariance)

    def _whiten(self, r: jax.Array) -> jax.Array:
        return jsl.solve_triangular(self._cholesky, r, lower=True)

    def log_likelihood(self, y: jax.Array, mu: jax.Array) -> jax.Array:
        """``log N(y | mu, Sigma_y)``, shape ()."""
        w = self._whiten(y - mu)
        chol = self._cholesky
        return (-0.5 * jnp.dot(w, w) - jnp.sum(jnp.log(jnp.diag(chol)))
                - 0.5 * y.shape[0] * jnp.log(2.0 * jnp.pi))

    def fisher_information(self, mu: jax.Array) -> jax.Array:
        """``Sigma_y^{-1}``, shape (M, M)."""
        return jsl.cho_solve((self._cholesky, True), jnp.eye(self.covariance.shape[0]))

    def symmetrised_kl(self, mu1: jax.Array, mu2: jax.Array) -> jax.Array:
        """``KL(1||2) + KL(2||1) = |mu1 - mu2|^2_{Sigma_y^{-1}}``."""
        w = self._whiten(mu1 - mu2)
        return jnp.dot(w, w)

    def pullback_fisher(self, mu: jax.Array, jac: jax.Array) -> jax.Array:
        """``J^T Sigma_y^{-1} J`` for ``J = d mu / d theta`` of shape (M, D)."""
        w = self._whiten(jac)
        return w.T @ w
