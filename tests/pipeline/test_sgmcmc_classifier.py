"""The SGRLD classifier-chain runner over its networks (geobayes.pipeline.sgmcmc_networks): a network with a
state of its own (the ResNet-20's BatchNorm statistics, notes Sec. 8.4 item 16) is trained with the state
threaded through the chain and evaluated with each sample's own state."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.floating_point import floating_point
from geobayes.networks import bnn_priors
from geobayes.networks import dense_relu_classifier as dense
from geobayes.pipeline import sgmcmc_networks
from geobayes.pipeline.sgmcmc_classifier import run_classifier_chain
from geobayes.pipeline.sgmcmc_networks import ClassifierNetwork, classifier_network

WIDTHS = (4, 8, 3)


def _scaled_log_likelihoods(params, state, x, y, train):
    """A BatchNorm-like network: inputs divided by a running mean of |x| (initially 0), batch
    statistics in train mode, the running state at evaluation. Evaluated with the initial state
    it divides by zero, so finite evaluations show that each sample's updated state was used."""
    scale = jnp.mean(jnp.abs(x), axis=0) if train else state
    new_state = 0.9 * state + 0.1 * scale if train else state
    return dense.log_likelihoods(params, x / scale, y), jax.lax.stop_gradient(new_state)


def _scaled_log_softmax(params, state, x):
    return dense.log_softmax(params, x / state)


def _scaled_evaluate(model, x, y):
    return _scaled_log_likelihoods(model[0], model[1], x, y, False)[0]


SCALED = ClassifierNetwork(lambda key, width: dense.init_parameters(key, WIDTHS), bnn_priors.prior_from_name,
                           _scaled_log_likelihoods, _scaled_log_softmax, _scaled_evaluate,
                           lambda: jnp.zeros(WIDTHS[0]), num_classes=WIDTHS[-1])
SETTINGS = {"schedule": {"epochs": 2, "batch_size": 5, "burn_in": 0, "thinning": 2},
            "prior_scales": {"weight_scale": 1.41, "bias_scale": 1.0}, "grad_max": 1.0e6, "temperature": 1.0,
            "curvature": {"inputs": 10, "batch_size": 10, "power_iterations": 3, "every": 1}, "ece_bins": 10}


def _split():
    rng = np.random.default_rng(0)
    parts = {}
    for part, n in (("train", 20), ("valid", 10), ("test", 10)):
        parts[f"X_{part}"] = rng.normal(size=(n, WIDTHS[0]))
        parts[f"y_{part}"] = rng.integers(0, WIDTHS[-1], size=n)
    return parts


def test_a_network_state_is_trained_along_the_chain_and_each_sample_evaluates_with_its_own(monkeypatch):
    monkeypatch.setitem(sgmcmc_networks.NETWORKS, "scaled", SCALED)
    run = lambda: run_classifier_chain(jax.random.key(4), _split(), width=None, prior="gaussian",  # noqa: E731
                                       sampler="identity", sampler_settings={}, learning_rate=0.01, alpha2=None,
                                       settings=SETTINGS, network="scaled")
    result = run()
    record = result.record
    assert record["n_samples"] == 4 and record["n_failed"] == 0 and record["curvature_samples"] == 4
    for name in ("lp", "accuracy", "ece", "valid_lp", "curvature"):
        assert np.isfinite(record[name]), name
    assert np.isfinite(result.curves["test_lp"]).all() and result.curves["samples"].tolist() == [2, 4]
    again = run()
    assert again.record["lp"] == record["lp"] and again.record["curvature"] == record["curvature"]


def test_networks_are_looked_up_by_name_and_check_their_width():
    assert set(sgmcmc_networks.NETWORKS) == {"mlp", "resnet20"}
    assert classifier_network("mlp").initial_state is None
    assert len(classifier_network("resnet20").initial_state()) == 2 * 21  # mean and variance of 21 BN layers
    with pytest.raises(ValueError, match="unknown SGRLD classifier network 'vgg'; known: mlp, resnet20"):
        classifier_network("vgg")
    with pytest.raises(ValueError, match="needs its width N; got width=None"):
        classifier_network("mlp").init_parameters(jax.random.key(0), None)
    with pytest.raises(ValueError, match="has no width to set; got width=400"):
        classifier_network("resnet20").init_parameters(jax.random.key(0), 400)



def test_the_resnet20_entry_evaluates_with_the_given_batch_norm_statistics():
    """The registry's ResNet-20 glue: evaluation mode with the sample's own statistics (not the batch's), the same
    per-example log-likelihoods as the network's own function. (The chain itself: the stateful test above and
    tests/networks/test_resnet_priors.py.)"""
    from geobayes.networks import resnet20

    network = classifier_network("resnet20")
    params = network.init_parameters(jax.random.key(0), None)
    state = [s + 0.5 for s in network.initial_state()]  # statistics other than PyTorch's initial (0, 1)
    x = jax.random.normal(jax.random.key(1), (2, 3, 32, 32), jnp.float64)
    y = jnp.array([3, 7])
    expected = resnet20.log_likelihoods(params, state, x, y, train=False)[0]
    np.testing.assert_array_equal(network.evaluate_log_likelihoods((params, state), x, y), expected)
    assert not np.allclose(expected, resnet20.log_likelihoods(params, network.initial_state(), x, y, train=False)[0])
    assert network.log_likelihoods is resnet20.log_likelihoods and network.log_softmax is resnet20.log_softmax


@pytest.mark.parametrize("sampler, sampler_settings", [
    ("identity", {}),
    # Shampoo's statistics and Newton matrix roots (from step 2 on, every 2 steps) in the same precision
    ("shampoo", {"block_size": 2, "update_interval": 2, "first_preconditioner_step": 2}),
])
def test_a_chain_inside_floating_point_computes_in_that_precision(monkeypatch, sampler, sampler_settings):
    """Config ``experiments.yu2023_mnist.dtype`` (the script wraps the chain in
    ``geobayes.floating_point``): every step, evaluation and curvature runs in the chosen precision and the
    record stays finite in float32, the code's PyTorch default, as in float64."""
    seen = []

    def recording(params, state, x, y, train):
        seen.append((jax.tree.leaves(params)[0].dtype, x.dtype))
        return _scaled_log_likelihoods(params, state, x, y, train)

    monkeypatch.setitem(sgmcmc_networks.NETWORKS, "scaled", SCALED._replace(log_likelihoods=recording))
    records = {}
    for dtype in ("float64", "float32"):
        seen.clear()
        with floating_point(dtype):
            result = run_classifier_chain(jax.random.key(4), _split(), width=None, prior="gaussian", sampler=sampler,
                                          sampler_settings=sampler_settings, learning_rate=0.01, alpha2=None,
                                          settings=SETTINGS, network="scaled")
        assert seen and set(seen) == {(jnp.dtype(dtype), jnp.dtype(dtype))}, (dtype, set(seen))
        records[dtype] = result.record
        assert result.record["dtype"] == dtype
        for name in ("lp", "accuracy", "ece", "valid_lp", "curvature"):
            assert np.isfinite(result.record[name]), (dtype, name)
        assert result.record["n_failed"] == 0 and np.isfinite(result.curves["test_lp"]).all()
    assert records["float32"]["lp"] != records["float64"]["lp"]
