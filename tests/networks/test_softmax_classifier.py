"""NetworkSoftmaxClassifier (Bergamin et al. 2023, Sec. 5.2): the likelihood against torch's
CrossEntropyLoss, the reference-class Fisher against the softmax GGN over all C logits, the
linearised classifier (Sec. 3.2), and the label checks."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import torch

import geobayes  # noqa: F401  (float64)
from geobayes.dataset import Dataset
from geobayes.models import GaussianPrior
from geobayes.networks import (
    ConvolutionalNetwork,
    LinearisedNetworkRegression,
    LinearisedNetworkSoftmaxClassifier,
    MultilayerPerceptron,
    NetworkRegression,
    NetworkSoftmaxClassifier,
    softmax_classifier_posterior,
)
from geobayes.networks.linearise import linearised_posterior
from geobayes.posterior import Posterior

PRIOR_VARIANCE = 2.0


def _mlp_posterior(n: int = 30, seed: int = 0) -> Posterior:
    """A 2-8-3 tanh MLP (51 weights) on three Gaussian blobs."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 3
    X = rng.normal(scale=0.7, size=(n, 2)) + np.array([[1.5, 0.0], [-1.0, 1.2], [-1.0, -1.2]])[y]
    model = NetworkSoftmaxClassifier(network=MultilayerPerceptron((2, 8, 3)), prior=GaussianPrior(PRIOR_VARIANCE))
    return softmax_classifier_posterior("blobs-softmax", model, X, y)


def _cnn_posterior(n: int = 8, seed: int = 1) -> Posterior:
    """A 1 x 10 x 10 -> conv 2@3x3 -> pool 2 -> 4 -> 3 CNN (20 + 132 + 15 = 167 weights)."""
    rng = np.random.default_rng(seed)
    net = ConvolutionalNetwork(image_shape=(1, 10, 10), conv_channels=(2,), kernel_size=3, hidden=(4,),
                               num_classes=3)
    model = NetworkSoftmaxClassifier(network=net, prior=GaussianPrior(PRIOR_VARIANCE))
    return softmax_classifier_posterior("images-cnn", model, rng.uniform(size=(n, 100)), np.arange(n) % 3)


POSTERIORS = {"mlp": _mlp_posterior, "cnn": _cnn_posterior}


def _point(dim: int, seed: int, scale: float = 0.8) -> jax.Array:
    return jnp.asarray(np.random.default_rng(seed).normal(scale=scale, size=dim))


@eqx.filter_jit
def _fisher_and_logit_jacobian(posterior, theta):
    jac = jax.jacfwd(lambda t: posterior.model.logits(t, posterior.data.X))(theta)  # (N, C, D)
    return posterior.fisher(theta), jac


@eqx.filter_jit
def _evaluate(posterior, theta):
    """Everything the model computes at ``theta``, in one compiled call (eager JAX compiles every
    primitive on its own: seconds on a loaded machine)."""
    model, data = posterior.model, posterior.data
    return {"logits": model.predict(theta, data.X), "probabilities": model.probabilities(theta, data.X),
            "log_likelihood": model.log_likelihood(theta, data), "logdensity": posterior.logdensity(theta),
            "terms": model.log_likelihood_terms(theta, data), "embedding": posterior.embed(theta)}


@eqx.filter_jit
def _second_derivative(model, theta, v, X):
    """``d^2/dt^2 logits(theta + t v)`` at ``t = 0``."""
    return jax.jvp(lambda t: jax.jvp(lambda w: model.logits(w, X), (t,), (v,))[1], (theta,), (v,))[1]


def _ggn(jac: np.ndarray, logits: np.ndarray) -> np.ndarray:
    """``sum_n J_n^T (diag p_n - p_n p_n^T) J_n`` over all C logits, by numpy."""
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    lam = np.stack([np.diag(q) - np.outer(q, q) for q in p])
    return np.einsum("nad,nab,nbe->de", jac, lam, jac)


@pytest.mark.parametrize("kind", POSTERIORS)
def test_log_likelihood_is_minus_torch_cross_entropy_sum(kind):
    posterior = POSTERIORS[kind]()
    theta = _point(posterior.dim, 2)
    out = _evaluate(posterior, theta)
    logits = np.array(out["logits"])
    labels = torch.from_numpy(np.array(posterior.data.y)).long()
    cross_entropy = torch.nn.CrossEntropyLoss(reduction="sum")(torch.from_numpy(logits), labels).item()
    assert cross_entropy > 1.0
    assert float(out["log_likelihood"]) == pytest.approx(-cross_entropy, rel=1e-13)
    t = np.asarray(theta)
    logprior = -0.5 * t @ t / PRIOR_VARIANCE - 0.5 * t.size * np.log(2 * np.pi * PRIOR_VARIANCE)
    assert float(out["logdensity"]) == pytest.approx(-cross_entropy + logprior, rel=1e-13)
    per_point = torch.nn.CrossEntropyLoss(reduction="none")(torch.from_numpy(logits), labels).numpy()
    np.testing.assert_allclose(out["terms"], -per_point, rtol=1e-13)


