"""Test log-perplexity of the SAM for a set of topic particles, as the authors' code computes it.

``log-perp = -(1/D_te) sum_d log[ (1/(N T)) sum_i sum_t C_n(kappa1) exp(kappa1 v_d^T beta_i theta_t / |beta_i theta_t|) ]``

with ``theta_t ~ Dir(alpha)``, ``T = 200`` draws shared across documents and particles
(Liu & Zhu (2018), Sec. 5.2 / Fig. 2; ``SAM_Eval::EvalPerp_LiteBayesianLog``, ``ts_thN=200``).
Lower is better.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from geobayes.special.log_bessel import log_vmf_normalizer

__all__ = ["log_perplexity", "DIRICHLET_DRAWS"]

#: Number of shared Dirichlet draws ``T`` (code ``ts_thN``).
DIRICHLET_DRAWS = 200


@functools.partial(jax.jit, static_argnames=("chunk",))
def _per_document_logsumexp(particles, documents, thetas, kappa1, chunk: int):
    n_particles = particles.shape[0]
    n_chunks = -(-n_particles // chunk)
    padded = jnp.concatenate(
        [particles, jnp.broadcast_to(particles[:1], (n_chunks * chunk - n_particles,) + particles.shape[1:])]
    ).reshape((n_chunks, chunk) + particles.shape[1:])
    valid = (jnp.arange(n_chunks * chunk) < n_particles).reshape(n_chunks, chunk)

    def one(beta):
        projections = documents @ beta  # (D, P)
        gram = beta.T @ beta
        norms = jnp.sqrt(jnp.einsum("tp,pq,tq->t", thetas, gram, thetas))  # |beta theta_t|
        return kappa1 * (projections @ thetas.T) / norms  # (D, T)

    def body(running, block):
        betas, mask = block
        scores = jax.vmap(one)(betas)  # (chunk, D, T)
        scores = jnp.where(mask[:, None, None], scores, -jnp.inf)
        block_lse = jax.scipy.special.logsumexp(scores, axis=(0, 2))
        return jnp.logaddexp(running, block_lse), None

    start = jnp.full((documents.shape[0],), -jnp.inf)
    total, _ = jax.lax.scan(body, start, (padded, valid))
    return total


def log_perplexity(key, particles, documents, kappa1: float, alpha: float, *,
                   n_draws: int = DIRICHLET_DRAWS, chunk: int = 8):
    """Test log-perplexity of topic particles (Liu & Zhu (2018), Sec. 5.2, Fig. 2).

    Parameters
    ----------
    key : jax.Array
        PRNG key of the ``T`` shared Dirichlet draws.
    particles : array_like
        ``(N, n, P)`` topic matrices with unit-norm columns (particles or kept samples).
    documents : array_like
        ``(D_te, n)`` unit-norm test tf-idf vectors.
    kappa1, alpha : float
        Document concentration and symmetric Dirichlet parameter.
    n_draws : int
        ``T`` (default 200, the code's ``ts_thN``).
    chunk : int
        Particles evaluated at once (memory ``O(chunk D_te T)``).

    Returns
    -------
    jax.Array
        Scalar ``-(1/D) sum_d logsumexp_{i,t}(kappa1 v_d^T beta_i theta_t / |beta_i theta_t|)
        + log(N T) - log C_n(kappa1)`` (``SAM_Eval::EvalPerp_LiteBayesianLog``).

    Notes
    -----
    ``v_d^T beta theta`` and ``|beta theta|`` are computed as ``(V beta) theta`` and
    ``sqrt(theta^T beta^T beta theta)``: ``O(D n P + D P T)`` per particle instead of
    ``O(D n T)``.
    """
    particles = jnp.asarray(particles, jnp.float64)
    documents = jnp.asarray(documents, jnp.float64)
    if particles.ndim != 3:
        raise ValueError(f"log_perplexity: particles must be (N, n, P), got shape {particles.shape}")
    n_particles, dim, n_topics = particles.shape
    if documents.ndim != 2 or documents.shape[1] != dim:
        raise ValueError(f"log_perplexity: documents must be (D, {dim}), got {documents.shape}")
    if int(n_draws) != n_draws or n_draws < 1:
        raise ValueError(f"log_perplexity: n_draws must be a positive integer, got {n_draws!r}")
    if int(chunk) != chunk or chunk < 1:
        raise ValueError(f"log_perplexity: chunk must be a positive integer, got {chunk!r}")
    thetas = jax.random.dirichlet(key, jnp.full((n_topics,), float(alpha)), (int(n_draws),), dtype=jnp.float64)
    chunk = min(int(chunk), n_particles)
    per_document = _per_document_logsumexp(particles, documents, thetas, jnp.asarray(kappa1, jnp.float64), chunk)
    return (-jnp.mean(per_document) + jnp.log(float(n_particles) * n_draws)
            - log_vmf_normalizer(dim, kappa1))
