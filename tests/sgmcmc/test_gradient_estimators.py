"""Stochastic gradients of the average potential (Yu et al. 2023, Sec. 2.1; notes 2.8 and 3.3)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.sgmcmc import MiniBatch, minibatch_potential_gradient, noisy_gradient

N = 30
X = jnp.linspace(-1.0, 1.0, N)
Y = 0.7 * X - 0.2 + 0.1 * jnp.sin(7 * X)


def log_likelihood(position, data):
    x, y = data
    return -0.5 * (y - position["a"] * x - position["b"]) ** 2


def log_prior(position):
    return -0.5 * (position["a"] ** 2 + position["b"] ** 2) / 4.0


POSITION = {"a": jnp.asarray(0.3), "b": jnp.asarray(-1.0)}


def test_whole_data_batch_equals_full_data_gradient():
    gradient_fn = minibatch_potential_gradient(log_likelihood, log_prior, N)
    full = jax.grad(lambda p: -(jnp.sum(log_likelihood(p, (X, Y))) + log_prior(p)) / N)(POSITION)
    for batch in ((X, Y), MiniBatch((X, Y), jnp.ones(N))):
        got = gradient_fn(POSITION, batch, None)
        for k in POSITION:
            np.testing.assert_allclose(got[k], full[k], rtol=1e-13)


def test_masked_batch_averages_the_real_examples_only():
    gradient_fn = minibatch_potential_gradient(log_likelihood, log_prior, N)
    padded = MiniBatch((jnp.concatenate([X[:7], X[:3]]), jnp.concatenate([Y[:7], Y[:3]])),
                       jnp.concatenate([jnp.ones(7), jnp.zeros(3)]))
    got = gradient_fn(POSITION, padded, None)
    expected = gradient_fn(POSITION, (X[:7], Y[:7]), None)
    for k in POSITION:
        np.testing.assert_allclose(got[k], expected[k], rtol=1e-13)


def test_gradient_is_clamped_elementwise():
    gradient_fn = minibatch_potential_gradient(lambda p, d: 1e9 * p["a"] * d - 1e-3 * p["b"] * d,
                                               lambda p: 0.0, N, grad_max=10.0)
    got = gradient_fn(POSITION, jnp.ones(4), None)
    assert float(got["a"]) == -10.0
    np.testing.assert_allclose(got["b"], 1e-3, rtol=1e-12)


def test_noisy_gradient_is_the_potential_gradient_plus_noise():
    logdensity = lambda p: -0.5 * jnp.sum(p["x"] ** 2) / 4.0  # noqa: E731
    position = {"x": jnp.array([2.0, -4.0])}
    exact = noisy_gradient(logdensity, 0.0)(position, None, jax.random.key(0))
    np.testing.assert_allclose(exact["x"], position["x"] / 4.0)  # grad of the potential, not of log p
    draws = jax.vmap(lambda k: noisy_gradient(logdensity, 2.0)(position, None, k)["x"])(
        jax.random.split(jax.random.key(1), 4000))
    np.testing.assert_allclose(draws.mean(0), position["x"] / 4.0, atol=4 * 2.0 / np.sqrt(4000))
    np.testing.assert_allclose(draws.std(0), 2.0, rtol=0.05)


@pytest.mark.parametrize("kwargs, name", [({"num_data": 0}, "num_data"), ({"grad_max": -1.0}, "grad_max")])
def test_bad_estimator_settings(kwargs, name):
    with pytest.raises(ValueError, match=name):
        minibatch_potential_gradient(log_likelihood, log_prior, **({"num_data": N} | kwargs))
