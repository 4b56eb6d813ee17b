"""SAM prior on the topics with the corpus mean integrated out, and its Euclidean gradient.

Model (Reisinger et al. (2010); Liu & Zhu (2018), Sec. 5.2): ``mu ~ vMF(m, kappa0)`` and
``beta_k ~ vMF(mu, sigma)`` for ``k = 1..P`` on ``S^{n-1}``. Integrating ``mu`` out,

``p(beta) = C_n(kappa0) C_n(sigma)^P int exp(mu^T m_bar) dmu = C_n(kappa0) C_n(sigma)^P / C_n(|m_bar|)``,

with ``m_bar = kappa0 m + sigma sum_k beta_k``. The gradient of ``log p`` with respect to each
column is ``sigma A_n(|m_bar|) m_bar / |m_bar|`` with ``A_n = I_{n/2} / I_{n/2-1}``
(``-d/dkappa log C_n = A_n``); this is the prior term of ``SAM_RSVGD::GradU_beta`` in the
authors' code, with the sign of a log density instead of a potential.
"""

from __future__ import annotations

import jax.numpy as jnp

from geobayes.special.log_bessel import log_vmf_normalizer, vmf_mean_resultant

__all__ = ["corpus_mean_direction", "log_prior", "grad_log_prior"]


def corpus_mean_direction(documents):
    """The prior mean direction ``m``: the L2-normalised sum of the training vectors.

    Parameters
    ----------
    documents : array_like
        ``(D, n)`` unit-norm document vectors.

    Returns
    -------
    jax.Array
        ``(n,)`` unit vector (``M`` in ``SAM_Base``; Liu & Zhu (2018), Sec. 5.2).
    """
    total = jnp.sum(jnp.asarray(documents, jnp.float64), axis=0)
    return total / jnp.linalg.norm(total)


def _m_bar(beta, corpus_mean, sigma, kappa0):
    return kappa0 * corpus_mean + sigma * jnp.sum(beta, axis=1)


def log_prior(beta, corpus_mean, sigma: float, kappa0: float):
    """``log p(beta)`` of the SAM with the corpus mean ``mu`` integrated out.

    Parameters
    ----------
    beta : array_like
        ``(n, P)`` topics, unit-norm columns.
    corpus_mean : array_like
        ``(n,)`` unit vector ``m``.
    sigma, kappa0 : float
        Topic and corpus-mean concentrations.

    Returns
    -------
    jax.Array
        Scalar ``log C_n(kappa0) + P log C_n(sigma) - log C_n(|m_bar|)``,
        ``m_bar = kappa0 m + sigma sum_k beta_k`` (Liu & Zhu (2018), Sec. 5.2; the code's
        ``U_beta`` prior term ``LogVmfC(V, |MBar|)`` up to the constant).

    Notes
    -----
    Differentiated as a function on ``R^{n x P}``; only its tangential part is meaningful.
    """
    beta = jnp.asarray(beta, jnp.float64)
    n, p = beta.shape
    radius = jnp.linalg.norm(_m_bar(beta, corpus_mean, sigma, kappa0))
    return (log_vmf_normalizer(n, kappa0) + p * log_vmf_normalizer(n, sigma)
            - log_vmf_normalizer(n, radius))


def grad_log_prior(beta, corpus_mean, sigma: float, kappa0: float):
    """Euclidean gradient of :func:`log_prior`: ``sigma A_n(|m_bar|) m_bar / |m_bar|`` in every column.

    Parameters
    ----------
    beta : array_like
        ``(n, P)`` topics, unit-norm columns.
    corpus_mean : array_like
        ``(n,)`` unit vector ``m``.
    sigma, kappa0 : float
        Topic and corpus-mean concentrations.

    Returns
    -------
    jax.Array
        ``(n, P)``; all columns equal (Liu & Zhu (2018), Sec. 5.2, with
        ``A_n = I_{n/2} / I_{n/2-1}``).
    """
    beta = jnp.asarray(beta, jnp.float64)
    n, p = beta.shape
    m_bar = _m_bar(beta, corpus_mean, sigma, kappa0)
    radius = jnp.linalg.norm(m_bar)
    column = sigma * vmf_mean_resultant(n, radius) * m_bar / radius
    return jnp.broadcast_to(column[:, None], (n, p))
