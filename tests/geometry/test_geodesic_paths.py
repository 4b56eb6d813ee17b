"""Geodesic paths saved along the way end where the exponential map ends."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.geometry import Euclidean, Monge
from geobayes.geometry.exponential_map import OdeSettings, exponential_map
from geobayes.geometry.geodesic_paths import geodesic_paths
from geobayes.targets import SoftplusFunnel

FUNNEL = SoftplusFunnel("yu2023_funnel")
ODE = OdeSettings(rtol=1e-8, atol=1e-8)


def test_last_point_is_the_exponential_map_and_first_the_base_point():
    """Monge geodesics on Yu et al.'s (2023) funnel from their Fig. 1 base point (2, -4)."""
    base = jnp.array([2.0, -4.0])
    velocities = 10.0 * jnp.array([[1.0, 0.0], [0.0, 1.0], [-0.6, 0.8]])
    times = jnp.linspace(0.0, 1.0, 11)
    paths = geodesic_paths(Monge(alpha2=1.0), FUNNEL, base, velocities, times, ODE)
    ends = exponential_map(Monge(alpha2=1.0), FUNNEL, base, velocities, ODE)
    assert paths.points.shape == (3, 11, 2) and bool(np.all(paths.successful))
    np.testing.assert_allclose(paths.points[:, 0], np.broadcast_to(base, (3, 2)), atol=1e-12)
    np.testing.assert_allclose(paths.points[:, -1], ends.points, rtol=1e-6, atol=1e-6)
    # the metric bends them: not the straight line base + t v
    assert np.max(np.abs(np.asarray(paths.points[:, 5]) - np.asarray(base + 0.5 * velocities))) > 1e-2


def test_euclidean_paths_are_straight_lines():
    base = jnp.array([0.5, 1.0])
    velocities = jnp.array([[1.0, -2.0]])
    times = jnp.array([0.0, 0.25, 1.0])
    paths = geodesic_paths(Euclidean(), FUNNEL, base, velocities, times, ODE)
    np.testing.assert_allclose(paths.points[0], base + times[:, None] * velocities[0], atol=1e-10)


def test_bad_shapes_are_named():
    with pytest.raises(ValueError, match="velocities must have shape"):
        geodesic_paths(Euclidean(), FUNNEL, jnp.zeros(2), jnp.zeros((3, 3)), jnp.array([1.0]), ODE)
