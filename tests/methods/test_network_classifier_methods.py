"""ELA, riem-LA and riem-LA (batches) of Bergamin et al. (2023) on a softmax classifier: a 2-8-3
tanh MLP (51 weights) on 60 points of three classes, at its MAP. The linearised variants are in
test_network_classifier_linearised.py, the CNN and the batches' own checks in test_minibatches.py."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from softmax_posteriors import check_finite_draws, blobs_softmax_posterior, softmax_map, straight_line_deviations

import geobayes  # noqa: F401  (float64)
from geobayes.methods import get_method, method_config
from geobayes.methods.minibatches import StratifiedBatches

N_SAMPLES = 3
METHODS = ("ela", "rla_b", "rla_b_batched")
#: riem-LA (batches) on a stratified full batch, which must give riem-LA's draws.
CONFIG = {"precision": "hessian", "minibatch": {"size": 60, "stratified": True}}

POSTERIOR = blobs_softmax_posterior()
MODE, GRAD, HESSIAN = softmax_map(POSTERIOR)


@pytest.fixture(scope="module")
def fitted():
    return {name: get_method(name).fit(POSTERIOR, method_config(name, CONFIG), jax.random.PRNGKey(0), mode=MODE)
            for name in METHODS}


def test_mode_is_a_maximum():
    assert float(jnp.linalg.norm(GRAD)) < 1e-8
    assert bool(jnp.all(jnp.linalg.eigvalsh(HESSIAN) < 0))


@pytest.mark.parametrize("name", METHODS)
def test_method_draws_finite_samples_on_the_classifier(fitted, name):
    check_finite_draws(fitted[name].approximation, MODE, N_SAMPLES)


def test_tiny_velocity_geodesic_is_the_straight_line_to_first_order(fitted):
    """``Exp_{theta*}(eps v) = theta* + eps v + o(eps)`` (Bergamin et al. 2023, App. B: the geodesic
    starts along ``v`` and bends along ``grad L``, which vanishes at the MAP, so the relative
    deviation even falls as ``eps^2`` there); ELA's draw with the same key is ``theta* + eps v``."""
    deviations = straight_line_deviations(fitted["rla_b"].approximation, fitted["ela"].approximation, MODE,
                                          N_SAMPLES)
    assert np.all(deviations[1e-3] < 1e-4), deviations  # relative deviation -> 0 with eps
    assert np.all(deviations[1e-2] > 30 * deviations[1e-3]), deviations  # faster than eps (measured: eps^2)
    assert np.all(deviations[1.0] > 0.1), deviations  # a posterior-scale velocity bends (measured: ~0.6)


def test_a_stratified_full_batch_is_riem_la(fitted):
    """With ``B = N`` a stratified batch is a permutation of the data and ``N / B = 1``: the same
    velocities give riem-LA's draws up to the solver's rounding."""
    batched = fitted["rla_b_batched"]
    assert batched.stats == {"method": "rla_b_batched", "batch_size": 60, "stratified": True}
    assert isinstance(batched.approximation.batches, StratifiedBatches)
    assert batched.approximation.batches.counts == (30, 20, 10)
    key = jax.random.PRNGKey(3)
    np.testing.assert_allclose(batched.approximation.sample(key, N_SAMPLES).theta,
                               fitted["rla_b"].approximation.sample(key, N_SAMPLES).theta, rtol=1e-6, atol=1e-8)
