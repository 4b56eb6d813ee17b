"""Wood's (1994) vMF sampler against the known mean resultant length, on S^2 and S^49."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.spheres import von_mises_fisher as vmf

NUM = 20_000


@pytest.mark.parametrize("kappa", [0.5, 2.0, 10.0, 50.0])
def test_mean_cosine_on_s2(kappa):
    mu = jnp.array([0.6, 0.0, 0.8])
    draws = vmf.sample(jax.random.key(int(kappa * 10)), mu, kappa, NUM)
    np.testing.assert_allclose(np.linalg.norm(draws, axis=1), 1.0, atol=1e-12, rtol=0)
    t = np.asarray(draws @ mu)
    se = t.std() / np.sqrt(NUM)
    exact = float(vmf.mean_resultant_length_s2(kappa))
    assert abs(t.mean() - exact) < 4 * se, (t.mean(), exact, se)
    assert np.isclose(exact, vmf.mean_resultant_length(kappa, 3), rtol=1e-12)


@pytest.mark.parametrize("kappa", [5.0, 50.0, 500.0])
def test_mean_cosine_on_s49(kappa):
    mu = jnp.zeros(50).at[7].set(-1.0)
    draws = vmf.sample(jax.random.key(1), mu, kappa, NUM)
    np.testing.assert_allclose(np.linalg.norm(draws, axis=1), 1.0, atol=1e-12, rtol=0)
    t = np.asarray(draws @ mu)
    se = t.std() / np.sqrt(NUM)
    exact = vmf.mean_resultant_length(kappa, 50)
    assert abs(t.mean() - exact) < 4 * se, (t.mean(), exact, se)


def test_zero_concentration_is_uniform():
    draws = np.asarray(vmf.sample(jax.random.key(2), jnp.array([0.0, 0.0, 1.0]), 0.0, NUM))
    # Uniform on S^2: each coordinate has mean 0 and variance 1/3.
    np.testing.assert_allclose(draws.mean(0), 0.0, atol=4 * np.sqrt(1 / 3 / NUM))
    np.testing.assert_allclose((draws**2).mean(0), 1 / 3, atol=0.02)


def test_sampler_is_keyed():
    mu = jnp.array([0.0, 1.0, 0.0])  # NUM draws: the compiled sampler of the tests above
    a = vmf.sample(jax.random.key(3), mu, 4.0, NUM)
    np.testing.assert_array_equal(a, vmf.sample(jax.random.key(3), mu, 4.0, NUM))
    assert not np.allclose(a[:10], vmf.sample(jax.random.key(4), mu, 4.0, NUM)[:10])


def test_small_kappa_series_matches_closed_form():
    for kappa in [1e-3, 9e-3, 1.1e-2]:
        exact = 1 / np.tanh(kappa) - 1 / kappa
        assert np.isclose(float(vmf.mean_resultant_length_s2(kappa)), exact, rtol=1e-9)


def test_log_density_and_score_of_a_product():
    mu = jnp.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    kappa = jnp.array([2.0, 3.0])
    y = jnp.array([[0.6, 0.0], [0.8, 0.0], [0.0, 1.0]])
    assert np.isclose(float(vmf.log_density(y, mu, kappa)), 2.0 * 0.6 + 0.0)
    np.testing.assert_allclose(vmf.score(y, mu, kappa), jax.grad(vmf.log_density)(y, mu, kappa))
