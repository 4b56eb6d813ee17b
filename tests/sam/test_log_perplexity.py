"""Test log-perplexity: equals the direct formula; true topics beat random topics."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.special import logsumexp

from geobayes.sam import log_perplexity
from geobayes.special import log_vmf_normalizer


def _direct(key, particles, docs, kappa1, alpha, n_draws):
    """The code's EvalPerp_LiteBayesianLog written out with explicit b = beta theta (NumPy)."""
    p = particles.shape[2]
    thetas = np.asarray(jax.random.dirichlet(key, jnp.full((p,), float(alpha)), (n_draws,), dtype=jnp.float64))
    scores = []
    for beta in particles:
        b = thetas @ beta.T  # (T, n)
        b /= np.linalg.norm(b, axis=1, keepdims=True)
        scores.append(kappa1 * docs @ b.T)
    scores = np.concatenate(scores, axis=1)  # (D, N T)
    log_c = float(log_vmf_normalizer(docs.shape[1], kappa1))
    return -np.mean(logsumexp(scores, axis=1) + log_c - np.log(scores.shape[1]))


@pytest.mark.slow
def test_matches_direct_formula_with_chunking(synthetic_sam):
    rng = np.random.default_rng(0)
    particles = synthetic_sam["beta"][None] + 0.1 * rng.normal(size=(5, 30, 3))
    particles /= np.linalg.norm(particles, axis=1, keepdims=True)
    docs = synthetic_sam["documents"]
    key = jax.random.PRNGKey(9)
    expected = _direct(key, particles, docs, 3000.0, 2.0, 50)
    for chunk in (1, 2, 5):  # 5 particles: chunks of 2 need padding
        got = log_perplexity(key, particles, docs, 3000.0, 2.0, n_draws=50, chunk=chunk)
        np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_true_topics_beat_random_topics(synthetic_sam):
    docs, beta = synthetic_sam["documents"], synthetic_sam["beta"]
    rng = np.random.default_rng(1)
    random_topics = np.abs(rng.normal(size=(4, 30, 3)))
    random_topics /= np.linalg.norm(random_topics, axis=1, keepdims=True)
    key = jax.random.PRNGKey(0)
    true_value = float(log_perplexity(key, beta[None], docs, 3000.0, 2.0))
    random_value = float(log_perplexity(key, random_topics, docs, 3000.0, 2.0))
    assert true_value < random_value - 100.0, (true_value, random_value)


def test_bad_input_is_one_line_error(synthetic_sam):
    with pytest.raises(ValueError, match=r"particles must be \(N, n, P\)"):
        log_perplexity(jax.random.PRNGKey(0), synthetic_sam["beta"], synthetic_sam["documents"], 1.0, 1.0)
    with pytest.raises(ValueError, match=r"documents must be \(D, 30\)"):
        log_perplexity(jax.random.PRNGKey(0), synthetic_sam["beta"][None], synthetic_sam["documents"][:, :4], 1.0, 1.0)
