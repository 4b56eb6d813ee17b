"""SAM document likelihood ``v_d ~ vMF(beta theta_d / |beta theta_d|, kappa1)`` and its gradient in beta.

Reisinger et al. (2010); Liu & Zhu (2018), Sec. 5.2; the likelihood term of the authors'
``SAM_RSVGD::GradU_beta`` (sign flipped: a log density, not a potential).
"""

from __future__ import annotations

import jax.numpy as jnp

from geobayes.special.log_bessel import log_vmf_normalizer

__all__ = ["log_likelihood", "grad_log_likelihood"]


def log_likelihood(beta, theta, document, kappa1: float):
    """``log p(v_d | beta, theta_d) = log C_n(kappa1) + kappa1 v_d^T beta theta_d / |beta theta_d|``.

    Parameters
    ----------
    beta : array_like
        ``(n, P)`` topics.
    theta : array_like
        ``(P,)`` topic proportions (on the simplex).
    document : array_like
        ``(n,)`` unit-norm tf-idf vector ``v_d``.
    kappa1 : float
        Document concentration.

    Returns
    -------
    jax.Array
        Scalar log density (Liu & Zhu (2018), Sec. 5.2).
    """
    beta = jnp.asarray(beta, jnp.float64)
    b = beta @ theta
    return log_vmf_normalizer(beta.shape[0], kappa1) + kappa1 * (document @ b) / jnp.linalg.norm(b)


def grad_log_likelihood(beta, theta, document, kappa1: float):
    """Euclidean gradient of :func:`log_likelihood` with respect to ``beta``.

    ``kappa1 [v_d / |b_d| - b_d (b_d^T v_d) / |b_d|^3] theta_d^T`` with ``b_d = beta theta_d``.

    Parameters
    ----------
    beta : array_like
        ``(n, P)`` topics.
    theta : array_like
        ``(P,)`` topic proportions.
    document : array_like
        ``(n,)`` unit-norm tf-idf vector.
    kappa1 : float
        Document concentration.

    Returns
    -------
    jax.Array
        ``(n, P)`` (Liu & Zhu (2018), Sec. 5.2; ``GradU_beta`` of the code).
    """
    beta = jnp.asarray(beta, jnp.float64)
    b = beta @ theta
    norm = jnp.linalg.norm(b)
    direction = document / norm - b * ((b @ document) / norm**3)
    return kappa1 * jnp.outer(direction, theta)
