"""Timing on the real 20News-different data (printed, not asserted): one full gradient, one log-perplexity.

Run with ``-s`` to see the lines ``SAM timing: ...``.
"""

import time

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from data_mirror import mirror_file

from geobayes.data.news20_tfidf import load_news20_tfidf
from geobayes.sam import SamSettings, corpus_mean_direction, log_perplexity, log_posterior_gradient


@pytest.mark.slow
def test_full_gradient_and_log_perplexity_timing():
    train = load_news20_tfidf(mirror_file("20news_diff/diff.train.tfidf1.data"), vocabulary_size=5000, n_documents=1666)
    test = load_news20_tfidf(mirror_file("20news_diff/diff.test.tfidf1.data"), vocabulary_size=5000, n_documents=1107)
    settings = SamSettings()
    docs = jnp.asarray(train.documents)
    m = corpus_mean_direction(docs)
    key = jax.random.PRNGKey(0)
    # the code's initialisation: normalize_col(m 1^T + Z / sqrt(n))
    betas = m[None, :, None] + jax.random.normal(key, (10, 5000, 20)) / np.sqrt(5000)
    betas = betas / jnp.linalg.norm(betas, axis=1, keepdims=True)

    start = time.perf_counter()
    result = log_posterior_gradient(key, betas[0], docs, m, settings)
    result.gradient.block_until_ready()
    first = time.perf_counter() - start
    times = []
    for i in range(3):
        start = time.perf_counter()
        result = log_posterior_gradient(jax.random.fold_in(key, i), betas[0], docs, m, settings)
        result.gradient.block_until_ready()
        times.append(time.perf_counter() - start)
    assert bool(jnp.all(jnp.isfinite(result.gradient))) and int(result.n_nonfinite) == 0
    print(f"\nSAM timing: full gradient (D=1666, n=5000, P=20, 1 particle): first call {first:.2f} s "
          f"(with compile), then {min(times):.3f} s; inner acceptance {float(result.acceptance_rate):.4f}")

    start = time.perf_counter()
    value = log_perplexity(key, betas, test.documents, settings.kappa1, settings.alpha)
    value.block_until_ready()
    first = time.perf_counter() - start
    start = time.perf_counter()
    value = log_perplexity(jax.random.fold_in(key, 1), betas, test.documents, settings.kappa1, settings.alpha)
    value.block_until_ready()
    print(f"SAM timing: log-perplexity (10 particles, D_te=1107, T=200): first call {first:.2f} s, "
          f"then {time.perf_counter() - start:.3f} s; value {float(value):.2f}")
    assert np.isfinite(float(value))
