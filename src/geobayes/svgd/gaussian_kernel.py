"""Gaussian kernel with a median or summed-bandwidth spec (Liu & Wang 2016; Liu & Zhu 2018, Sec. 5).

The kernel is ``K(x, x') = exp(-|x - x'|^2 / (2 h))``; ``h`` is a *variance-like* bandwidth.
A bandwidth spec is either ``"median"`` (the SVGD code's median trick, recomputed from the
current particles) or a tuple of bandwidths whose kernels are summed (Liu & Zhu 2018, Sec.
"Kernel": a sum of Gaussian kernels is a kernel, Steinwart & Christmann Lemma 4.5; the
official code's list is :data:`DEFAULT_BANDWIDTHS`, notes Sec. 2.1).
"""

from __future__ import annotations

import math
from typing import Union

import jax.numpy as jnp

__all__ = [
    "BANDWIDTH_NAMES", "BandwidthSpec", "DEFAULT_BANDWIDTHS", "bandwidth_from_name", "check_bandwidth",
    "gaussian_kernel", "median_bandwidth", "pairwise_sq_distances", "resolve_bandwidths",
]

#: ``"median"`` or a tuple of bandwidths ``h > 0`` whose Gaussian kernels are summed.
BandwidthSpec = Union[str, tuple[float, ...]]

#: The official BLR code's bandwidth list (``bandwidth = [1e-4, ..., 1000]``, notes Sec. 2.1).
DEFAULT_BANDWIDTHS: tuple[float, ...] = (1e-4, 1e-2, 1e-1, 1.0, 10.0, 30.0, 100.0, 300.0, 1000.0)

#: The configs' bandwidth names: the median trick, or the official code's summed list.
BANDWIDTH_NAMES = ("median", "summed")


def bandwidth_from_name(name: str) -> BandwidthSpec:
    """The spec a config names: ``"median"`` or ``"summed"`` (:data:`DEFAULT_BANDWIDTHS`); else a one-line error."""
    if name == "summed":
        return DEFAULT_BANDWIDTHS
    if name == "median":
        return "median"
    raise ValueError(f"bandwidth: expected one of {list(BANDWIDTH_NAMES)}, got {name!r}")


def pairwise_sq_distances(x: jnp.ndarray, y: jnp.ndarray | None = None) -> jnp.ndarray:
    """Squared Euclidean distances ``|x_i - y_j|^2``.

    Parameters
    ----------
    x
        Points, shape (N, m).
    y
        Points, shape (M, m); ``x`` when omitted.

    Returns
    -------
    jnp.ndarray
        Shape (N, M). Computed from the differences (not ``|x|^2 + |y|^2 - 2 x.y``), so the
        diagonal of ``pairwise_sq_distances(x)`` is exactly 0.
    """
    y = x if y is None else y
    diff = x[:, None, :] - y[None, :, :]
    return jnp.sum(diff * diff, axis=-1)


def gaussian_kernel(sq_distances: jnp.ndarray, bandwidth) -> jnp.ndarray:
    """``exp(-d / (2 h))`` for squared distances ``d`` (Liu & Zhu 2018, Sec. 5, "Kernel")."""
    return jnp.exp(-sq_distances / (2.0 * bandwidth))


def median_bandwidth(particles: jnp.ndarray) -> jnp.ndarray:
    """The median trick of the SVGD code: ``h = med / (2 log(N + 1))``.

    Liu & Wang (2016), Sec. 5; notes Sec. 2.1. ``med`` is the median of the full ``N x N``
    matrix of squared pairwise distances, diagonal zeros included, as the official code
    (``np.median(squareform(pdist(theta))**2)``). Coincident particles give ``h = 0``, and
    then non-finite directions, as in the code; the run driver counts them.

    Parameters
    ----------
    particles
        Shape (N, m).

    Returns
    -------
    jnp.ndarray
        Scalar ``h`` for ``exp(-|x - x'|^2 / (2 h))``.
    """
    n = particles.shape[0]
    return jnp.median(pairwise_sq_distances(particles)) / (2.0 * math.log(n + 1.0))


def check_bandwidth(spec: BandwidthSpec) -> BandwidthSpec:
    """Validate a bandwidth spec; return it (a tuple of floats, or ``"median"``).

    Raises
    ------
    ValueError
        One line naming the problem: an unknown string, an empty list, or a bandwidth that
        is not a finite number ``> 0``.
    """
    if isinstance(spec, str):
        if spec != "median":
            raise ValueError(f"bandwidth: expected 'median' or a tuple of bandwidths > 0, got {spec!r}")
        return spec
    try:
        values = tuple(float(h) for h in spec)
    except (TypeError, ValueError):
        raise ValueError(
            f"bandwidth: expected 'median' or a tuple of bandwidths > 0, got {spec!r}") from None
    if not values:
        raise ValueError("bandwidth: the tuple of bandwidths is empty; give at least one h > 0")
    bad = [h for h in values if not (math.isfinite(h) and h > 0.0)]
    if bad:
        raise ValueError(f"bandwidth: every bandwidth must be finite and > 0, got {bad[0]!r} in {values}")
    return values


def resolve_bandwidths(spec: BandwidthSpec, particles: jnp.ndarray) -> jnp.ndarray:
    """The bandwidths to sum over for the current particles, shape (B,).

    ``"median"`` gives ``[median_bandwidth(particles)]`` (traceable; recomputed every
    iteration); a tuple gives itself.
    """
    spec = check_bandwidth(spec)
    if spec == "median":
        return median_bandwidth(particles)[None]
    return jnp.asarray(spec, dtype=particles.dtype)
