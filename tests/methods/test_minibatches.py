"""The mini-batched metric of Bergamin et al. (2023, Sec. 3.3): the ``N / B`` scaling of the data
term only, plain and stratified batches (App. D.5: MNIST, 1,000 of 5,000 "respecting the label
frequency"), and riem-LA (batches) on a tiny softmax CNN."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import geobayes  # noqa: F401  (float64)
from geobayes.dataset import Dataset
from geobayes.families import GaussianFixedVariance
from geobayes.methods import get_method, method_config
from geobayes.methods.minibatch_geodesic import Minibatch, MinibatchPosterior
from geobayes.methods.minibatches import StratifiedBatches, UniformBatches
from geobayes.models import GaussianPrior
from geobayes.networks import (
    ConvolutionalNetwork,
    MultilayerPerceptron,
    NetworkRegression,
    NetworkSoftmaxClassifier,
    softmax_classifier_posterior,
)
from geobayes.posterior import Posterior
from geobayes.settings import SettingsError

#: Unequal classes (30 / 20 / 10), so that a stratified batch differs from a uniform one.
LABELS = np.repeat([0, 1, 2], [30, 20, 10])


def test_batch_loss_scales_the_data_term_by_n_over_b_and_not_the_prior():
    rng = np.random.default_rng(0)
    model = NetworkSoftmaxClassifier(network=MultilayerPerceptron((2, 4, 3)), prior=GaussianPrior(0.5))
    posterior = softmax_classifier_posterior("blobs-softmax", model, rng.normal(size=(60, 2)), LABELS)
    batch = np.arange(0, 60, 3)
    data = posterior.data
    subset = eqx.tree_at(lambda d: (d.X, d.y), data, (data.X[batch], data.y[batch]))
    target = MinibatchPosterior(posterior.name, model, subset, jnp.asarray(3.0))
    theta = jnp.asarray(rng.normal(size=posterior.dim))
    expected = 3.0 * model.log_likelihood(theta, subset) + model.prior.logdensity(theta)
    assert float(target.logdensity(theta)) == pytest.approx(float(expected), rel=1e-13)
    assert abs(float(model.prior.logdensity(theta))) > 1.0  # an unscaled prior term is present


@eqx.filter_jit
def _draws(batches, keys):
    return jax.vmap(batches.draw)(keys)


def test_stratified_quotas_follow_the_label_frequencies():
    batches = StratifiedBatches.from_labels(LABELS.astype(float), 40)
    # 40 * (30, 20, 10) / 60 = (20, 13.3, 6.7): floors (20, 13, 6), the last point to class 2
    assert batches.counts == (20, 13, 7) and batches.size == 40
    draws = np.asarray(_draws(batches, jax.random.split(jax.random.PRNGKey(0), 50)))
    assert draws.shape == (50, 40)
    for batch in draws:
        assert len(set(batch)) == 40  # without replacement
        np.testing.assert_array_equal(np.bincount(LABELS[batch], minlength=3), [20, 13, 7])
    # every member of a class is reachable
    assert set(draws[:, 33:].ravel()) == set(np.flatnonzero(LABELS == 2))
    # MNIST: 1,000 of 5,000 balanced images, 100 a class
    assert StratifiedBatches.from_labels(np.repeat(np.arange(10), 500), 1000).counts == (100,) * 10
    # a class whose quota rounds to zero is left out
    assert StratifiedBatches.from_labels(np.array([0, 0, 0, 0, 1]), 2).counts == (2,)


def test_uniform_batches_are_the_previous_draws():
    """Unchanged plain batches: ``jax.random.choice`` without replacement, as before stratification."""
    key = jax.random.PRNGKey(5)
    np.testing.assert_array_equal(UniformBatches(60, 40).draw(key), jax.random.choice(key, 60, (40,), replace=False))


@pytest.mark.parametrize("labels, size, match", [(np.linspace(0, 1, 60), 10, "integer class labels"),
                                                 (LABELS, 61, r"must be in \[1, 60\], got 61")])
def test_stratified_batches_need_labels_and_a_fitting_size(labels, size, match):
    with pytest.raises(ValueError, match=match):
        StratifiedBatches.from_labels(labels, size)


def test_minibatch_settings_take_a_stratified_flag():
    assert Minibatch(5).stratified is False
    config = method_config("rla_b_batched", {"minibatch": {"size": 5, "stratified": True}})
    assert config.minibatch == Minibatch(5, True)
    with pytest.raises(SettingsError, match="approximation.minibatch.stratified: expected true or false, got 'yes'"):
        method_config("rla_b_batched", {"minibatch": {"size": 5, "stratified": "yes"}})
    with pytest.raises(SettingsError, match="approximation.minibatch.stratified: expected true or false"):
        Minibatch(5, 1)


def test_stratified_batches_refuse_regression_responses():
    rng = np.random.default_rng(0)
    model = NetworkRegression(network=MultilayerPerceptron((1, 2, 1)), family=GaussianFixedVariance(0.1))
    posterior = Posterior("toy-mlp", model, Dataset(rng.normal(size=(10, 1)), rng.normal(size=10)))
    config = method_config("rla_b_batched", {"minibatch": {"size": 5, "stratified": True}})
    with pytest.raises(ValueError, match="toy-mlp: approximation.minibatch.stratified: .*integer class labels"):
        get_method("rla_b_batched").fit(posterior, config, jax.random.PRNGKey(0), mode=jnp.zeros(posterior.dim))


def test_cnn_classifier_methods_draw_finite_samples():
    """Conv 1 -> 2 @ 3x3, tanh, pool 2 on 8 x 8 images (8 -> 6 -> 3, 18 features), linear 18 -> 3:
    77 weights. Not at a MAP: the GGN (Fisher) precision is positive definite anywhere."""
    rng = np.random.default_rng(1)
    net = ConvolutionalNetwork(image_shape=(1, 8, 8), conv_channels=(2,), kernel_size=3, hidden=(), num_classes=3)
    model = NetworkSoftmaxClassifier(network=net, prior=GaussianPrior(1.0))
    posterior = softmax_classifier_posterior("images-cnn", model, rng.uniform(size=(12, 64)), np.arange(12) % 3)
    assert posterior.dim == 77
    mode = net.initial_parameters(jax.random.PRNGKey(0))
    for name, extra in (("lin_ela", {}), ("lin_rla_b_batched", {"minibatch": {"size": 6, "stratified": True}})):
        config = method_config(name, {"precision": "fisher", **extra})
        fitted = get_method(name).fit(posterior, config, jax.random.PRNGKey(0), mode=mode)
        draws = fitted.approximation.sample(jax.random.PRNGKey(1), 2)
        assert np.asarray(draws.theta).shape == (2, 77)
        assert bool(np.all(np.asarray(draws.successful))) and np.all(np.isfinite(np.asarray(draws.theta)))
    assert fitted.approximation.batches.counts == (2, 2, 2)
