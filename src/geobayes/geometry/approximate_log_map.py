"""The closed-form approximate logarithmic map of Hartmann et al. (2026), Eqs. (12) and (15)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp


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
    Everything at the base point (``Dh``, ``h(theta*)``) is computed once, and so are the two
    matrices of the affine map ``g -> Log``: ``-1/2 A^{-1} Sigma_pi`` and ``A^{-1}`` with
    ``A = Sigma_pi I_Theta + I`` (``-1/2 I_Theta^{-1}`` for a flat prior), each by one solve with
    ``A``, so that an evaluation is two matrix-vector products after ``g`` instead of a product
    and two triangular solves: WG's inversions, which evaluate ``Log`` at every step, ran 1.13-1.29x
    faster so on Table 1's latent GPs (D = 100) and 1.05-1.14x on its regressions, in the same
    steps, their draws equal to the LU solves' to 3.1e-12
    (``benchmarks/results/wg_log_map_matrices.json``).

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
    gradient_matrix: jax.Array
    offset_matrix: jax.Array | None

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
            self.gradient_matrix = -0.5 * jnp.linalg.solve(fisher, jnp.eye(base.shape[0]))
            self.offset_matrix = None
        else:
            matrix = self.prior_covariance @ fisher + jnp.eye(base.shape[0])
            self.gradient_matrix = -0.5 * jnp.linalg.solve(matrix, self.prior_covariance)
            self.offset_matrix = jnp.linalg.solve(matrix, jnp.eye(base.shape[0]))

    def contrast_gradient(self, theta: jax.Array) -> jax.Array:
        """``g(theta) = grad_{theta1} KLsym(h(theta1), h(theta))`` at ``theta1 = theta*``, shape (D,)."""
        params = self.target.embed(theta)
        family = self.target.family
        grad_params = jax.grad(lambda p1: family.symmetrised_kl(p1, params))(self.base_params)
        return jnp.tensordot(grad_params, self.embedding_jacobian, axes=grad_params.ndim)

    def __call__(self, theta: jax.Array) -> jax.Array:
        """``Log_{theta*}(theta)``, shape (D,) (Eq. (15): ``-1/2 A^{-1} Sigma_pi g + A^{-1} (theta - theta*)``;
        Eq. (12) for a flat prior)."""
        g = self.contrast_gradient(theta)
        if self.offset_matrix is None:
            return self.gradient_matrix @ g
        return self.gradient_matrix @ g + self.offset_matrix @ (theta - self.base)

    def jacobian(self, theta: jax.Array) -> jax.Array:
        """``D Log(theta)`` by forward-mode autodiff, shape (D, D)."""
        return jax.jacfwd(self.__call__)(theta)

    def log_abs_det_jacobian(self, theta: jax.Array) -> jax.Array:
        """``log |det D Log(theta)|`` (the density correction of Eq. (9) / (13))."""
        return jnp.linalg.slogdet(self.jacobian(theta))[1]
