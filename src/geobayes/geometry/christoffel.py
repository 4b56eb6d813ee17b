"""Generic Christoffel contraction of any metric tensor, by autodiff."""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp


def christoffel_contraction(
    metric_fn: Callable[[jax.Array], jax.Array], theta: jax.Array, v: jax.Array
) -> jax.Array:
    """``Gamma^k_ij v^i v^j`` of the Levi-Civita connection of ``metric_fn``.

    With ``Gamma^k_ij = 1/2 G^kl (d_i G_jl + d_j G_il - d_l G_ij)`` (Yu et al. 2024, Sec. 2;
    Supp. 13), contracting with ``v`` twice gives

    ``Gamma(v, v) = G^{-1} [ (d_v G) v - 1/2 grad_theta (v^T G(theta) v) ]``

    where ``d_v G = sum_i v^i d_i G`` is one Jacobian-vector product and the second term one
    gradient, instead of the full ``D x D x D`` derivative tensor of the paper's routine.

    Parameters
    ----------
    metric_fn
        ``theta -> G(theta)``, symmetric positive definite (D, D).
    theta, v
        Position and velocity, shape (D,).

    Returns
    -------
    jax.Array
        The contraction, shape (D,). The geodesic acceleration is its negative (Eq. (1)).
    """
    g, dg_v = jax.jvp(metric_fn, (theta,), (v,))
    quadratic_form_grad = jax.grad(lambda th: v @ metric_fn(th) @ v)(theta)
    return jnp.linalg.solve(g, dg_v @ v - 0.5 * quadratic_form_grad)
