"""Exponential map and geodesic flow on (products of) spheres (Liu & Zhu 2018, Prop. 7;
Byrne & Girolami 2013, Sec. 3.2): norms, tangency and speed are preserved; v = 0 is safe."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.spheres import exponential_map, geodesic_flow, normalize_columns, tangent_project


def random_points(key, shape):
    return normalize_columns(jax.random.normal(key, shape))


def random_tangent(key, y, scales):
    v = tangent_project(y, jax.random.normal(key, y.shape))
    v = v / jnp.linalg.norm(v, axis=-2, keepdims=True)
    return v * jnp.asarray(scales)


@pytest.mark.parametrize("scale", [0.0, 1e-13, 1e-9, 1e-4, 0.7, np.pi, 37.0, 1e6])
def test_exponential_map_keeps_unit_norm(scale):
    y = random_points(jax.random.key(0), (5, 4, 3))
    v = random_tangent(jax.random.key(1), y, scale)
    out = exponential_map(y, v)
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(np.linalg.norm(out, axis=-2), 1.0, atol=1e-12, rtol=0)


def test_exponential_map_mixed_column_speeds():
    y = random_points(jax.random.key(2), (6, 3))
    v = random_tangent(jax.random.key(3), y, jnp.array([0.0, 1e-10, 2.5]))
    out = exponential_map(y, v)
    np.testing.assert_allclose(np.linalg.norm(out, axis=0), 1.0, atol=1e-12, rtol=0)
    np.testing.assert_allclose(out[:, 0], y[:, 0], atol=1e-15)
    # Column 2 moved along the great circle by 2.5 rad: angle to the start is 2.5.
    assert np.isclose(np.arccos(np.clip(out[:, 2] @ y[:, 2], -1, 1)), 2.5, atol=1e-12)


def test_exponential_map_identity_at_zero_and_finite_gradient():
    y = random_points(jax.random.key(4), (4, 2))
    np.testing.assert_allclose(exponential_map(y, jnp.zeros_like(y)), y, atol=1e-15, rtol=0)
    jac = jax.jacobian(lambda v: exponential_map(y, v))(jnp.zeros_like(y))  # (4, 2, 4, 2)
    assert np.all(np.isfinite(jac))
    # d Exp_y(v)/dv at 0 acts as the identity on tangent vectors.
    t = random_tangent(jax.random.key(5), y, 1.0)
    np.testing.assert_allclose(jnp.einsum("abcd,cd->ab", jac, t), t, atol=1e-12)


def test_exponential_map_matches_closed_form():
    y = random_points(jax.random.key(6), (3, 1))
    v = random_tangent(jax.random.key(7), y, 1.3)
    expected = y * np.cos(1.3) + v / 1.3 * np.sin(1.3)
    np.testing.assert_allclose(exponential_map(y, v), expected, atol=1e-14)


@pytest.mark.parametrize("t", [1e-3, 0.5, -2.0, 40.0])
def test_geodesic_flow_conserves_norm_tangency_and_speed(t):
    y = random_points(jax.random.key(8), (7, 5, 3))
    v = random_tangent(jax.random.key(9), y, jnp.array([0.0, 1e-11, 3.0]))
    y1, v1 = y, v
    for _ in range(50):
        y1, v1 = geodesic_flow(y1, v1, t)
    np.testing.assert_allclose(np.linalg.norm(y1, axis=-2), 1.0, atol=1e-12, rtol=0)
    np.testing.assert_allclose(np.sum(y1 * v1, axis=-2), 0.0, atol=1e-11)
    np.testing.assert_allclose(np.linalg.norm(v1, axis=-2), np.linalg.norm(v, axis=-2),
                               rtol=1e-10, atol=1e-15)


def test_geodesic_flow_position_is_the_exponential_map():
    y = random_points(jax.random.key(10), (4, 2))
    v = random_tangent(jax.random.key(11), y, jnp.array([0.3, 2.0]))
    y1, _ = geodesic_flow(y, v, 0.8)
    np.testing.assert_allclose(y1, exponential_map(y, 0.8 * v), atol=1e-14)
    # Flowing back returns to the start.
    y2, v2 = geodesic_flow(*geodesic_flow(y, v, 0.8), -0.8)
    np.testing.assert_allclose(y2, y, atol=1e-13)
    np.testing.assert_allclose(v2, v, atol=1e-13)
