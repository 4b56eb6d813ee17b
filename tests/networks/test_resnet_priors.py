"""ResNet-20 priors of Yu et al. (2023), Sec. 4.4 (notes Secs. 3.5, 8.3, 8.4 items 1, 3)."""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.stats import multivariate_normal, norm

from geobayes.networks.resnet20 import init_batch_norm_state, init_parameters, log_likelihoods, parameter_kinds
from geobayes.networks.resnet_priors import (
    PRIORS,
    ResNetCorrelatedNormalPrior,
    ResNetGaussianPrior,
    kernel_correlation,
    prior_from_name,
)
from geobayes.sgmcmc import build_preconditioner, sgrld, stateful_minibatch_potential_gradient
from geobayes.sgmcmc.classifier_chain import ChainSchedule, sample_classifier

KINDS = parameter_kinds()


@pytest.fixture(scope="module")
def network():
    return init_parameters(jax.random.key(0))


def _gaussian_terms(p, kind):
    """scipy log density of one non-BN tensor under the independent Gaussian (C_in, not C_in k^2)."""
    p = np.asarray(p)
    sigma = 1.0 if kind == "dense_bias" else 1.41 / math.sqrt(p.shape[1])
    return norm.logpdf(p, 0.0, sigma).sum()


def _exponential_kernel(k, lengthscale=1.0):
    positions = [(i, j) for i in range(k) for j in range(k)]  # row-major, as W[o, i].reshape(-1)
    return np.array([[math.exp(-math.dist(a, b) / lengthscale) for b in positions] for a in positions])


def test_gaussian_prior_equals_scipy(network):
    prior = ResNetGaussianPrior()
    expected = sum(_gaussian_terms(p, k) for p, k in zip(network, KINDS) if not k.startswith("bn"))
    assert float(prior.log_prior(prior.init_position(network))) == pytest.approx(expected, rel=1e-12)
    # first conv: sigma = 1.41 / sqrt(3) (3 input channels), not 1.41 / sqrt(27)
    one = [jnp.zeros_like(p) for p in network]
    one[0] = one[0].at[0, 0, 0, 0].set(1.0)
    diff = float(prior.log_prior(one) - prior.log_prior([jnp.zeros_like(p) for p in network]))
    assert diff == pytest.approx(-0.5 * 3 / 1.41 ** 2, rel=1e-9)  # a difference of two large sums


def test_correlated_prior_equals_scipy_mvn(network):
    prior = ResNetCorrelatedNormalPrior()
    np.testing.assert_allclose(kernel_correlation(3), _exponential_kernel(3), rtol=1e-15)
    assert kernel_correlation(3)[0, 4] == pytest.approx(math.exp(-math.sqrt(2)))
    expected = 0.0
    for p, kind in zip(network, KINDS):
        p = np.asarray(p)
        if kind == "conv" and p.shape[-1] == 3:
            cov = (1.41 / math.sqrt(p.shape[1])) ** 2 * _exponential_kernel(3)
            expected += multivariate_normal(np.zeros(9), cov).logpdf(p.reshape(-1, 9)).sum()
        elif not kind.startswith("bn"):  # 1x1 shortcut convs and the dense layer: Gaussian
            expected += _gaussian_terms(p, kind)
    assert float(prior.log_prior(prior.init_position(network))) == pytest.approx(expected, rel=1e-12)


def test_correlated_prior_on_one_small_kernel(network):
    # changing one 3x3 kernel W[2, 1] of a 16 -> 16 conv changes the log prior by its MVN difference
    prior, t = ResNetCorrelatedNormalPrior(lengthscale=0.7), 3
    kernel = np.random.default_rng(0).normal(size=(3, 3))
    changed = list(network)
    changed[t] = network[t].at[2, 1].set(kernel)
    mvn = multivariate_normal(np.zeros(9), (1.41 / 4) ** 2 * _exponential_kernel(3, 0.7))
    expected = mvn.logpdf(kernel.reshape(9)) - mvn.logpdf(np.asarray(network[t][2, 1]).reshape(9))
    assert float(prior.log_prior(changed) - prior.log_prior(network)) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("name", ["gaussian", "correlated"])
