"""SAM prior (mu integrated out) and document likelihood: closed-form gradients vs autodiff, normalisation."""

import jax
import jax.numpy as jnp
import numpy as np
import scipy.integrate

from geobayes.sam import corpus_mean_direction, grad_log_likelihood, grad_log_prior, log_likelihood, log_prior


def _unit_columns(key, n, p):
    beta = jax.random.normal(key, (n, p))
    return beta / jnp.linalg.norm(beta, axis=0)


def test_prior_gradient_matches_autodiff_in_the_sam_regime():
    """n=5000, P=20, sigma=kappa0=1e4: |m_bar| ~ 1e4..2e5, the Bessel order is 2499."""
    n, p = 5000, 20
    key_m, key_b = jax.random.split(jax.random.PRNGKey(0))
    m = jax.random.normal(key_m, (n,))
    m = m / jnp.linalg.norm(m)
    beta = m[:, None] + _unit_columns(key_b, n, p) * 0.8
    beta = beta / jnp.linalg.norm(beta, axis=0)
    closed = grad_log_prior(beta, m, 1e4, 1e4)
    auto = jax.grad(log_prior)(beta, m, 1e4, 1e4)
    np.testing.assert_allclose(closed, auto, rtol=1e-10, atol=1e-10 * float(jnp.max(jnp.abs(auto))))


def test_prior_with_one_topic_is_a_normalised_density_on_s2():
    """P=1, n=3: p(beta) = int vMF(mu|m,k0) vMF(beta|mu,s) dmu depends on t = m^T beta; it integrates to one."""
    m = jnp.array([0.0, 0.0, 1.0])

    def density(t):
        beta = jnp.array([[np.sqrt(1 - t * t)], [0.0], [t]])
        return float(jnp.exp(log_prior(beta, m, 3.0, 2.0)))

    total, _ = scipy.integrate.quad(lambda t: 2 * np.pi * density(t), -1.0, 1.0, epsabs=1e-12)
    assert abs(total - 1.0) < 1e-9


def test_likelihood_gradient_matches_autodiff():
    n, p = 200, 5
    keys = jax.random.split(jax.random.PRNGKey(1), 3)
    beta = _unit_columns(keys[0], n, p)
    theta = jnp.asarray(np.random.default_rng(1).dirichlet(np.ones(p)))
    v = jax.random.normal(keys[2], (n,))
    v = v / jnp.linalg.norm(v)
    closed = grad_log_likelihood(beta, theta, v, 3e4)
    auto = jax.grad(log_likelihood)(beta, theta, v, 3e4)
    np.testing.assert_allclose(closed, auto, rtol=1e-11, atol=1e-11 * float(jnp.max(jnp.abs(auto))))


def test_likelihood_is_the_vmf_log_density_on_s2():
    """n=3: log C_3(k) + k cos = log(k / (4 pi sinh k)) + k cos."""
    beta = jnp.eye(3)[:, :2]
    theta = jnp.array([0.25, 0.75])
    v = jnp.array([0.6, 0.0, 0.8])
    mean = beta @ theta / jnp.linalg.norm(beta @ theta)
    kappa = 7.0
    expected = np.log(kappa / (4 * np.pi * np.sinh(kappa))) + kappa * float(v @ mean)
    np.testing.assert_allclose(log_likelihood(beta, theta, v, kappa), expected, rtol=1e-12)


def test_corpus_mean_direction_is_the_normalised_sum():
    docs = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    np.testing.assert_allclose(corpus_mean_direction(docs), np.array([1.6, 1.8]) / np.hypot(1.6, 1.8))
