"""The shared Euler-Maruyama step (Yu et al. 2023, Eq. 3, learning-rate form of A.5)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.sgmcmc import IdentityPreconditioner, RMSpropPreconditioner, build_kernel, init
from geobayes.sgmcmc.preconditioner import tree_normal


def _setup():
    position = {"w": jnp.arange(6.0).reshape(2, 3), "b": jnp.array([0.5, -0.5])}
    gradient = jax.tree.map(lambda x: 0.1 * x + 1.0, position)
    return position, gradient


def test_identity_step_is_sgld():
    position, gradient = _setup()
    lr, n, tau = 0.02, 50, 0.7
    kernel = build_kernel(IdentityPreconditioner(), lr, n, tau)
    key = jax.random.key(3)
    state, info = kernel(key, init(position, IdentityPreconditioner()), gradient)
    xi = tree_normal(key, position)
    for k in position:
        expected = position[k] - lr * gradient[k] + np.sqrt(2 * lr * tau / n) * xi[k]
        np.testing.assert_allclose(state.position[k], expected, rtol=1e-14)
    assert int(state.step) == 1 and not bool(info.fallback)
    np.testing.assert_allclose(info.drift_norm, lr * np.sqrt(sum(np.sum(np.asarray(g) ** 2)
                                                                for g in jax.tree.leaves(gradient))))


def test_rmsprop_step_preconditions_drift_and_noise():
    position, gradient = _setup()
    rmsprop = RMSpropPreconditioner(lam=0.5, eps=1e-8)
    kernel = build_kernel(rmsprop, 0.01, 10)
    key = jax.random.key(4)
    state, _ = kernel(key, init(position, rmsprop), gradient)
    xi = tree_normal(key, position)
    for k in position:
        p = 1 / (np.sqrt(0.5 * np.asarray(gradient[k]) ** 2) + 1e-8)
        expected = position[k] - 0.01 * p * gradient[k] + np.sqrt(2 * 0.01 / 10) * np.sqrt(p) * xi[k]
        np.testing.assert_allclose(state.position[k], expected, rtol=1e-12)


def test_gamma_term_is_added_with_h():
    position, gradient = _setup()
    gamma = jax.tree.map(jnp.ones_like, position)
    with_gamma = build_kernel(IdentityPreconditioner(), 0.02, 4, 2.0, gamma_fn=lambda x, s: gamma)
    without = build_kernel(IdentityPreconditioner(), 0.02, 4, 2.0)
    state0 = init(position, IdentityPreconditioner())
    a, _ = with_gamma(jax.random.key(0), state0, gradient)
    b, _ = without(jax.random.key(0), state0, gradient)
    for k in position:
        np.testing.assert_allclose(a.position[k] - b.position[k], 2.0 * 0.02 / 4, rtol=1e-12)


def test_same_key_same_draw_and_different_key_different_draw():
    position, gradient = _setup()
    kernel = jax.jit(build_kernel(RMSpropPreconditioner(), 0.01, 10))
    state0 = init(position, RMSpropPreconditioner())
    a, _ = kernel(jax.random.key(9), state0, gradient)
    b, _ = kernel(jax.random.key(9), state0, gradient)
    c, _ = kernel(jax.random.key(10), state0, gradient)
    assert all(np.array_equal(a.position[k], b.position[k]) for k in position)
    assert not np.array_equal(a.position["w"], c.position["w"])


@pytest.mark.parametrize("kwargs, name", [({"learning_rate": 0.0}, "learning_rate"), ({"num_data": -1}, "num_data"),
                                          ({"temperature": -1.0}, "temperature")])
def test_bad_step_settings(kwargs, name):
    settings = {"learning_rate": 0.1, "num_data": 10, "temperature": 1.0} | kwargs
    with pytest.raises(ValueError, match=name):
        build_kernel(IdentityPreconditioner(), **settings)