def test_batch_norm_parameters_are_flat(network, name):
    prior = prior_from_name(name)
    moved = [p + 3.0 if k.startswith("bn") else p for p, k in zip(network, KINDS)]
    assert float(prior.log_prior(moved)) == float(prior.log_prior(network))
    grads = jax.jit(jax.grad(prior.log_prior))(network)
    assert all(float(jnp.max(jnp.abs(g))) == 0.0 for g, k in zip(grads, KINDS) if k.startswith("bn"))
    assert prior.network_parameters(prior.init_position(network)) == list(network)


def test_registry_and_errors(network):
    assert PRIORS == {"gaussian": ResNetGaussianPrior, "correlated": ResNetCorrelatedNormalPrior}
    with pytest.raises(ValueError, match="unknown prior 'horseshoe'; known: gaussian, correlated"):
        prior_from_name("horseshoe")
    with pytest.raises(ValueError, match="lengthscale must be a finite number > 0"):
        ResNetCorrelatedNormalPrior(lengthscale=0.0)
    with pytest.raises(ValueError, match=r"params\[0\] \(stem.conv\)"):
        ResNetGaussianPrior().init_position([network[0][:1]] + network[1:])


def test_shampoo_sgrld_chain_on_a_cifar_shaped_batch_keeps_each_samples_batch_norm_statistics(network):
    """A Shampoo-SGRLD step through ResNet-20 under the correlated prior, in train mode as the code
    runs its chains (notes Sec. 8.4 item 16): the BatchNorm running statistics are updated by the
    step, threaded by the driver (``model_state``) and kept with the sample; the kept position and
    state are finite, every statistic has moved from PyTorch's initial (0, 1), and the sample
    evaluates in eval mode with its own statistics. (Threading across several steps:
    tests/sgmcmc/test_model_state.py.)"""
    prior = ResNetCorrelatedNormalPrior()
    initial = init_batch_norm_state()
    x = jax.random.normal(jax.random.key(1), (4, 3, 32, 32), jnp.float64)
    y = jnp.array([0, 1, 2, 3])

    def train_log_likelihoods(position, bn_state, data):
        return log_likelihoods(prior.network_parameters(position), bn_state, *data, train=True)

    gradient_fn = stateful_minibatch_potential_gradient(train_log_likelihoods, prior.log_prior, num_data=4)
    shampoo = build_preconditioner("shampoo", {"update_interval": 1, "first_preconditioner_step": 1})
    kept = []
    # an RBG key: each step draws noise for 65 tensors, which threefry keys make slow to compile
    run = sample_classifier(jax.random.key(2, impl="rbg"), sgrld(shampoo, 0.01, num_data=4),
                            prior.init_position(network), gradient_fn, (x, y),
                            ChainSchedule(epochs=1, batch_size=4, burn_in=0, thinning=1),
                            lambda epoch, samples: kept.append(samples), model_state=initial)
    assert run.diverged_epoch is None and run.kept_per_epoch == [1]
    positions, states = kept[0]
    assert all(np.isfinite(np.asarray(leaf)).all() for leaf in jax.tree.leaves((positions, states)))
    assert len(states) == len(initial)
    assert all(not np.array_equal(kept_state[0], start) for kept_state, start in zip(states, initial))
    last = jax.tree.map(lambda leaf: leaf[-1], positions)
    assert any(not np.array_equal(a, b) for a, b in zip(prior.network_parameters(last), network))
    assert bool(jnp.isfinite(prior.log_prior(last)))
    evaluated = log_likelihoods(prior.network_parameters(last), [s[-1] for s in states], x, y, train=False)[0]
    assert np.isfinite(np.asarray(evaluated)).all()
