"""How far a solved geodesic is from an exact one: the drift of its conserved metric speed."""

from __future__ import annotations

import jax
import jax.numpy as jnp

#: Samples whose metric tensors are formed at once (a Fisher tensor is D x D per sample).
_CHUNK = 64


def speed_drift(metric, posterior, base_point: jax.Array, velocities: jax.Array, end) -> jax.Array:
    """``| |theta'(1)|^2_G / |v|^2_G - 1 |`` per sample: zero on an exact geodesic.

    A geodesic keeps its metric speed (do Carmo 1992, Ch. 3, Sec. 2; Yu et al. 2024, Supp. 11),
    so the relative change of ``|theta'|^2_{G(theta)}`` from ``t = 0`` to ``1`` measures the
    solver's error where the result codes cannot: a solve that met its tolerances step by step
    can still end far from the geodesic. On the MNIST CNN at the authors' code tolerances
    (``rtol = 1e-6``, ``atol = 1e-3``) the squared speed grew 36-588-fold with the optimised
    prior and the endpoints lay 0.2-0.5 ``|v|`` from the accurate ones
    (``benchmarks/geodesic_energy.py``).

    Parameters
    ----------
    metric
        The metric the geodesics follow (:meth:`~geobayes.geometry.metric.Metric.squared_speed`).
    posterior
        Passed to the metric.
    base_point, velocities
        The start, shape (D,), and the initial velocities, shape (n, D).
    end
        The solves' :class:`~geobayes.geometry.exponential_map.GeodesicEndpoints`.

    Returns
    -------
    jax.Array
        Shape (n,); NaN where a solve failed.
    """

    def one(inputs):
        velocity, point, final = inputs
        start = metric.squared_speed(posterior, base_point, velocity)
        change = jnp.abs(metric.squared_speed(posterior, point, final) - start)
        return jnp.where(start > 0, change / jnp.where(start > 0, start, 1.0), change)

    drift = jax.lax.map(one, (velocities, end.points, end.velocities), batch_size=_CHUNK)
    return jnp.where(end.successful, drift, jnp.nan)
