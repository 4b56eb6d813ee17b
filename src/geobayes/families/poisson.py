"""Poisson family in its natural (log-rate) parameter."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.scipy.special import gammaln

from geobayes.families.exponential_family import ExponentialFamily


class Poisson(ExponentialFamily):
    """``y ~ Poisson(exp(eta))`` in the natural parameter ``eta`` (log link, canonical).

    ``A(eta) = sum_n exp(eta_n)``, ``nabla A = exp(eta)``, ``nabla^2 A = diag(exp(eta))``,
    ``B(y) = -log y!`` (Hartmann et al. 2026, Sec. 5.1; notes Sec. 1.6).
    """

    def log_partition(self, eta: jax.Array) -> jax.Array:
        """``A(eta) = sum_n exp(eta_n)``, shape ()."""
        return jnp.sum(jnp.exp(eta))

    def mean(self, eta: jax.Array) -> jax.Array:
        """``grad A = exp(eta)``, shape (N,)."""
        return jnp.exp(eta)

    def log_likelihood_terms(self, y: jax.Array, eta: jax.Array) -> jax.Array:
        """Per-observation ``y_n eta_n - exp(eta_n) - log y_n!``, shape (N,).

        Parameters
        ----------
        y
            Counts (non-negative integers stored as floats), shape (N,).
        eta
            Log rates, shape (N,).
        """
        return y * eta - jnp.exp(eta) - gammaln(y + 1.0)

    def fisher_information(self, eta: jax.Array) -> jax.Array:
        """Per-observation Fisher information ``exp(eta)``, shape (N,)."""
        return jnp.exp(eta)
