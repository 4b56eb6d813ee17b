"""The closed-form approximate logarithmic map of Hartmann et al. (2026), Eqs. (12) and (15)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl


class ApproximateLogMap(eqx.Module):
    """``Log_{theta*}(theta) = -1/2 G^{-1} grad_{theta1} D_post(theta1 || theta)|_{theta*}``.

    Hartmann et al. (2026), Theorem 2 / Eq. (12), with the contrast ``D_post`` = symmetrised KL
    of the likelihood family + symmetrised Bregman divergence of ``-log prior`` (Eq. (11)) and
    ``G = I_Theta(theta*) + Sigma_pi^{-1}``. For a Gaussian prior it is evaluated in the form of
    Eq. (15), which never inverts ``Sigma_pi`` (latent-GP kernels are near-singular):

    ``Log(theta) = -1/2 (Sigma_pi I_Theta + I)^{-1} (Sigma_pi g(theta) + 2 (theta* - theta))``,

    ``g(theta) = Dh(theta*)^T grad_{p1} KLsym(h(theta*), h(theta))``. For a flat prior
    (``Sigma_pi = diag(inf)``) it is Eq. (12) with ``G = I_Theta``: ``-1/2 I_Theta^{-1} g``.
    ``I_Theta = Dh^T I(h) Dh`` is the family's Fisher information pulled back by the embedding.
    Everything at the base point (``Dh``, ``h(theta*)``, the LU factors) is computed once.

    Parameters
    ----------
    target
        Anything with ``family``, ``embed`` and ``prior_covariance()`` (a
        :class:`~geobayes.posterior.Posterior` or a closed-form Gaussian-image target).
    base
        Base point ``theta*`` (the MAP; 0 for Neal's funnel), shape (D,).
    """

    target: eqx.Module
    base: jax.Array
    base_params: jax.Array
    embedding_jacobian: jax.Array
    prior_covariance: jax.Array | None
    lu: jax.Array
    pivots: jax.Array

    def __init__(self, target, base: jax.Array):
        base = jnp.asarray(base, dtype=jnp.float64)
        self.target = target
        self.base = base
        self.base_params = target.embed(base)
        self.embedding_jacobian = jax.jacfwd(target.embed)(base)
        fisher = target.family.pullback_fisher(self.base_params, self.embedding_jacobian)
        fisher = 0.5 * (fisher + fisher.T)
        covariance = target.prior_covariance()
        self.prior_covariance = None if covariance is None else jnp.asarray(covariance)
        if self.prior_covariance is None:
            matrix = fisher
        else:
            matrix = self.prior_covariance @ fisher + jnp.eye(base.shape[0])
        self.lu, self.pivots = jsl.lu_factor(matrix)

    def contrast_gradient(self, theta: jax.Array) -> jax.Array:
        """``g(theta) = grad_{theta1} KLsym(h(theta1), h(theta))`` at ``theta1 = theta*``, shape (D,)."""
        params = self.target.embed(theta)
        family = self.target.family
        grad_params = jax.grad(lambda p1: family.symmetrised_kl(p1, params))(self.base_params)
        return jnp.tensordot(grad_params, self.embedding_jacobian, axes=grad_params.ndim)

    def __call__(self, theta: jax.Array) -> jax.Array:
        """``Log_{theta*}(theta)``, shape (D,) (Eq. (15); Eq. (12) for a flat prior)."""
        g = self.contrast_gradient(theta)
        if self.prior_covariance is None:
            rhs = g
        else:
            rhs = self.prior_covariance @ g + 2.0 * (self.base - theta)
        return -0.5 * jsl.lu_solve((self.lu, self.pivots), rhs)

    def jacobian(self, theta: jax.Array) -> jax.Array:
        """``D Log(theta)`` by forward-mode autodiff, shape (D, D)."""
        return jax.jacfwd(self.__call__)(theta)

    def log_abs_det_jacobian(self, theta: jax.Array) -> jax.Array:
        """``log |det D Log(theta)|`` (the density correction of Eq. (9) / (13))."""
        return jnp.linalg.slogdet(self.jacobian(theta))[1]
