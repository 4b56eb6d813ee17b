"""The exponential map's Jacobian by the variational equations: against forward-mode AD, and on failure.

``exponential_map_jacobian`` integrates the geodesic with its Jacobi fields along the shot's own
steps; ``jax.jacfwd`` of the whole solve (what the log map used before) differentiates the same
discrete scheme, step sizes included, so the two agree to the solver's tolerance. A Monge metric on
a curved target (Yu et al. 2024's banana) and the Gaussian-Monge metric of the log map are both used.
"""

from __future__ import annotations

import diffrax
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.geometry.exponential_map import OdeSettings, solve_geodesic
from geobayes.geometry.gaussian_monge import GaussianMonge
from geobayes.geometry.geodesic_jacobian import exponential_map_jacobian

SHOT = OdeSettings(rtol=1e-8, atol=1e-10, max_steps=4096)


def _forward_mode(metric, base, velocity, ode):
    def endpoint(v):
        return solve_geodesic(metric, None, base, v, ode, adjoint=diffrax.ForwardMode()).ys[0][-1]
    return jax.jacfwd(endpoint)(velocity), endpoint(velocity)


def _steep_gaussian(dim=4, seed=0):
    rng = np.random.default_rng(seed)
    rotation, _ = np.linalg.qr(rng.normal(size=(dim, dim)))
    precision = rotation @ np.diag(np.geomspace(0.5, 40.0, dim)) @ rotation.T
    return GaussianMonge(jnp.asarray(rng.normal(size=dim)), jnp.asarray(precision))


@pytest.mark.parametrize("scale", [0.05, 0.6])
def test_the_jacobian_is_forward_mode_ad_of_the_shot(scale):
    # A long geodesic up the steep paraboloid (scale 0.6: hundreds of steps) and a short one.
    metric = _steep_gaussian()
    velocity = scale * jnp.asarray(np.random.default_rng(1).normal(size=4))
    jacobian, endpoint = jax.jit(lambda v: exponential_map_jacobian(metric, None, metric.mean, v, SHOT))(velocity)
    expected_jacobian, expected_endpoint = jax.jit(lambda v: _forward_mode(metric, metric.mean, v, SHOT))(velocity)
    np.testing.assert_allclose(endpoint, expected_endpoint, rtol=0, atol=1e-12)
    np.testing.assert_allclose(jacobian, expected_jacobian, rtol=0, atol=1e-7 * float(jnp.max(jnp.abs(expected_jacobian))))
    # Not the identity: the metric bends the geodesics, so the test would see a Jacobian left at J_v(0) = I.
    assert float(jnp.max(jnp.abs(jacobian - jnp.eye(4)))) > 1e-2


def test_the_jacobian_matches_finite_differences_of_the_shot():
    metric = _steep_gaussian(dim=3, seed=2)
    velocity = jnp.asarray([0.3, -0.2, 0.25])
    tight = OdeSettings(rtol=1e-11, atol=1e-13, max_steps=100_000)
    jacobian, _ = exponential_map_jacobian(metric, None, metric.mean, velocity, tight)
    shot = jax.jit(lambda v: solve_geodesic(metric, None, metric.mean, v, tight).ys[0][-1])
    step = 1e-5
    columns = [(shot(velocity + step * e) - shot(velocity - step * e)) / (2 * step) for e in jnp.eye(3)]
    np.testing.assert_allclose(jacobian, jnp.stack(columns, axis=1), atol=1e-6)


def test_a_failed_solve_gives_nan_not_a_partial_jacobian():
    metric = _steep_gaussian()
    velocity = 0.6 * jnp.ones(4)
    starved = OdeSettings(rtol=1e-8, atol=1e-10, max_steps=2)
    jacobian, endpoint = exponential_map_jacobian(metric, None, metric.mean, velocity, starved)
    assert bool(jnp.all(jnp.isnan(jacobian))) and bool(jnp.all(jnp.isnan(endpoint)))


def test_mismatched_shapes_are_refused_in_one_line():
    metric = _steep_gaussian()
    with pytest.raises(ValueError, match=r"base_point and velocity must both have shape \(D,\), got \(4,\) and \(2, 4\)"):
        exponential_map_jacobian(metric, None, metric.mean, jnp.ones((2, 4)), SHOT)
