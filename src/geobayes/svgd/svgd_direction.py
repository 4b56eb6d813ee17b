"""The SVGD update direction with a (summed) Gaussian kernel (Liu & Wang 2016, Eq. (8))."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import jax
import jax.numpy as jnp

from geobayes.svgd.gaussian_kernel import (
    DEFAULT_BANDWIDTHS, BandwidthSpec, check_bandwidth, gaussian_kernel, pairwise_sq_distances,
    resolve_bandwidths,
)

__all__ = ["svgd_direction", "svgd_field"]


def svgd_direction(particles: jnp.ndarray, scores: jnp.ndarray,
                   bandwidth: BandwidthSpec = DEFAULT_BANDWIDTHS) -> jnp.ndarray:
    """SVGD's functional gradient at every particle.

    Liu & Wang (2016), Eq. (8); Liu & Zhu (2018), Eq. (2) and its particle form (notes Sec.
    1.2): with the Gaussian kernel ``K_ij = exp(-|x_i - x_j|^2 / (2 h))``,

    ``phi(x_i) = 1/N sum_j [K_ij grad log p(x_j) + (x_i - x_j) / h K_ij]``,

    summed over the bandwidths of ``bandwidth``.

    Parameters
    ----------
    particles
        Shape (N, m).
    scores
        ``grad log p`` at each particle, shape (N, m).
    bandwidth
        ``"median"`` or a tuple of bandwidths (see :mod:`geobayes.svgd.gaussian_kernel`).

    Returns
    -------
    jnp.ndarray
        ``phi``, shape (N, m).
    """
    return _svgd_direction(particles, scores, check_bandwidth(bandwidth))


@partial(jax.jit, static_argnums=2)
def _svgd_direction(particles, scores, bandwidth):
    n = particles.shape[0]
    hs = resolve_bandwidths(bandwidth, particles)
    sq = pairwise_sq_distances(particles)

    def one(h):
        k = gaussian_kernel(sq, h)  # symmetric (N, N)
        drive = k @ scores
        repulsion = (particles * jnp.sum(k, axis=1, keepdims=True) - k @ particles) / h
        return drive + repulsion

    return jnp.sum(jax.vmap(one)(hs), axis=0) / n


def svgd_field(score_fn: Callable[[jnp.ndarray], jnp.ndarray],
               bandwidth: BandwidthSpec = DEFAULT_BANDWIDTHS) -> Callable[[jnp.ndarray], jnp.ndarray]:
    """``particles -> svgd_direction(particles, vmap(score_fn)(particles), bandwidth)``.

    ``score_fn`` maps one position (m,) to ``grad log p`` (m,) (Liu & Wang 2016, Eq. (8)).
    The result is the ``direction_fn`` of :func:`geobayes.svgd.run_particles`.
    """
    bandwidth = check_bandwidth(bandwidth)
    batched = jax.vmap(score_fn)

    def direction(particles):
        return svgd_direction(particles, batched(particles), bandwidth)

    return direction
