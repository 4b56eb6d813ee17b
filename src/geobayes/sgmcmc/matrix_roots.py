"""Inverse p-th roots of symmetric positive semi-definite matrices, as Shampoo needs them.

Yu et al. (2023), Sec. 3.2 compute ``[H]^{-1/(4d)}`` numerically and square it. The official
code (adapted from google-research ``scalable_shampoo/pytorch``, ``ComputePower``) adds the
ridge ``eps * lambda_max(H) I`` and runs the coupled Newton iteration of Guo & Higham
(2006) for at most 100 iterations to tolerance 1e-6, stopping early if the error grows by
more than a factor 1.2. ``lambda_max`` comes from a randomly started power iteration there;
here it is the exact largest eigenvalue (``eigvalsh``), which is deterministic and cheap for
blocks of at most ``block_size`` (128) rows. A 1x1 matrix gets the root 1, as in the code.
"""

from __future__ import annotations

import enum

import jax
import jax.numpy as jnp

__all__ = ["RootMethod", "inverse_root", "inverse_root_eigh", "inverse_root_newton"]


class RootMethod(str, enum.Enum):
    """How Shampoo computes ``(H + ridge I)^(-1/p)``."""

    NEWTON = "newton"
    """Coupled Newton iteration (Guo & Higham 2006), as the official code."""
    EIGH = "eigh"
    """Symmetric eigendecomposition ``V diag(w^(-1/p)) V^T``."""


def _ridged(matrix: jax.Array, eps: float) -> jax.Array:
    largest = jnp.linalg.eigvalsh(matrix)[-1]
    return matrix + eps * largest * jnp.eye(matrix.shape[0], dtype=matrix.dtype)


def inverse_root_eigh(matrix: jax.Array, p: int, eps: float) -> jax.Array:
    """``(H + eps lambda_max(H) I)^(-1/p)`` by eigendecomposition."""
    if matrix.shape[0] == 1:
        return jnp.ones_like(matrix)
    ridged = _ridged(matrix, eps)
    values, vectors = jnp.linalg.eigh(ridged)
    return (vectors * values ** (-1.0 / p)) @ vectors.T


def inverse_root_newton(matrix: jax.Array, p: int, eps: float, *, max_iterations: int = 100,
                        tolerance: float = 1e-6) -> jax.Array:
    """``(H + eps lambda_max(H) I)^(-1/p)`` by the coupled Newton iteration (Guo & Higham 2006).

    With ``z = (1 + p) / (2 ||A||_F)``, ``X_0 = z^{1/p} I``, ``M_0 = z A``, iterate
    ``T = (1 - alpha) I + alpha M`` (``alpha = -1/p``), ``X <- X T``, ``M <- T^p M`` until
    ``max|M - I| <= tolerance``, ``max_iterations`` is reached, or the error would grow
    more than 1.2-fold (that last iterate is discarded), as ``ComputePower`` does.
    """
    n = matrix.shape[0]
    if n == 1:
        return jnp.ones_like(matrix)
    identity = jnp.eye(n, dtype=matrix.dtype)
    ridged = _ridged(matrix, eps)
    alpha = -1.0 / p
    z = (1.0 + p) / (2.0 * jnp.linalg.norm(ridged))
    root0 = identity * z ** (1.0 / p)
    m0 = ridged * z
    error0 = jnp.max(jnp.abs(m0 - identity))

    def cond(carry):
        count, error, _, _, stop = carry
        return (~stop) & (error > tolerance) & (count < max_iterations)

    def body(carry):
        count, error, root, m, _ = carry
        step = (1.0 - alpha) * identity + alpha * m
        new_root = root @ step
        new_m = jnp.linalg.matrix_power(step, p) @ m
        new_error = jnp.max(jnp.abs(new_m - identity))
        grew = new_error > 1.2 * error
        return (count + 1, jnp.where(grew, error, new_error), jnp.where(grew, root, new_root),
                jnp.where(grew, m, new_m), grew)

    carry = (jnp.asarray(0), error0, root0, m0, jnp.asarray(False))
    return jax.lax.while_loop(cond, body, carry)[2]


def inverse_root(matrix: jax.Array, p: int, eps: float, method: RootMethod) -> jax.Array:
    """``(H + eps lambda_max(H) I)^(-1/p)`` by ``method``."""
    if RootMethod(method) is RootMethod.NEWTON:
        return inverse_root_newton(matrix, p, eps)
    return inverse_root_eigh(matrix, p, eps)
