"""Predictive variance of the App. D classifier over the input plane (Hartmann et al. 2026, Fig. 8)."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import geobayes  # noqa: F401  (float64)
from geobayes.metrics.classifier_variance import distance_to_data, input_grid, predictive_moments
from geobayes.networks.classifier_posterior import build_classifier_posterior


def test_grid_covers_the_data_with_margin_and_distances_are_exact():
    X = np.array([[0.0, 0.0], [1.0, 2.0]])
    grid = input_grid(X, 5, 0.5)
    assert grid.points.shape == (25, 2)
    np.testing.assert_allclose([grid.x1[0], grid.x1[-1], grid.x2[0], grid.x2[-1]], [-0.5, 1.5, -0.5, 2.5])
    np.testing.assert_allclose(grid.points.reshape(5, 5, 2)[1, 3], [grid.x1[3], grid.x2[1]])
    np.testing.assert_allclose(distance_to_data(np.array([[3.0, 4.0], [1.0, 1.0]]), X), [np.sqrt(8.0), 1.0])
    with pytest.raises(ValueError, match=r"\(n, 2\)"):
        input_grid(np.zeros((3, 3)), 5, 0.5)


def test_moments_match_direct_numpy_over_chunks():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(6, 2))
    posterior = build_classifier_posterior({"hidden": [3], "activation": "silu", "prior_variance": 1.0}, X,
                                           (X[:, 0] > 0).astype(float))
    theta = rng.normal(size=(11, posterior.dim))
    logits = np.stack([np.asarray(posterior.model.predict(t, X)) for t in theta])
    p = 1.0 / (1.0 + np.exp(-logits))
    moments = predictive_moments(posterior, theta, X, chunk=4)  # 3 chunks, the last partial
    np.testing.assert_allclose(moments.mean, p.mean(0), rtol=1e-12)
    np.testing.assert_allclose(moments.variance, p.var(0), rtol=1e-10)
    np.testing.assert_allclose(moments.logit_variance, logits.var(0), rtol=1e-10)
    # identical samples: zero variance
    assert np.all(predictive_moments(posterior, np.repeat(theta[:1], 3, 0), X).variance == 0.0)
    with pytest.raises(ValueError, match="at least 2 samples"):
        predictive_moments(posterior, theta[:1], X)
