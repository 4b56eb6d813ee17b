"""Shared closed forms of the likelihood families with one scalar natural parameter per datum."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp


class ExponentialFamily(eqx.Module):
    """``p(y_n | eta_n) = exp(eta_n y_n + B(y_n) - A(eta_n))``, independent over ``n``.

    Subclasses give :meth:`log_partition`, :meth:`mean` and :meth:`fisher_information` (the
    diagonal of ``nabla^2 A``) and :meth:`log_likelihood_terms`. From these follow the pieces the
    closed-form wrapped Gaussian needs (Hartmann et al. 2026, Appendix B, proof of Corollary 1):

    ``KL(eta1 || eta2) = (eta1 - eta2)^T nabla A(eta1) - (A(eta1) - A(eta2))``

    and its symmetrisation ``KL(1||2) + KL(2||1) = (eta1 - eta2)^T (nabla A(eta1) - nabla A(eta2))``.
    """

    def log_partition(self, eta: jax.Array) -> jax.Array:
        """``A(eta)`` summed over observations, shape ()."""
        raise NotImplementedError

    def mean(self, eta: jax.Array) -> jax.Array:
        """``nabla A(eta) = E[y]``, shape (N,)."""
        raise NotImplementedError

    def fisher_information(self, eta: jax.Array) -> jax.Array:
        """Per-observation Fisher information ``nabla^2 A`` (diagonal), shape (N,)."""
        raise NotImplementedError

    def log_likelihood_terms(self, y: jax.Array, eta: jax.Array) -> jax.Array:
        """Per-observation log densities, shape (N,)."""
        raise NotImplementedError

    def log_likelihood(self, y: jax.Array, eta: jax.Array) -> jax.Array:
        """Sum over observations of :meth:`log_likelihood_terms`, shape ()."""
        return jnp.sum(self.log_likelihood_terms(y, eta))

    def kl(self, eta1: jax.Array, eta2: jax.Array) -> jax.Array:
        """``KL(p_eta1 || p_eta2)`` summed over observations (Hartmann et al. 2026, App. B)."""
        return jnp.sum((eta1 - eta2) * self.mean(eta1)) - (
            self.log_partition(eta1) - self.log_partition(eta2)
        )

    def symmetrised_kl(self, eta1: jax.Array, eta2: jax.Array) -> jax.Array:
        """``KL(1||2) + KL(2||1) = (eta1 - eta2)^T (mu(eta1) - mu(eta2))`` (the contrast of
        Hartmann et al. 2026, Eq. (11), without the prior's Bregman terms)."""
        return jnp.sum((eta1 - eta2) * (self.mean(eta1) - self.mean(eta2)))

    def pullback_fisher(self, eta: jax.Array, jac: jax.Array) -> jax.Array:
        """``J^T diag(I(eta)) J`` for ``J = d eta / d theta`` of shape (N, D): the Fisher
        information in ``theta`` (Hartmann et al. 2026, Sec. 4: ``I_Theta = Dh^T I_Xi Dh``)."""
        info = self.fisher_information(eta)
        return jac.T @ (info[:, None] * jac)
