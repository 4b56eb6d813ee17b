"""Fisher information of the App. D classifier (Hartmann et al. 2026, Fig. 9) and its spectrum summaries."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import geobayes  # noqa: F401  (float64)
from geobayes.metrics.fisher_spectrum import count_above, drop_index, fisher_spectrum, likelihood_fisher
from geobayes.networks.classifier_posterior import build_classifier_posterior, initial_weights

OPTIONS = {"hidden": [3, 2], "activation": "silu", "prior_variance": 2.0}


def _posterior():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(9, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(float)
    return build_classifier_posterior(OPTIONS, X, y), X


def test_classifier_fisher_is_j_transpose_diag_p_one_minus_p_j_plus_prior():
    posterior, X = _posterior()
    theta = initial_weights(posterior, "prior", 3, 0)
    net = posterior.model.network
    # By hand: the logits' Jacobian row by row, p = sigmoid(logit), sum_n p_n (1 - p_n) j_n j_n^T.
    logit = jax.jit(lambda t, x: net(t, x[None])[0, 0])
    gradient = jax.jit(jax.grad(logit))
    by_hand = np.zeros((posterior.dim, posterior.dim))
    for x in jnp.asarray(X):
        row = np.asarray(gradient(theta, x))
        p = 1.0 / (1.0 + np.exp(-float(logit(theta, x))))
        by_hand += p * (1.0 - p) * np.outer(row, row)
    np.testing.assert_allclose(likelihood_fisher(posterior, theta), by_hand, rtol=1e-10, atol=1e-12)
    metric = eqx.filter_jit(lambda post, t: post.fisher(t))(posterior, theta)
    np.testing.assert_allclose(np.asarray(metric), by_hand + np.eye(posterior.dim) / 2.0, rtol=1e-10, atol=1e-12)
    spectrum = fisher_spectrum(by_hand)
    assert np.all(np.diff(spectrum) <= 0)
    # rank <= n = 9 of d = 9 + 8 + 3 = 20: at least 11 numerical zeros
    assert posterior.dim == 20 and np.sum(spectrum > 1e-10 * spectrum[0]) <= 9


def test_drop_index_finds_the_sharpest_gap_above_the_floor():
    eigenvalues = np.concatenate([np.geomspace(100.0, 10.0, 50), np.geomspace(1e-4, 1e-6, 20), np.full(30, 1e-10)])
    assert drop_index(eigenvalues, 1e-12) == 50
    # the drop into the numerical zeros counts even though they are below the floor, the gaps
    # between numerical zeros (here 1e-15 -> 1e-30) never do
    spectrum = np.concatenate([[1e3, 2.0], np.geomspace(1.0, 1e-8, 47), [1e-15, 1e-30, -1e-16]])
    assert drop_index(spectrum, 1e-12) == 49
    assert count_above(eigenvalues, [1e-3, 1e-9]) == {"1e-03": 50, "1e-09": 70}
    assert count_above(eigenvalues, [1.0], relative=False) == {"1e+00": 50}
    # a collapsed network has one direction
    assert drop_index(np.array([5.0, 1e-15, 0.0]), 1e-12) == 1
    with pytest.raises(ValueError, match="positive, finite largest"):
        drop_index(np.zeros(3), 1e-12)
    with pytest.raises(ValueError, match="at least two"):
        drop_index(np.ones(1), 1e-12)
