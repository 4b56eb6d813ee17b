"""The classifiers' Monte Carlo predictive (Bergamin et al. 2023, notes Sec. 1.6 step 7) and the
confidence-map grid."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from softmax_posteriors import blobs_softmax_posterior

from geobayes.networks.classifier_predictive import _point_mass_once, grid_points, predictive_probabilities

POSTERIOR = blobs_softmax_posterior()
X_NEW = np.random.default_rng(1).normal(size=(17, 2))
THETA = np.random.default_rng(2).normal(scale=0.5, size=(4, POSTERIOR.dim))


def test_predictive_is_the_mean_softmax_of_the_samples_in_any_chunking():
    network = POSTERIOR.model.network
    expected = np.mean([np.asarray(jax.nn.softmax(network(jnp.asarray(t), X_NEW), axis=-1)) for t in THETA], axis=0)
    for chunk in (17, 5, 1):
        got = predictive_probabilities(POSTERIOR, THETA, X_NEW, chunk_size=chunk)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, atol=1e-12)


def test_linearised_predictive_uses_the_network_linearised_at_the_anchor():
    network, anchor = POSTERIOR.model.network, jnp.asarray(THETA[0])
    f0, jvp = jax.linearize(lambda w: network(w, X_NEW), anchor)
    expected = np.mean([np.asarray(jax.nn.softmax(f0 + jvp(jnp.asarray(t) - anchor), axis=-1)) for t in THETA], axis=0)
    got = predictive_probabilities(POSTERIOR, THETA, X_NEW, linearised_at=anchor, chunk_size=6)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)
    # at the anchor itself the linearised and the plain network agree; elsewhere they differ
    at_anchor = predictive_probabilities(POSTERIOR, THETA[:1], X_NEW, linearised_at=anchor)
    np.testing.assert_allclose(at_anchor, predictive_probabilities(POSTERIOR, THETA[:1], X_NEW), rtol=1e-12)
    assert np.max(np.abs(got - predictive_probabilities(POSTERIOR, THETA, X_NEW))) > 1e-3


def test_a_point_mass_is_evaluated_once_with_the_same_predictive():
    copies = np.repeat(THETA[:1], 5, axis=0)  # the MAP method's draws: one weight vector S times
    assert _point_mass_once(copies).shape == (1, POSTERIOR.dim)
    assert _point_mass_once(THETA).shape == THETA.shape  # distinct draws: every one evaluated
    for at in (None, jnp.asarray(THETA[1])):
        np.testing.assert_allclose(predictive_probabilities(POSTERIOR, copies, X_NEW, linearised_at=at),
                                   predictive_probabilities(POSTERIOR, THETA[:1], X_NEW, linearised_at=at),
                                   rtol=1e-15, atol=0)


def test_bad_samples_and_inputs_are_named():
    with pytest.raises(ValueError, match=r"theta_samples must have shape \(S, D\) with S >= 1"):
        predictive_probabilities(POSTERIOR, np.zeros((0, POSTERIOR.dim)), X_NEW)
    with pytest.raises(ValueError, match=r"inputs must be \(M >= 1, d_in\)"):
        predictive_probabilities(POSTERIOR, THETA, X_NEW[0])


def test_grid_points_put_x1_fastest():
    axis, points = grid_points(-2.0, 2.0, 5)
    np.testing.assert_allclose(axis, np.linspace(-2, 2, 5))
    assert points.shape == (25, 2)
    assert tuple(points.reshape(5, 5, 2)[1, 3]) == (axis[3], axis[1])
    with pytest.raises(ValueError, match="finite lo < hi and points >= 2"):
        grid_points(2.0, -2.0, 5)
