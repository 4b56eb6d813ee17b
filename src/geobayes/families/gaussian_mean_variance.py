"""Gaussian family with a shared unknown variance: parameters (mu_1, ..., mu_N, s)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp


class GaussianMeanVariance(eqx.Module):
    """``y_n ~ N(mu_n, s)`` with parameters ``p = (mu_1, ..., mu_N, s)``, shape (N + 1,).

    Hartmann et al. (2026), Sec. 5.3 (logistic growth, BNN regression): the Fisher information
    is ``diag(1/s, ..., 1/s, N / (2 s^2))`` and, with ``s_i`` the variances (notes Sec. 1.6,
    derived),

    ``KL(1||2) + KL(2||1) = 1/2 [N (s1/s2 + s2/s1) - 2N + |mu1 - mu2|^2 (1/s1 + 1/s2)]``.
    """

    def log_likelihood_terms(self, y: jax.Array, params: jax.Array) -> jax.Array:
        """Per-observation ``log N(y_n | mu_n, s)``, shape (N,)."""
        mu, s = params[:-1], params[-1]
        r = y - mu
        return -0.5 * r * r / s - 0.5 * jnp.log(2.0 * jnp.pi * s)

    def log_likelihood(self, y: jax.Array, params: jax.Array) -> jax.Array:
        """Sum over observations of :meth:`log_likelihood_terms`, shape ()."""
        return jnp.sum(self.log_likelihood_terms(y, params))

    def fisher_information(self, params: jax.Array) -> jax.Array:
        """Diagonal of the Fisher information ``(1/s, ..., 1/s, N / (2 s^2))``, shape (N + 1,)."""
        n, s = params.shape[0] - 1, params[-1]
        return jnp.concatenate([jnp.full((n,), 1.0 / s), jnp.array([0.5 * n / s**2])])

    def symmetrised_kl(self, params1: jax.Array, params2: jax.Array) -> jax.Array:
        """``KL(1||2) + KL(2||1)`` between ``prod_n N(mu1_n, s1)`` and ``prod_n N(mu2_n, s2)``."""
        n = params1.shape[0] - 1
        mu1, s1, mu2, s2 = params1[:-1], params1[-1], params2[:-1], params2[-1]
        r = mu1 - mu2
        return 0.5 * (n * (s1 / s2 + s2 / s1) - 2.0 * n + jnp.dot(r, r) * (1.0 / s1 + 1.0 / s2))

    def pullback_fisher(self, params: jax.Array, jac: jax.Array) -> jax.Array:
        """``J^T diag(I(p)) J`` for ``J = d p / d theta`` of shape (N + 1, D)."""
        info = self.fisher_information(params)
        return jac.T @ (info[:, None] * jac)
