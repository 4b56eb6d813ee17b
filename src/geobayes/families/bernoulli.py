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

    def log_likelihood(self, y: jax.Array, eta: jax.Array) -> jax.Array:
        """Sum over observations of ``y eta - log(1 + exp(eta))``.

        Parameters
        ----------
        y
            Labels in {0, 1}, shape (N,).
        eta
            Natural parameters (logits), shape (N,).
        """
        return jnp.sum(y * eta - jax.nn.softplus(eta))

    def fisher_information(self, eta: jax.Array) -> jax.Array:
        """Per-observation Fisher information ``s (1 - s)`` in ``eta``, shape (N,)."""
        s = jax.nn.sigmoid(eta)
        return s * (1.0 - s)
