"""A model's own state (BatchNorm running statistics) threaded through SGRLD chains.

Yu et al.'s (2023) CIFAR-10 ResNet-20 updates its running statistics in train mode at every SGLD
step and saves them with each sample (notes Sec. 8.4 item 16): ``run_chain(..., model_state=...)``.
The ResNet-20 chain itself is tested in tests/networks/test_resnet_priors.py.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.sgmcmc import (IdentityPreconditioner, SGRLDInfo, init, minibatch_potential_gradient, run_chain, sgrld,
                             stateful_minibatch_potential_gradient)

MOMENTUM = 0.1  # PyTorch's BatchNorm momentum


def _gaussian_log_likelihoods(position, data):
    return -0.5 * (data - position["x"]) ** 2


def _running_mean_log_likelihoods(position, state, data):
    """The Gaussian likelihood and a BatchNorm-like state: the running mean of the batches."""
    return _gaussian_log_likelihoods(position, data), (1 - MOMENTUM) * state + MOMENTUM * jnp.mean(data)


def _log_prior(position):
    return -0.5 * jnp.sum(position["x"] ** 2)


def test_kept_states_follow_the_running_mean_and_the_positions_are_those_of_the_stateless_chain():
    data = jnp.arange(20.0)
    algorithm = sgrld(IdentityPreconditioner(), 0.05, num_data=20)
    state = algorithm.init({"x": jnp.zeros(())})
    options = dict(num_epochs=3, data=data, batch_size=20, thinning=1)  # one batch (all data) per step
    stateful = stateful_minibatch_potential_gradient(_running_mean_log_likelihoods, _log_prior, 20)
    (final, final_model), (positions, models), info = run_chain(jax.random.key(3), algorithm.step, state, stateful,
                                                                model_state=jnp.zeros(()), **options)
    # after k steps on the whole data set the running mean is (1 - 0.9^k) mean(data)
    expected = (1 - (1 - MOMENTUM) ** np.arange(1, 4)) * float(jnp.mean(data))
    np.testing.assert_allclose(models, expected, rtol=1e-14)
    assert float(final_model) == float(models[-1]) and int(final.step) == 3 and info.drift_norm.shape == (3,)
    # the state rides beside the chain: the same key gives the stateless chain's positions bit for bit
    stateless = minibatch_potential_gradient(_gaussian_log_likelihoods, _log_prior, 20)
    plain_final, plain_positions, _ = run_chain(jax.random.key(3), algorithm.step, state, stateless, **options)
    np.testing.assert_array_equal(positions["x"], plain_positions["x"])
    np.testing.assert_array_equal(final.position["x"], plain_final.position["x"])


def _adding_kernel(rng_key, state, gradient):
    position = jax.tree.map(jnp.add, state.position, gradient)
    return state._replace(position=position, step=state.step + 1), SGRLDInfo(jnp.zeros(()), jnp.zeros(()),
                                                                             jnp.asarray(False))


def test_each_step_sees_the_state_of_the_step_before_and_each_sample_keeps_its_own():
    def counting_gradient(position, batch, rng_key, model_state):
        return {"seen": model_state}, model_state + 1

    state = init({"seen": jnp.zeros(())}, IdentityPreconditioner())
    # 4 steps an epoch, a sample after in-epoch step 3: global steps 3 and 7
    (final, model), (positions, models), _ = run_chain(jax.random.key(0), _adding_kernel, state, counting_gradient,
                                                       num_epochs=2, data=jnp.arange(100.0), batch_size=25,
                                                       thinning=3, model_state=jnp.zeros(()))
    np.testing.assert_array_equal(models, [3.0, 7.0])
    np.testing.assert_array_equal(positions["seen"], [0 + 1 + 2, sum(range(7))])
    assert float(model) == 8.0 and float(final.position["seen"]) == sum(range(8))


def test_a_padded_batch_is_refused_with_a_model_state():
    state = init({"seen": jnp.zeros(())}, IdentityPreconditioner())
    with pytest.raises(ValueError, match="batch_size must divide N; got batch_size=30, N=100"):
        run_chain(jax.random.key(0), _adding_kernel, state, None, num_epochs=1, data=jnp.arange(100.0),
                  batch_size=30, model_state=jnp.zeros(()))
