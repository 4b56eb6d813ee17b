"""Gaussian and horseshoe priors of Yu et al. (2023), Sec. 4.3, as bnn_priors computes them."""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.stats import halfcauchy, norm

from geobayes.networks.bnn_priors import (
    PRIORS,
    GaussianPrior,
    HorseshoePosition,
    HorseshoePrior,
    prior_from_name,
    softplus_inverse,
)
from geobayes.networks.dense_relu_classifier import init_parameters, logits

WIDTHS = (4, 3, 3, 2)


@pytest.fixture
def network():
    return init_parameters(jax.random.key(0), WIDTHS)


def _sigmas(network):
    # weights 1.41/sqrt(fan_in), biases 1.0 (notes Sec. 3.4 [C]); by hand for this network
    return [1.41 / 2.0, 1.0, 1.41 / math.sqrt(3), 1.0, 1.41 / math.sqrt(3), 1.0]


def test_gaussian_log_prior_equals_scipy(network):
    prior = GaussianPrior()
    expected = sum(norm.logpdf(np.asarray(p), 0.0, s).sum() for p, s in zip(network, _sigmas(network)))
    assert float(prior.log_prior(prior.init_position(network))) == pytest.approx(expected, rel=1e-13)
    # the bias scale is NOT fan-in scaled: a bias of 1.0 in a 4-input layer has density N(1 | 0, 1)
    other = GaussianPrior(weight_scale=2.0, bias_scale=0.5)
    sig = [2.0 / 2.0, 0.5, 2.0 / math.sqrt(3), 0.5, 2.0 / math.sqrt(3), 0.5]
    expected = sum(norm.logpdf(np.asarray(p), 0.0, s).sum() for p, s in zip(network, sig))
    assert float(other.log_prior(network)) == pytest.approx(expected, rel=1e-13)


def test_horseshoe_position_has_one_scalar_per_tensor(network):
    prior = HorseshoePrior()
    position = prior.init_position(network)
    assert isinstance(position, HorseshoePosition)
    leaves = jax.tree_util.tree_leaves(position)
    assert len(leaves) == 2 * len(network)
    assert [jnp.shape(p) for p in position.scale_logits] == [()] * len(network)
    # lambda = softplus(p) = 1 at initialisation (bnn_priors: p = inv_softplus(1))
    np.testing.assert_allclose([float(jax.nn.softplus(p)) for p in position.scale_logits], 1.0, rtol=1e-15)
    np.testing.assert_allclose([float(s) for s in prior.scales(position)], _sigmas(network), rtol=1e-15)
    # the network sees only the tensors
    x = jnp.ones((2, 4))
    np.testing.assert_array_equal(logits(prior.network_parameters(position), x), logits(network, x))


def _hand_horseshoe(network, p_values):
    total = 0.0
    for theta, p, sigma in zip(network, p_values, _sigmas(network)):
        scale = math.log1p(math.exp(p)) * sigma
        total += norm.logpdf(np.asarray(theta), 0.0, scale).sum()
        total += halfcauchy.logpdf(scale)  # at the product softplus(p)*sigma, no softplus Jacobian
    return total


def test_horseshoe_log_prior_equals_hand_computation(network):
    p_values = [0.3, -1.2, 2.0, softplus_inverse(1.0), -0.1, 0.7]
    position = HorseshoePosition(network, [jnp.asarray(p) for p in p_values])
    value = float(HorseshoePrior().log_prior(position))
    assert value == pytest.approx(_hand_horseshoe(network, p_values), rel=1e-13)
    # adding the softplus Jacobian log sigmoid(p) would change it: the test sees the difference
    jacobian = sum(math.log(1.0 / (1.0 + math.exp(-p))) for p in p_values)
    assert abs(jacobian) > 1.0


def test_horseshoe_matches_torch_distributions(network):
    torch = pytest.importorskip("torch")
    td = torch.distributions
    p_values = [0.3, -1.2, 2.0, 0.1, -0.1, 0.7]
    total = torch.tensor(0.0, dtype=torch.float64)
    for theta, p, sigma in zip(network, p_values, _sigmas(network)):
        scale = torch.nn.functional.softplus(torch.tensor(p, dtype=torch.float64)) * sigma
        total = total + td.Normal(0.0, scale).log_prob(torch.tensor(np.array(theta))).sum()
        total = total + td.HalfCauchy(torch.tensor(1.0, dtype=torch.float64)).log_prob(scale).sum()
    position = HorseshoePosition(network, [jnp.asarray(p) for p in p_values])
    assert float(HorseshoePrior().log_prior(position)) == pytest.approx(float(total), rel=1e-12)


def test_gradients_are_finite_and_reach_the_scales(network):
    prior = HorseshoePrior()
    position = prior.init_position(network)
    grad = jax.grad(prior.log_prior)(position)
    assert all(bool(jnp.all(jnp.isfinite(g))) for g in jax.tree_util.tree_leaves(grad))
    assert all(float(jnp.abs(g)) > 0 for g in grad.scale_logits)
    # d/dp at p: finite-difference check on one scale
    eps = 1e-6

    def at(p0):
        logits_ = list(position.scale_logits)
        logits_[2] = jnp.asarray(p0)
        return float(prior.log_prior(HorseshoePosition(position.network, logits_)))

    p = float(position.scale_logits[2])
    assert float(grad.scale_logits[2]) == pytest.approx((at(p + eps) - at(p - eps)) / (2 * eps), rel=1e-6)
    gauss = GaussianPrior()
    g = jax.grad(gauss.log_prior)(network)
    np.testing.assert_allclose(g[0], -np.asarray(network[0]) / (1.41 / 2.0) ** 2, rtol=1e-13)


def test_registry_and_errors(network):
    assert set(PRIORS) == {"gaussian", "horseshoe"}
    assert isinstance(prior_from_name("horseshoe"), HorseshoePrior)
    assert prior_from_name("gaussian", weight_scale=1.0).weight_scale == 1.0
    with pytest.raises(ValueError, match="unknown prior 'laplace'; known: gaussian, horseshoe"):
        prior_from_name("laplace")
    with pytest.raises(ValueError, match="weight_scale must be a finite number > 0"):
        GaussianPrior(weight_scale=-1.0)
    with pytest.raises(ValueError, match="hyperscale"):
        HorseshoePrior(hyperscale=0.0)
    with pytest.raises(ValueError, match="one per tensor"):
        HorseshoePrior().log_prior(HorseshoePosition(network, [jnp.asarray(0.0)]))
    with pytest.raises(ValueError, match="must be a scalar"):
        HorseshoePrior().log_prior(HorseshoePosition(network, [jnp.zeros(2)] * 6))
    with pytest.raises(ValueError, match="HorseshoePosition"):
        HorseshoePrior().log_prior(network)
