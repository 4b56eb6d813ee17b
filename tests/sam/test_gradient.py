"""Fisher-identity gradient: matrix assembly equals the per-document sum; mini-batch scaling."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.sam import (
    SamSettings,
    corpus_mean_direction,
    grad_log_likelihood,
    grad_log_prior,
    log_posterior_gradient,
    sample_topic_proportions,
)


@pytest.fixture(scope="module")
def problem(synthetic_sam):
    beta = jnp.asarray(synthetic_sam["beta"])
    docs = jnp.asarray(synthetic_sam["documents"][:40])
    settings = SamSettings(n_topics=3, kappa1=synthetic_sam["kappa1"], alpha=synthetic_sam["alpha"],
                           sigma=50.0, kappa0=20.0, inner_step_size=1e-3, inner_burn_in=3, inner_kept=4)
    return beta, docs, corpus_mean_direction(docs), settings


@pytest.mark.slow
def test_gradient_is_prior_plus_mean_of_per_document_likelihood_gradients(problem):
    beta, docs, m, settings = problem
    key = jax.random.PRNGKey(5)
    result = log_posterior_gradient(key, beta, docs, m, settings)
    draws = sample_topic_proportions(key, beta.T @ beta, docs @ beta, settings)  # the same inner draws
    per_sample = jax.vmap(jax.vmap(grad_log_likelihood, (None, 0, None, None)), (None, 0, 0, None))(
        beta, draws.samples, docs, settings.kappa1)
    expected = grad_log_prior(beta, m, settings.sigma, settings.kappa0) + per_sample.mean(axis=1).sum(axis=0)
    np.testing.assert_allclose(result.gradient, expected, rtol=1e-10, atol=1e-10 * float(jnp.abs(expected).max()))
    np.testing.assert_allclose(result.acceptance_rate, draws.acceptance_rate.mean())
    assert result.gradient.shape == beta.shape and int(result.n_nonfinite) == 0


@pytest.mark.slow
def test_minibatch_is_scaled_by_d_over_batch(problem):
    beta, docs, m, settings = problem
    key = jax.random.PRNGKey(6)
    batch = jnp.array([3, 7, 11, 30])
    full = log_posterior_gradient(key, beta, docs[batch], m, settings).gradient
    prior = grad_log_prior(beta, m, settings.sigma, settings.kappa0)
    scaled = log_posterior_gradient(key, beta, docs, m, settings, batch=batch).gradient
    np.testing.assert_allclose(scaled - prior, (full - prior) * docs.shape[0] / 4, rtol=1e-10)
    everything = log_posterior_gradient(key, beta, docs, m, settings, batch=jnp.arange(docs.shape[0])).gradient
    np.testing.assert_allclose(everything, log_posterior_gradient(key, beta, docs, m, settings).gradient, rtol=1e-12)


def test_bad_shapes_are_one_line_errors(problem):
    beta, docs, m, settings = problem
    with pytest.raises(ValueError, match=r"beta must be \(n, 3\)"):
        log_posterior_gradient(jax.random.PRNGKey(0), beta[:, :2], docs, m, settings)
    with pytest.raises(ValueError, match=r"documents must be \(D, 30\)"):
        log_posterior_gradient(jax.random.PRNGKey(0), beta, docs[:, :5], m, settings)
    with pytest.raises(ValueError, match="batch must be a non-empty 1-D integer index array"):
        log_posterior_gradient(jax.random.PRNGKey(0), beta, docs, m, settings, batch=jnp.array([0.5]))
