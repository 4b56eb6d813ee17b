"""The epoch loop of SGRLD on a classifier: the code's kept samples, deterministic runs, divergence stops."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.networks import dense_relu_classifier as network
from geobayes.networks.bnn_priors import GaussianPrior
from geobayes.sgmcmc.classifier_chain import ChainSchedule, sample_classifier
from geobayes.sgmcmc.gradient_estimators import minibatch_potential_gradient
from geobayes.sgmcmc.identity import IdentityPreconditioner
from geobayes.sgmcmc.sgrld import sgrld

WIDTHS = (4, 3, 3, 10)
PRIOR = GaussianPrior()


def _problem(n=250):
    rng = np.random.default_rng(0)
    x, y = jnp.asarray(rng.normal(size=(n, 4))), jnp.asarray(rng.integers(0, 10, size=n))

    def log_likelihood(position, data):
        return network.log_likelihoods(position, *data)

    gradient = minibatch_potential_gradient(log_likelihood, PRIOR.log_prior, n)
    return (x, y), gradient, network.init_parameters(jax.random.PRNGKey(0), WIDTHS)


def _run(learning_rate, schedule, key=1):
    train, gradient, position = _problem()
    kept = []
    run = sample_classifier(jax.random.PRNGKey(key), sgrld(IdentityPreconditioner(), learning_rate, 250), position,
                            gradient, train, schedule, lambda epoch, samples: kept.append(samples))
    return run, kept


def test_kept_samples_follow_the_codes_burn_in_and_thinning():
    """250 points in batches of 100: 3 steps an epoch; thinning 1, burn-in 4 steps: 0, 2, 3, 3 kept."""
    run, kept = _run(1e-3, ChainSchedule(epochs=4, batch_size=100, burn_in=4, thinning=1))
    assert run.kept_per_epoch == [0, 2, 3, 3] and run.diverged_epoch is None
    assert [jax.tree.leaves(k)[0].shape[0] for k in kept] == [0, 2, 3, 3]
    assert len(run.epoch_seconds) == 4


def test_same_key_same_samples_other_key_others():
    schedule = ChainSchedule(epochs=2, batch_size=100, burn_in=0, thinning=1)
    first, second, other = (_run(1e-3, schedule, key)[1] for key in (1, 1, 2))
    for a, b in zip(jax.tree.leaves(first), jax.tree.leaves(second)):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(jax.tree.leaves(first)[-1], jax.tree.leaves(other)[-1])


def test_a_chain_that_blows_up_stops_and_says_when():
    run, kept = _run(1e300, ChainSchedule(epochs=5, batch_size=100, burn_in=0, thinning=1))
    assert run.diverged_epoch is not None and len(kept) == run.diverged_epoch < 5


def test_bad_epochs_are_named():
    with pytest.raises(ValueError, match="schedule.epochs must be an integer >= 1"):
        _run(1e-3, ChainSchedule(epochs=0))
