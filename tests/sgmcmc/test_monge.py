"""Monge metric (Yu et al. 2023, Sec. 3.1, Eq. 5): dense equivalence, alpha2 = 0 == SGLD, fallback."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.flatten_util import ravel_pytree

from geobayes.sgmcmc import IdentityPreconditioner, MongePreconditioner, noisy_gradient, run_chain, sgrld
from geobayes.sgmcmc.monge import MongeState


def _tree(key, scale=1.0):
    k1, k2 = jax.random.split(key)
    return {"w": scale * jax.random.normal(k1, (2, 3)), "b": scale * jax.random.normal(k2, (4,))}


def _dense(preconditioner, state, method):
    """The matrix of ``method`` (inverse or inverse_sqrt), column by column."""
    flat, unravel = ravel_pytree(state.gradient_average)
    columns = jax.vmap(lambda e: ravel_pytree(method(state, unravel(e)))[0])(jnp.eye(flat.size))
    return columns.T, flat


@pytest.mark.parametrize("alpha2", [0.3, 2.0])
def test_elementwise_products_equal_dense_rank_one_matrices(alpha2):
    monge = MongePreconditioner(alpha2=alpha2)
    state = MongeState(_tree(jax.random.key(0)))
    x = _tree(jax.random.key(1))
    m = ravel_pytree(state.gradient_average)[0]
    s = m @ m
    eye = jnp.eye(m.size)
    dense_inverse = eye - alpha2 / (1 + alpha2 * s) * jnp.outer(m, m)
    dense_inverse_sqrt = eye + (1 / jnp.sqrt(1 + alpha2 * s) - 1) / s * jnp.outer(m, m)
    np.testing.assert_allclose(ravel_pytree(monge.inverse(state, x))[0], dense_inverse @ ravel_pytree(x)[0], rtol=1e-12)
    np.testing.assert_allclose(ravel_pytree(monge.inverse_sqrt(state, x))[0], dense_inverse_sqrt @ ravel_pytree(x)[0],
                               rtol=1e-12)
    inverse, _ = _dense(monge, state, monge.inverse)
    inverse_sqrt, _ = _dense(monge, state, monge.inverse_sqrt)
    metric = eye + alpha2 * jnp.outer(m, m)
    np.testing.assert_allclose(inverse_sqrt @ inverse_sqrt, inverse, atol=1e-12)
    np.testing.assert_allclose(inverse @ metric, eye, atol=1e-12)
    np.testing.assert_allclose(inverse_sqrt, inverse_sqrt.T, atol=1e-14)


def test_small_norm_uses_limit_of_inverse_sqrt_coefficient():
    monge = MongePreconditioner(alpha2=0.8)
    tiny = MongeState(_tree(jax.random.key(0), scale=1e-8))
    zero = MongeState(jax.tree.map(jnp.zeros_like, tiny.gradient_average))
    for state in (tiny, zero):
        f_inverse, f_inverse_sqrt = monge.coefficients(state)
        assert float(f_inverse_sqrt) == -0.4
        assert np.isfinite(float(f_inverse))
    x = _tree(jax.random.key(2))
    np.testing.assert_array_equal(ravel_pytree(monge.inverse_sqrt(zero, x))[0], ravel_pytree(x)[0])


def test_ema_update():
    monge = MongePreconditioner(alpha2=1.0, lam=0.7)
    g1, g2 = _tree(jax.random.key(3)), _tree(jax.random.key(4))
    state = monge.update(monge.update(monge.init(g1), g1, 1), g2, 2)
    expected = jax.tree.map(lambda a, b: 0.7 * 0.3 * a + 0.3 * b, g1, g2)
    np.testing.assert_allclose(ravel_pytree(state.gradient_average)[0], ravel_pytree(expected)[0], rtol=1e-14)


def test_alpha2_zero_is_identity_bit_for_bit():
    mean = {"w": jnp.arange(6.0).reshape(2, 3), "b": -jnp.ones(4)}
    logdensity = lambda p: -0.5 * sum(jnp.sum((p[k] - mean[k]) ** 2) for k in p)  # noqa: E731
    gradient_fn = noisy_gradient(logdensity, 1.0)
    runs = []
    for preconditioner in (IdentityPreconditioner(), MongePreconditioner(alpha2=0.0, lam=0.9)):
        algorithm = sgrld(preconditioner, 0.05, 1)
        start = jax.tree.map(jnp.zeros_like, mean)
        runs.append(run_chain(jax.random.key(7), algorithm.step, algorithm.init(start), gradient_fn,
                              num_epochs=3, steps_per_epoch=200, thinning=1))
    (identity_state, identity_samples, _), (monge_state, monge_samples, _) = runs
    for key in mean:
        assert np.array_equal(identity_samples[key], monge_samples[key])
        assert np.array_equal(identity_state.position[key], monge_state.position[key])


def test_fallback_switches_to_scaled_identity():
    monge = MongePreconditioner(alpha2=0.1, lam=0.7, fallback_norm=1000.0)
    big = {"x": jnp.array([3e3, -4e3])}  # ||g|| = 5000 and G^{-1} g stays large
    noise = {"x": jnp.array([0.5, 2.0])}
    state = MongeState({"x": jnp.array([1e-3, 0.0])})
    drift, applied, fired = monge.precondition(state, big, noise)
    assert bool(fired)
    np.testing.assert_allclose(drift["x"], big["x"] / 5.0, rtol=1e-14)
    np.testing.assert_allclose(applied["x"], noise["x"] / np.sqrt(5.0), rtol=1e-14)
    small = {"x": jnp.array([3.0, -4.0])}
    drift, applied, fired = monge.precondition(state, small, noise)
    assert not bool(fired)
    np.testing.assert_allclose(drift["x"], monge.inverse(state, small)["x"], rtol=1e-14)
    np.testing.assert_allclose(applied["x"], monge.inverse_sqrt(state, noise)["x"], rtol=1e-14)


def test_formula_path_near_zero_alpha2_is_identity_to_rounding():
    """alpha2 = 0 skips the rank-one term; the formula itself must also vanish as alpha2 -> 0."""
    monge = MongePreconditioner(alpha2=1e-300)
    state = MongeState(_tree(jax.random.key(5)))
    x = _tree(jax.random.key(6))
    for method in (monge.inverse, monge.inverse_sqrt):
        np.testing.assert_allclose(ravel_pytree(method(state, x))[0], ravel_pytree(x)[0], rtol=1e-15)
