"""ELA is exact on a Gaussian posterior (Yu et al. 2024, Sec. 2): known-answer tests."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.stats import multivariate_normal

from toy_posteriors import linear_gaussian_posterior

from geobayes.methods import get_method, method_config

N_SAMPLES = 20_000


POSTERIOR = linear_gaussian_posterior()
MEAN, COV = (np.asarray(a) for a in POSTERIOR.model.exact_posterior(POSTERIOR.data))


@pytest.fixture(scope="module")
def ela():
    return get_method("ela").fit(POSTERIOR, method_config("ela"), jax.random.PRNGKey(0), mode=jnp.asarray(MEAN))


def test_fit_stats_and_precision_is_exact_inverse_covariance(ela):
    assert ela.stats["method"] == "ela"
    L = np.asarray(ela.approximation.tangent.precision_cholesky)
    np.testing.assert_allclose(L, np.tril(L))
    np.testing.assert_allclose(L @ L.T, np.linalg.inv(COV), rtol=1e-10)
    np.testing.assert_allclose(ela.approximation.tangent.mode, MEAN, rtol=1e-14)


def test_samples_have_exact_mean_and_covariance_within_monte_carlo_error(ela):
    draws = ela.approximation.sample(jax.random.PRNGKey(1), N_SAMPLES)
    theta = np.asarray(draws.theta)
    assert theta.shape == (N_SAMPLES, 3) and theta.dtype == np.float64
    assert bool(np.all(np.asarray(draws.successful)))
    np.testing.assert_array_equal(draws.result_code, 0)
    np.testing.assert_array_equal(draws.num_steps, 0)

    # Mean: standard error sqrt(Sigma_ii / n) per coordinate; 5 standard errors.
    se_mean = np.sqrt(np.diag(COV) / N_SAMPLES)
    assert np.all(np.abs(theta.mean(0) - MEAN) < 5 * se_mean), (theta.mean(0) - MEAN) / se_mean

    # Covariance (with the known mean): Var(x_i x_j) = Sigma_ii Sigma_jj + Sigma_ij^2 for a
    # centred Gaussian, so the standard error of each entry is sqrt of that over n.
    centred = theta - MEAN
    sample_cov = centred.T @ centred / N_SAMPLES
    se_cov = np.sqrt((np.outer(np.diag(COV), np.diag(COV)) + COV**2) / N_SAMPLES)
    z = np.abs(sample_cov - COV) / se_cov
    assert np.all(z < 5), z


def test_log_prob_equals_scipy_logpdf(ela):
    reference = multivariate_normal(MEAN, COV)
    rng = np.random.default_rng(2)
    points = MEAN + rng.normal(size=(5, 3)) @ np.linalg.cholesky(COV).T * 2.0
    got = jax.vmap(ela.approximation.log_prob)(jnp.asarray(points))
    np.testing.assert_allclose(got, reference.logpdf(points), rtol=1e-11)
    at_mean = ela.approximation.log_prob(jnp.asarray(MEAN))
    np.testing.assert_allclose(at_mean, reference.logpdf(MEAN), rtol=1e-12)


def test_log_prob_of_exact_gaussian_differs_from_posterior_by_a_constant(ela):
    """ELA is exact: log q - log p (unnormalised) is the same at every point."""
    rng = np.random.default_rng(3)
    points = jnp.asarray(MEAN + rng.normal(size=(4, 3)))
    diff = jax.vmap(ela.approximation.log_prob)(points) - jax.vmap(POSTERIOR.logdensity)(points)
    np.testing.assert_allclose(diff, diff[0], rtol=1e-10)


def test_fisher_precision_equals_hessian_precision_for_constant_metric(ela):
    fisher = get_method("ela").fit(
        POSTERIOR, method_config("ela", {"precision": "fisher"}), jax.random.PRNGKey(0), mode=jnp.asarray(MEAN)
    )
    np.testing.assert_allclose(
        fisher.approximation.tangent.precision_cholesky,
        ela.approximation.tangent.precision_cholesky,
        rtol=1e-10,
    )


def test_fit_is_deterministic_and_ignores_key(ela):
    other = get_method("ela").fit(POSTERIOR, method_config("ela"), jax.random.PRNGKey(123), mode=jnp.asarray(MEAN))
    np.testing.assert_array_equal(
        other.approximation.tangent.precision_cholesky, ela.approximation.tangent.precision_cholesky
    )


def test_unknown_precision_rejected():
    with pytest.raises(ValueError, match="bogus"):
        get_method("ela").fit(
            POSTERIOR, method_config("ela", {"precision": "bogus"}), jax.random.PRNGKey(0), mode=jnp.asarray(MEAN)
        )