@pytest.mark.parametrize("kind", POSTERIORS)
def test_fisher_is_the_softmax_ggn_over_all_logits_plus_prior_precision(kind):
    posterior = POSTERIORS[kind]()
    theta = _point(posterior.dim, 3)
    fisher, jac = _fisher_and_logit_jacobian(posterior, theta)
    jac = np.asarray(jac)
    assert jac.shape == (posterior.data.X.shape[0], 3, posterior.dim)
    logits = np.asarray(_evaluate(posterior, theta)["logits"])
    expected = _ggn(jac, logits) + np.eye(posterior.dim) / PRIOR_VARIANCE
    np.testing.assert_allclose(fisher, expected, rtol=1e-10, atol=1e-12 * np.abs(expected).max())


def test_embedding_is_the_reference_class_natural_parameters_and_softmax_invariant():
    posterior = _mlp_posterior()
    theta = _point(posterior.dim, 4)
    out = _evaluate(posterior, theta)
    logits, eta = out["logits"], out["embedding"]
    assert eta.shape == (30, 2)
    np.testing.assert_allclose(eta, logits[:, :2] - logits[:, 2:], rtol=1e-14)
    # shifting every output bias by the same constant leaves the likelihood and embedding alone
    shifted = _evaluate(posterior, theta.at[-3:].add(1.7))
    assert float(np.max(np.abs(shifted["logits"] - logits - 1.7))) < 1e-12
    np.testing.assert_allclose(shifted["embedding"], eta, rtol=1e-12, atol=1e-13)
    assert float(shifted["log_likelihood"]) == pytest.approx(float(out["log_likelihood"]), rel=1e-13)


@pytest.mark.parametrize("kind", POSTERIORS)
def test_probabilities_are_the_softmax_and_sum_to_one(kind):
    posterior = POSTERIORS[kind]()
    theta = _point(posterior.dim, 5, scale=2.0)
    out = _evaluate(posterior, theta)
    p = np.asarray(out["probabilities"])
    assert p.shape == (posterior.data.X.shape[0], 3) and np.all(p > 0)
    np.testing.assert_allclose(p.sum(1), 1.0, rtol=1e-14)
    logits = torch.from_numpy(np.array(out["logits"]))
    np.testing.assert_allclose(p, torch.softmax(logits, dim=1).numpy(), rtol=1e-13)
    assert posterior.model.num_classes == 3 and posterior.dim == posterior.model.network.num_parameters


# ----------------------------------------------------------------------------------------
# linearised classifier


@eqx.filter_jit
def _linearised_matrices(posterior, linear, anchor, far):
    X = posterior.data.X
    return (jax.jacfwd(lambda w: posterior.model.logits(w, X))(anchor), posterior.fisher(anchor),
            posterior.hessian(far), linear.hessian(far), linear.fisher(far))


@pytest.mark.parametrize("kind", POSTERIORS)
def test_linearised_classifier_equals_the_network_at_the_anchor_and_is_affine(kind):
    posterior = POSTERIORS[kind]()
    anchor = _point(posterior.dim, 6)
    linear = linearised_posterior(posterior, anchor)
    assert type(linear.model) is LinearisedNetworkSoftmaxClassifier
    assert linear.data is posterior.data and linear.name == posterior.name
    assert linear.model.prior == posterior.model.prior
    at_anchor, network_at_anchor = _evaluate(linear, anchor), _evaluate(posterior, anchor)
    for key in ("logits", "probabilities", "embedding", "logdensity"):
        np.testing.assert_allclose(at_anchor[key], network_at_anchor[key], rtol=1e-14)
    # affine: the second directional derivative of the logits vanishes, the network's does not
    far, v, X = anchor + _point(posterior.dim, 7, scale=0.6), _point(posterior.dim, 8), posterior.data.X
    np.testing.assert_allclose(_second_derivative(linear.model, far, v, X), 0.0, atol=1e-12)
    assert float(jnp.max(jnp.abs(_second_derivative(posterior.model, far, v, X)))) > 1e-2


