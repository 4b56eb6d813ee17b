"""Gradient of the SAM topic log posterior by Fisher's identity with the inner simplex sampler.

``grad_beta log p(beta | v) = grad log p(beta) + sum_d E_{theta_d | beta, v_d}[grad_beta log p(v_d | beta, theta_d)]``

(Liu & Zhu (2018), Sec. 5.2, adopting the estimate of Liu, Zhu & Song (2016); the authors'
``SAM_RSVGD::GradU_beta``, whose potential-energy sign is flipped here). The expectation is the
average over the kept inner samples of :mod:`geobayes.sam.topic_proportions`.

The sum over documents is assembled with matrix products instead of one ``(n, P)`` outer
product per document and sample: with ``b = beta theta``, ``|b| = sqrt(theta^T G theta)`` and
``b^T v_d = c_d^T theta`` (``G = beta^T beta``, ``c_d = beta^T v_d``),

``sum_d mean_s kappa1 [v_d / |b| - b (b^T v_d) / |b|^3] theta^T = kappa1 (V^T W - beta M)``,

``W_d = mean_s theta_s / |b_s|`` (D, P) and ``M = sum_d mean_s (c_d^T theta_s) / |b_s|^3 theta_s theta_s^T`` (P, P).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp

from geobayes.sam.prior import grad_log_prior
from geobayes.sam.settings import SamSettings
from geobayes.sam.topic_proportions import sample_topic_proportions

__all__ = ["SamGradient", "log_posterior_gradient"]


class SamGradient(NamedTuple):
    """Result of :func:`log_posterior_gradient`.

    Attributes
    ----------
    gradient : jax.Array
        ``(n, P)`` Euclidean gradient of ``log p(beta | v)`` (not projected on the tangent spaces).
    acceptance_rate : jax.Array
        Scalar mean acceptance rate of the inner sampler over the documents used.
    n_nonfinite : jax.Array
        Scalar number of inner proposals rejected for a non-finite energy.
    """

    gradient: jax.Array
    acceptance_rate: jax.Array
    n_nonfinite: jax.Array


@functools.partial(jax.jit, static_argnames=("settings",))
def _gradient(key, beta, documents, corpus_mean, settings: SamSettings, scale):
    gram = beta.T @ beta
    projections = documents @ beta  # (D, P) rows beta^T v_d
    draws = sample_topic_proportions(key, gram, projections, settings)
    theta = draws.samples  # (D, S, P)
    norm_sq = jnp.einsum("dsp,pq,dsq->ds", theta, gram, theta)
    norm = jnp.sqrt(norm_sq)
    inner = jnp.einsum("dp,dsp->ds", projections, theta)  # b^T v_d
    weights = jnp.mean(theta / norm[..., None], axis=1)  # (D, P)
    coefficient = inner / (norm_sq * norm)  # (D, S)
    moment = jnp.einsum("ds,dsp,dsq->pq", coefficient, theta, theta) / theta.shape[1]
    likelihood = settings.kappa1 * (documents.T @ weights - beta @ moment)
    prior = grad_log_prior(beta, corpus_mean, settings.sigma, settings.kappa0)
    return SamGradient(
        gradient=prior + scale * likelihood,
        acceptance_rate=jnp.mean(draws.acceptance_rate),
        n_nonfinite=jnp.sum(draws.n_nonfinite),
    )


def log_posterior_gradient(key, beta, documents, corpus_mean, settings: SamSettings, batch=None) -> SamGradient:
    """Estimate ``grad_beta log p(beta | v)`` of the SAM by Fisher's identity.

    Parameters
    ----------
    key : jax.Array
        PRNG key of the inner sampler.
    beta : array_like
        ``(n, P)`` topics with unit-norm columns (one particle; ``jax.vmap`` over particles and
        keys for several).
    documents : array_like
        ``(D, n)`` unit-norm training tf-idf vectors.
    corpus_mean : array_like
        ``(n,)`` prior mean direction ``m`` (:func:`geobayes.sam.prior.corpus_mean_direction`
        of the full training set).
    settings : SamSettings
        Model and inner-sampler hyperparameters.
    batch : array_like of int, optional
        Indices of a mini-batch of documents; the likelihood sum is then taken over the batch
        and scaled by ``D / |batch|`` (SGGMCb, Liu & Zhu (2018), Sec. 5.2). Default: all.

    Returns
    -------
    SamGradient
        Euclidean ``(n, P)`` gradient (the caller projects it onto the tangent spaces), the
        inner acceptance rate and the count of non-finite inner proposals.

    Notes
    -----
    Liu & Zhu (2018), Sec. 5.2 (Fisher's identity as in ``SAM_RSVGD::GradU_beta``); cost
    ``O(D n P)`` for ``beta^T v_d`` and the assembly, plus ``O(D (B+N) L P^2)`` for the sampler.
    """
    beta = jnp.asarray(beta, jnp.float64)
    documents = jnp.asarray(documents, jnp.float64)
    if beta.ndim != 2 or beta.shape[1] != settings.n_topics:
        raise ValueError(f"log_posterior_gradient: beta must be (n, {settings.n_topics}), got {beta.shape}")
    if documents.ndim != 2 or documents.shape[1] != beta.shape[0]:
        raise ValueError(f"log_posterior_gradient: documents must be (D, {beta.shape[0]}), got {documents.shape}")
    n_documents = documents.shape[0]
    scale = 1.0
    if batch is not None:
        batch = jnp.asarray(batch)
        if batch.ndim != 1 or batch.shape[0] == 0 or not jnp.issubdtype(batch.dtype, jnp.integer):
            raise ValueError(f"log_posterior_gradient: batch must be a non-empty 1-D integer index array, got shape {batch.shape} dtype {batch.dtype}")
        documents = documents[batch]
        scale = n_documents / batch.shape[0]
    return _gradient(key, beta, documents, jnp.asarray(corpus_mean, jnp.float64), settings, jnp.asarray(scale, jnp.float64))
