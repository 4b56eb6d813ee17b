"""Categorical (one-trial multinomial) family with a reference class."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp


class Categorical(eqx.Module):
    """``y_n ~ Categorical(softmax(eta_n1, ..., eta_n(C-1), 0))``: class ``C`` is the reference.

    Natural parameters ``eta`` of shape (N, C-1); the reference class has ``eta_nC = 0``, which
    makes the parametrisation identifiable (Hartmann et al. 2026, Sec. 5.2; it differs from
    Rasmussen & Williams, Sec. 3.5, who keep a redundant latent for class ``C``). Labels are
    class indices ``0 .. C-1``; index ``C-1`` is the reference class.

    ``A(eta) = sum_n log(1 + sum_c exp(eta_nc))``, ``nabla A = p_n`` (the first ``C-1`` class
    probabilities), ``nabla^2 A = diag(p_n) - p_n p_n^T`` per observation (notes Sec. 1.6).
    """

    def probabilities(self, eta: jax.Array) -> jax.Array:
        """Probabilities of the non-reference classes, shape (N, C-1)."""
        full = jnp.concatenate([eta, jnp.zeros(eta.shape[:-1] + (1,), eta.dtype)], axis=-1)
        return jax.nn.softmax(full, axis=-1)[..., :-1]

    def log_partition(self, eta: jax.Array) -> jax.Array:
        """``A(eta) = sum_n log(1 + sum_c exp(eta_nc))``, shape ()."""
        full = jnp.concatenate([eta, jnp.zeros(eta.shape[:-1] + (1,), eta.dtype)], axis=-1)
        return jnp.sum(jax.nn.logsumexp(full, axis=-1))

    def mean(self, eta: jax.Array) -> jax.Array:
        """``nabla A(eta)``: the non-reference class probabilities, shape (N, C-1)."""
        return self.probabilities(eta)

    def log_likelihood_terms(self, y: jax.Array, eta: jax.Array) -> jax.Array:
        """Per-observation ``log p(y_n | eta_n)``, shape (N,).

        Parameters
        ----------
        y
            Class indices in ``0 .. C-1`` (floats or ints), shape (N,).
        eta
            Natural parameters, shape (N, C-1).
        """
        full = jnp.concatenate([eta, jnp.zeros(eta.shape[:-1] + (1,), eta.dtype)], axis=-1)
        log_p = jax.nn.log_softmax(full, axis=-1)
        index = jnp.asarray(y).astype(jnp.int32)
        return jnp.take_along_axis(log_p, index[:, None], axis=-1)[:, 0]

    def log_likelihood(self, y: jax.Array, eta: jax.Array) -> jax.Array:
        """Sum over observations of :meth:`log_likelihood_terms`, shape ()."""
        return jnp.sum(self.log_likelihood_terms(y, eta))

    def fisher_information(self, eta: jax.Array) -> jax.Array:
        """Per-observation Fisher information ``diag(p_n) - p_n p_n^T``, shape (N, C-1, C-1)."""
        p = self.probabilities(eta)
        return jax.vmap(jnp.diag)(p) - p[:, :, None] * p[:, None, :]

    def symmetrised_kl(self, eta1: jax.Array, eta2: jax.Array) -> jax.Array:
        """``KL(1||2) + KL(2||1) = <eta1 - eta2, p(eta1) - p(eta2)>`` (Hartmann et al. 2026,
        App. B, for any exponential family with ``T(y)`` the class indicators)."""
        return jnp.sum((eta1 - eta2) * (self.mean(eta1) - self.mean(eta2)))

    def pullback_fisher(self, eta: jax.Array, jac: jax.Array) -> jax.Array:
        """``sum_n J_n^T I_n J_n`` for ``J = d eta / d theta`` of shape (N, C-1, D)."""
        info = self.fisher_information(eta)
        return jnp.einsum("nad,nab,nbe->de", jac, info, jac)
