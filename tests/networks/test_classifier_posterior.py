"""The App. D classifier posterior of Hartmann et al. (2026) and its initialisations."""

from __future__ import annotations

import numpy as np
import pytest

import geobayes  # noqa: F401  (float64)
from geobayes.networks.classifier_posterior import build_classifier_posterior, initial_weights

PAPER = {"hidden": [15, 15], "activation": "silu", "prior_variance": 1.0}


def test_paper_network_has_301_weights_and_inits_differ_per_optimum():
    X, y = np.zeros((4, 2)), np.array([0.0, 1.0, 0.0, 1.0])
    posterior = build_classifier_posterior(PAPER, X, y)
    assert posterior.dim == 301 and posterior.model.network.activation == "silu"
    a, b = initial_weights(posterior, "torch", 1, 0), initial_weights(posterior, "torch", 1, 1)
    np.testing.assert_array_equal(a, initial_weights(posterior, "torch", 1, 0))
    assert not np.allclose(a, b) and a.shape == (301,)
    # torch's U(-1/sqrt(fan_in), 1/sqrt(fan_in)): the first layer's bound is 1/sqrt(2)
    assert np.max(np.abs(a[:45])) <= 1 / np.sqrt(2) and np.max(np.abs(a[45:])) <= 1 / np.sqrt(15)
    # prior draws: N(0, 1) per weight (301 of them: the sample std is within 15 % of 1)
    draw = np.asarray(initial_weights(posterior, "prior", 1, 0))
    assert abs(draw.std() - 1.0) < 0.15 and not np.allclose(draw, initial_weights(posterior, "prior", 1, 1))
    with pytest.raises(ValueError, match="bnn_classifier.init"):
        initial_weights(posterior, "glorot", 1, 0)


def test_bad_data_is_an_error():
    with pytest.raises(ValueError, match="labels must be 0 or 1"):
        build_classifier_posterior(PAPER, np.zeros((2, 2)), np.array([0.0, 2.0]))
    with pytest.raises(ValueError, match=r"X must be \(n, d\)"):
        build_classifier_posterior(PAPER, np.zeros(2), np.array([0.0, 1.0]))
