"""Bernoulli family in its natural (logit) parameter."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from geobayes.families.exponential_family import ExponentialFamily


class Bernoulli(ExponentialFamily):
    """Bernoulli likelihood ``y ~ Bernoulli(sigmoid(eta))`` in the natural parameter ``eta``.

    Log-partition ``A(eta) = sum_n log(1 + exp(eta_n))``, mean ``sigmoid(eta)``, Fisher
    information ``s (1 - s)`` with ``s = sigmoid(eta)``; it equals the observed information
    because the logit is the canonical link (Yu et al. 2024, Supp. 14.1; Hartmann et al. 2026,
    Sec. 5.1, table of closed forms in the notes Sec. 1.6).
    """

    def log_partition(self, eta: jax.Array) -> jax.Array:
        """``A(eta) = sum_n softplus(eta_n)``, shape ()."""
        return jnp.sum(jax.nn.softplus(eta))

    def mean(self, eta: jax.Array) -> jax.Array:
        """``grad A = sigmoid(eta)``, shape (N,)."""
        return jax.nn.sigmoid(eta)

    def log_likelihood_terms(self, y: jax.Array, eta: jax.Array) -> jax.Array:
        """Per-observation ``log p(y_n | eta_n) = y_n eta_n - log(1 + exp(eta_n))``, shape (N,).

        Parameters
        ----------
        y
            Labels in {0, 1}, shape (N,).
        eta
            Natural parameters (logits), shape (N,).
        """
        return y * eta - jax.nn.softplus(eta)

    def fisher_information(self, eta: jax.Array) -> jax.Array:
        """Per-observation Fisher information ``s (1 - s)`` in ``eta``, shape (N,)."""
        s = jax.nn.sigmoid(eta)
        return s * (1.0 - s)