def test_linearised_classifier_hessian_is_the_ggn_at_the_linearised_logits():
    """Bergamin et al. (2023), Sec. 3.2: constant Jacobian ``J_anchor``, so ``-Hessian`` is
    ``J_anchor^T (diag p - p p^T) J_anchor + prior precision`` everywhere, with ``p`` the softmax of
    the current linearised logits (not constant in theta, unlike the Gaussian case), and at the
    anchor the network's GGN (lin-LA's precision)."""
    posterior = _mlp_posterior()
    anchor = _point(posterior.dim, 6)
    linear = linearised_posterior(posterior, anchor)
    far = anchor + _point(posterior.dim, 7, scale=0.6)
    jac_anchor, fisher_anchor, network_hess_far, hessian_far, fisher_far = _linearised_matrices(
        posterior, linear, anchor, far)
    linear_far, network_far = _evaluate(linear, far)["logits"], _evaluate(posterior, far)["logits"]
    expected = _evaluate(posterior, anchor)["logits"] + jnp.einsum("ncd,d->nc", jac_anchor, far - anchor)
    np.testing.assert_allclose(linear_far, expected, rtol=1e-12, atol=1e-13)
    assert float(jnp.max(jnp.abs(linear_far - network_far))) > 1e-2
    prior_precision = np.eye(posterior.dim) / PRIOR_VARIANCE
    ggns = [_ggn(np.asarray(jac_anchor), np.asarray(_evaluate(linear, t)["logits"])) + prior_precision
            for t in (anchor, far)]
    np.testing.assert_allclose(ggns[0], fisher_anchor, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(-hessian_far, ggns[1], rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(fisher_far, ggns[1], rtol=1e-10, atol=1e-12)
    assert float(np.max(np.abs(ggns[1] - ggns[0]))) > 1e-3  # the GGN moves with the logits
    assert float(np.max(np.abs(-network_hess_far - ggns[1]))) > 1e-2  # and is not the network's Hessian


def test_linearise_dispatches_by_model_and_refuses_a_linearised_one():
    regression = Posterior("toy-mlp", NetworkRegression(network=MultilayerPerceptron((1, 3, 1))),
                           Dataset(np.ones((4, 1)), np.zeros(4)))
    assert type(linearised_posterior(regression, jnp.zeros(10)).model) is LinearisedNetworkRegression
    linear = linearised_posterior(_mlp_posterior(), jnp.zeros(51))
    with pytest.raises(TypeError, match="blobs-softmax: linearisation needs .*got LinearisedNetworkSoftmaxClassifier"):
        linearised_posterior(linear, jnp.zeros(51))


# ----------------------------------------------------------------------------------------
# construction checks


@pytest.mark.parametrize("labels, bad", [([0, 1, 3, 2], "3.0 at index 2"), ([0, 1.5, 2, 0], "1.5 at index 1"),
                                         ([0, -1, 2, 0], "-1.0 at index 1")])
def test_labels_must_be_class_indices(labels, bad):
    model = NetworkSoftmaxClassifier(network=MultilayerPerceptron((2, 3)))
    with pytest.raises(ValueError, match=rf"toy-softmax: labels must be class indices 0 \.\. 2, got {bad}"):
        softmax_classifier_posterior("toy-softmax", model, np.zeros((4, 2)), labels)


def test_classifier_needs_a_network_with_two_outputs():
    with pytest.raises(ValueError, match="MultilayerPerceptron.*ConvolutionalNetwork"):
        NetworkSoftmaxClassifier()
    with pytest.raises(ValueError, match=">= 2 outputs"):
        NetworkSoftmaxClassifier(network=MultilayerPerceptron((2, 4, 1)))
    with pytest.raises(ValueError, match="anchor"):
        LinearisedNetworkSoftmaxClassifier(network=MultilayerPerceptron((2, 3)))


def test_chunked_fisher_equals_the_generic_pullback_under_jit():
    """The classifier's Fisher (chunked per-example Jacobians, what the CNN needs: the generic
    jacfwd path asked for 67 GB on 1,000 MNIST images) equals the family's pullback, for the
    network and its linearisation, also compiled (traced labels)."""
    from softmax_posteriors import blobs_softmax_posterior

    posterior = blobs_softmax_posterior()
    theta = 0.5 * jax.random.normal(jax.random.PRNGKey(3), (posterior.dim,))
    for model in (posterior.model, posterior.model.linearised(theta + 0.1)):
        chunked = jax.jit(lambda t, m=model: m.fisher(t, posterior.data))(theta)
        np.testing.assert_allclose(chunked, model.fisher_generic(theta, posterior.data), rtol=1e-12, atol=1e-12)
