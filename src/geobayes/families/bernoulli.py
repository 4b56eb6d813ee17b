"""Bernoulli family in its natural (logit) parameter."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp


class Bernoulli(eqx.Module):
    """Bernoulli likelihood ``y ~ Bernoulli(sigmoid(eta))`` in the natural parameter ``eta``.

    The Fisher information in ``eta`` is ``s (1 - s)`` with ``s = sigmoid(eta)``; it equals the
    observed information because the logit is the canonical link (Yu et al. 2024, Supp. 14.1).
    """

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

    def log_likelihood(self, y: jax.Array, eta: jax.Array) -> jax.Array:
        """Sum over observations of :meth:`log_likelihood_terms`, shape ()."""
        return jnp.sum(self.log_likelihood_terms(y, eta))

    def fisher_information(self, eta: jax.Array) -> jax.Array:
        """Per-observation Fisher information ``s (1 - s)`` in ``eta``, shape (N,)."""
        s = jax.nn.sigmoid(eta)
        return s * (1.0 - s)
