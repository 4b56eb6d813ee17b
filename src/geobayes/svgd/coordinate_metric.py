"""Metric quantities at one point that coordinate-space RSVGD needs (Liu & Zhu 2018, Eq. (6), App. A7).

For a metric tensor field ``G(x)`` in a global chart: ``G^{-1}``, ``grad log|G|`` and the
divergence-of-inverse-metric vector ``d_b = sum_a d_a (G^{-1})_{ab}``. The general version
differentiates ``G`` with JAX; the Bayesian-logistic-regression version is the paper's closed
form (App. A7; notes Sec. 1.4 "BLR quantities").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax.scipy.linalg import cho_factor, cho_solve

__all__ = ["MetricQuantities", "blr_metric", "blr_metric_quantities", "metric_quantities"]


class MetricQuantities(NamedTuple):
    """The metric quantities of Eq. (6) at one point (or stacked over particles).

    Attributes
    ----------
    inverse
        ``G^{-1}``, shape (m, m) (or (N, m, m)).
    grad_logdet
        ``grad log|G|``, shape (m,) (or (N, m)).
    divergence
        ``d_b = sum_a d_a (G^{-1})_{ab}``, shape (m,) (or (N, m)); the ``d_a g^{ab}`` term of
        Eq. (6).
    """

    inverse: jnp.ndarray
    grad_logdet: jnp.ndarray
    divergence: jnp.ndarray


def metric_quantities(metric_fn: Callable[[jnp.ndarray], jnp.ndarray], x: jnp.ndarray) -> MetricQuantities:
    """``G^{-1}``, ``grad log|G|`` and ``sum_a d_a (G^{-1})_{ab}`` at ``x`` by autodiff.

    Liu & Zhu (2018), Eq. (6). With ``dG_a = d_a G`` (forward-mode Jacobian of ``metric_fn``):
    ``d_a log|G| = tr(G^{-1} dG_a)`` and ``d_a G^{-1} = -G^{-1} dG_a G^{-1}``, so
    ``d_b = -sum_a (G^{-1} dG_a G^{-1})_{ab}``. ``G^{-1}`` comes from a Cholesky solve.

    Parameters
    ----------
    metric_fn
        ``x (m,) -> G(x) (m, m)``, symmetric positive definite.
    x
        The point, shape (m,).
    """
    g = metric_fn(x)
    factor = cho_factor(g, lower=True)
    inverse = cho_solve(factor, jnp.eye(g.shape[0], dtype=g.dtype))
    inverse = 0.5 * (inverse + inverse.T)
    dg = jax.jacfwd(metric_fn)(x)  # dg[i, j, a] = d_a G_ij
    grad_logdet = jnp.einsum("ij,jia->a", inverse, dg)
    divergence = -jnp.einsum("ai,ija,jb->b", inverse, dg, inverse)
    return MetricQuantities(inverse, grad_logdet, divergence)


def blr_metric(w: jnp.ndarray, features: jnp.ndarray, prior_variance: float) -> jnp.ndarray:
    """Fisher metric of Bayesian logistic regression plus the prior's negative Hessian.

    Liu & Zhu (2018), App. A7: ``G(w) = sum_d c_d x_d x_d^T + I / alpha`` with
    ``c_d = s(w^T x_d) (1 - s(w^T x_d))`` and prior ``w ~ N(0, alpha I)`` (``alpha`` a variance).

    Parameters
    ----------
    w
        Weights, shape (m,).
    features
        Design matrix ``X`` with rows ``x_d``, shape (D, m).
    prior_variance
        ``alpha``.
    """
    u = features @ w
    c = jax.nn.sigmoid(u) * jax.nn.sigmoid(-u)
    m = w.shape[0]
    return (features.T * c) @ features + jnp.eye(m, dtype=features.dtype) / prior_variance


def blr_metric_quantities(w: jnp.ndarray, features: jnp.ndarray, prior_variance: float) -> MetricQuantities:
    """Closed-form :class:`MetricQuantities` of :func:`blr_metric` (Liu & Zhu 2018, App. A7).

    ``grad log|G| = sum_d f_d (x_d^T G^{-1} x_d) x_d`` with
    ``f_d = (1 - e^{u_d}) / (1 + e^{u_d}) c_d = (1 - 2 s(u_d)) c_d``, ``u_d = w^T x_d``
    (from ``d_i G = sum_d f_d x_di x_d x_d^T``), and divergence ``= -G^{-1} grad log|G|``
    (App. A7, "sum_j d_j G^{-1}_ij"). ``G^{-1}`` by a Cholesky solve (the paper: "direct
    inversion is still more efficient" than Sherman-Morrison).

    Parameters
    ----------
    w
        Weights, shape (m,).
    features
        Design matrix, shape (D, m).
    prior_variance
        ``alpha`` (prior variance).
    """
    u = features @ w
    s = jax.nn.sigmoid(u)
    c = s * jax.nn.sigmoid(-u)
    f = (1.0 - 2.0 * s) * c
    m = w.shape[0]
    g = (features.T * c) @ features + jnp.eye(m, dtype=features.dtype) / prior_variance
    factor = cho_factor(g, lower=True)
    inverse = cho_solve(factor, jnp.eye(m, dtype=g.dtype))
    inverse = 0.5 * (inverse + inverse.T)
    quad = jnp.sum(features * (features @ inverse), axis=1)  # x_d^T G^{-1} x_d, shape (D,)
    grad_logdet = features.T @ (f * quad)
    divergence = -inverse @ grad_logdet
    return MetricQuantities(inverse, grad_logdet, divergence)
