"""Whole geodesic paths ``t -> Exp_theta(t v)``, for figures that draw them (Yu et al. 2023, Fig. 1)."""

from __future__ import annotations

from typing import NamedTuple

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.geometry.exponential_map import OdeSettings, solve_geodesic
from geobayes.geometry.metric import Metric


class GeodesicPaths(NamedTuple):
    """Points of a batch of geodesics at given times, with per-geodesic solver outcome.

    Attributes
    ----------
    points
        ``theta(t_k)`` for each velocity and time, shape (n, K, D); where a solve failed the
        points after the failure are not finite or not meaningful: mask with ``successful``.
    successful
        True where Diffrax reported success and every point is finite, shape (n,).
    result_code
        Diffrax result code per geodesic (0 = success), shape (n,).
    """

    points: jax.Array
    successful: jax.Array
    result_code: jax.Array


@eqx.filter_jit
def geodesic_paths(metric: Metric, posterior, base_point: jax.Array, velocities: jax.Array,
                   times: jax.Array, ode: OdeSettings = OdeSettings()) -> GeodesicPaths:
    """The geodesic IVP of the exponential map saved at ``times`` (in ``[0, 1]``, increasing).

    The same ODE as :func:`~geobayes.geometry.exponential_map.exponential_map` (Yu et al. 2024,
    Supp. 12), so the last point at ``t = 1`` is ``Exp_{base_point}(v)``. Yu et al. (2023),
    Fig. 1 draws these paths for the Monge metric on the funnel (their code integrates the same
    geodesic equation with SciPy's ``solve_ivp``, notes Sec. 3.3).

    Parameters
    ----------
    metric
        The Riemannian metric (e.g. :class:`~geobayes.geometry.Monge`).
    posterior
        Passed to the metric's Christoffel contraction.
    base_point
        Start of every geodesic, shape (D,).
    velocities
        Initial velocities, shape (n, D).
    times
        Save times, shape (K,), increasing, in ``[0, 1]``.
    ode
        Solver settings.
    """
    times = jnp.asarray(times, dtype=jnp.float64)
    if times.ndim != 1 or times.shape[0] < 1:
        raise ValueError(f"geodesic_paths: times must be a non-empty 1-D array, got shape {times.shape}")
    if velocities.ndim != 2 or velocities.shape[1] != base_point.shape[0]:
        raise ValueError(f"geodesic_paths: velocities must have shape (n, {base_point.shape[0]}), "
                         f"got {velocities.shape}")

    def one(velocity):
        solution = solve_geodesic(metric, posterior, base_point, velocity, ode,
                                  saveat=diffrax.SaveAt(ts=times))
        points = solution.ys[0]
        code = solution.result._value
        return points, (code == 0) & jnp.all(jnp.isfinite(points)), code

    points, successful, codes = jax.vmap(one)(velocities)
    return GeodesicPaths(points, successful, codes)
