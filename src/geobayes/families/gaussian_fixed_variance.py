"""Gaussian family with known variance, parameterised by its mean."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.hyperparameter import positive_scalar, scalar_leaf


class GaussianFixedVariance(eqx.Module):
    """``y ~ N(mu, noise_variance)`` with the mean ``mu`` as parameter.

    Its Fisher information ``1 / noise_variance`` does not depend on ``mu``, so with a linear
    embedding and a Gaussian prior the Fisher metric is constant (Yu et al. 2024, Theorem 1).
    The symmetrised KL is ``|mu1 - mu2|^2 / noise_variance`` (Hartmann et al. 2026, Sec. 5.3).
    """

    #: A 0-d array (:mod:`geobayes.hyperparameter`): an argument of a compiled program, not a
    #: constant in it, so posteriors that differ only in it share executables.
    noise_variance: jax.Array = eqx.field(default=1.0, converter=scalar_leaf("noise_variance"))

    def __check_init__(self):
        positive_scalar(self.noise_variance, "noise_variance")

    def log_likelihood(self, y: jax.Array, mu: jax.Array) -> jax.Array:
        """Sum over observations of the Gaussian log density, shape ()."""
        r = y - mu
        return -0.5 * jnp.sum(r * r) / self.noise_variance - 0.5 * y.shape[0] * jnp.log(
            2.0 * jnp.pi * self.noise_variance
        )

    def log_likelihood_terms(self, y: jax.Array, mu: jax.Array) -> jax.Array:
        """Per-observation Gaussian log densities ``log N(y_n | mu_n, noise_variance)``, shape (N,).

        Their sum equals :meth:`log_likelihood` up to rounding (that one sums the squared
        residuals first, and is kept as it was).
        """
        r = y - mu
        return -0.5 * r * r / self.noise_variance - 0.5 * jnp.log(
            2.0 * jnp.pi * self.noise_variance
        )

    def fisher_information(self, mu: jax.Array) -> jax.Array:
        """Per-observation Fisher information ``1 / noise_variance``, shape (N,)."""
        return jnp.full(mu.shape, 1.0 / self.noise_variance)

    def symmetrised_kl(self, mu1: jax.Array, mu2: jax.Array) -> jax.Array:
        """``KL(1||2) + KL(2||1) = |mu1 - mu2|^2 / noise_variance``."""
        r = mu1 - mu2
        return jnp.sum(r * r) / self.noise_variance

    def pullback_fisher(self, mu: jax.Array, jac: jax.Array) -> jax.Array:
        """``J^T J / noise_variance`` for ``J = d mu / d theta`` of shape (N, D)."""
        return jac.T @ jac / self.noise_variance
