"""lin-LA, lin-riem-LA and lin-riem-LA (batches) of Bergamin et al. (2023) on a softmax classifier
(the 2-8-3 MLP of test_network_classifier_methods.py, at its MAP): the network linearised at the
MAP, plain batches of 40 of the 60 points."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from softmax_posteriors import check_finite_draws, blobs_softmax_posterior, softmax_map, straight_line_deviations

import geobayes  # noqa: F401  (float64)
from geobayes.methods import get_method, method_config
from geobayes.methods.minibatches import UniformBatches
from geobayes.networks import LinearisedNetworkSoftmaxClassifier

N_SAMPLES = 3
METHODS = ("lin_ela", "lin_rla_b", "lin_rla_b_batched")
CONFIG = {"precision": "hessian", "minibatch": {"size": 40}}

POSTERIOR = blobs_softmax_posterior()
MODE, _, _ = softmax_map(POSTERIOR)


@pytest.fixture(scope="module")
def fitted():
    return {name: get_method(name).fit(POSTERIOR, method_config(name, CONFIG), jax.random.PRNGKey(0), mode=MODE)
            for name in METHODS}


@pytest.mark.parametrize("name", METHODS)
def test_method_draws_finite_samples_on_the_classifier(fitted, name):
    check_finite_draws(fitted[name].approximation, MODE, N_SAMPLES)


def test_geodesics_follow_the_linearised_classifier_on_plain_batches(fitted):
    for name in ("lin_rla_b", "lin_rla_b_batched"):
        assert type(fitted[name].approximation.posterior.model) is LinearisedNetworkSoftmaxClassifier
    batched = fitted["lin_rla_b_batched"]
    assert batched.stats == {"method": "lin_rla_b_batched", "batch_size": 40, "stratified": False}
    assert batched.approximation.batches == UniformBatches(60, 40)


def test_linearised_laplace_precision_is_the_ggn(fitted):
    """lin-LA's precision is the softmax GGN plus the prior precision (Bergamin et al. 2023, App. A;
    notes Sec. 1.6): the Fisher of the classifier at the MAP."""
    chol = np.asarray(fitted["lin_ela"].approximation.tangent.precision_cholesky)
    fisher = np.asarray(jax.jit(lambda p, t: p.fisher(t))(POSTERIOR, MODE))
    np.testing.assert_allclose(chol @ chol.T, fisher, rtol=1e-9, atol=1e-10 * np.abs(fisher).max())


def test_tiny_velocity_geodesic_is_the_straight_line_to_first_order(fitted):
    """As for riem-LA: the linearised loss has the network's gradient (zero) at the anchor, so
    ``Exp^lin(eps v) = theta* + eps v + o(eps)``; lin-LA's draw is the straight line."""
    deviations = straight_line_deviations(fitted["lin_rla_b"].approximation, fitted["lin_ela"].approximation,
                                          MODE, N_SAMPLES)
    assert np.all(deviations[1e-3] < 1e-4), deviations
    assert np.all(deviations[1e-2] > 30 * deviations[1e-3]), deviations
    assert np.all(deviations[1.0] > 0.1), deviations
