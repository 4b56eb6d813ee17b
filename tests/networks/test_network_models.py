"""Network models: closed-form GGN Christoffel contraction, Fisher, inferred noise, linearisation,
function samples and the Bernoulli classifier, each against an independent computation."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import geobayes  # noqa: F401  (float64)
from geobayes.dataset import Dataset
from geobayes.families import GaussianFixedVariance
from geobayes.geometry.christoffel import christoffel_contraction
from geobayes.models import GaussianPrior, LogisticRegression
from geobayes.networks import (
    LinearisedNetworkRegression,
    MultilayerPerceptron,
    NetworkClassifier,
    NetworkRegression,
    NetworkRegressionInferredNoise,
)
from geobayes.networks.linearise import linearised_posterior
from geobayes.networks.predictive import FunctionSamples, function_samples
from geobayes.posterior import Posterior

NOISE_VARIANCE = 0.3
PRIOR_VARIANCE = 2.5


def _data(n: int = 40, d_in: int = 1, seed: int = 0) -> Dataset:
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2.0, 2.0, size=(n, d_in))
    y = np.sin(2.0 * X[:, 0]) + 0.2 * rng.normal(size=n)
    return Dataset(X, y)


def _regression(sizes=(1, 5, 1), activation="tanh", seed=0, n=40) -> Posterior:
    net = MultilayerPerceptron(sizes, activation)
    model = NetworkRegression(network=net, prior=GaussianPrior(PRIOR_VARIANCE),
                              family=GaussianFixedVariance(NOISE_VARIANCE))
    return Posterior("toy-mlp", model, _data(n=n, d_in=sizes[0], seed=seed))


def _point(dim: int, seed: int, scale: float = 0.8) -> jax.Array:
    return jnp.asarray(np.random.default_rng(seed).normal(scale=scale, size=dim))


@eqx.filter_jit
def _christoffels(posterior, theta, v):
    """The posterior's contraction, the generic autodiff one, and ``Gamma^k_ij v^i v^j`` from the
    full derivative tensor ``d_k G_ij`` (an independent formula), in one compiled call."""
    G = posterior.fisher(theta)
    dG = jax.jacfwd(posterior.fisher)(theta)  # dG[i, j, k] = d_k G_ij
    term = (jnp.einsum("jki,i,j->k", dG, v, v) + jnp.einsum("ikj,i,j->k", dG, v, v)
            - jnp.einsum("ijk,i,j->k", dG, v, v))
    return (posterior.fisher_christoffel(theta, v), christoffel_contraction(posterior.fisher, theta, v),
            0.5 * jnp.linalg.solve(G, term))


@eqx.filter_jit
def _fisher(target, theta):
    return target.fisher(theta)


@eqx.filter_jit
def _hessian(target, theta):
    return target.hessian(theta)


# ----------------------------------------------------------------------------------------
# fixed-noise regression


@pytest.mark.parametrize("sizes, n", [((1, 5, 1), 40), ((1, 4, 3, 1), 40), ((1, 5, 1), 10), ((1, 4, 3, 1), 20)])
def test_closed_form_christoffel_equals_generic_contraction(sizes, n):
    """N >= D solves with the D x D metric, N < D (D = 16 and 27 here) by the Woodbury identity."""
    posterior = _regression(sizes, n=n)
    assert posterior.model.fisher_christoffel is not None  # the closed form is used
    theta = _point(posterior.dim, 1)
    v = _point(posterior.dim, 2, scale=1.0)
    closed, generic, tensor = _christoffels(posterior, theta, v)
    scale = float(jnp.max(jnp.abs(generic)))
    assert scale > 1e-3  # curved: a non-trivial comparison
    np.testing.assert_allclose(closed, generic, rtol=1e-8, atol=1e-10 * scale)
    np.testing.assert_allclose(tensor, generic, rtol=1e-8, atol=1e-10 * scale)


def test_fisher_is_ggn_plus_prior_precision():
    posterior = _regression((1, 4, 3, 1))
    theta = _point(posterior.dim, 5)
    net, X = posterior.model.network, posterior.data.X
    J = jax.jacfwd(lambda t: net(t, X)[:, 0])(theta)
    assert J.shape == (40, posterior.dim) == (40, 4 * 2 + 3 * 5 + 4)
    expected = J.T @ J / NOISE_VARIANCE + np.eye(posterior.dim) / PRIOR_VARIANCE
    np.testing.assert_allclose(_fisher(posterior, theta), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("linearised", [False, True])
def test_per_example_fisher_equals_the_generic_jacfwd_path(linearised):
    """The regression's Fisher stacks per-example gradients (one reverse pass a point) where the
    generic path runs ``jacfwd`` over the batch: the same matrix, for the network and for its
    linearisation (whose Jacobian is the anchor's, whatever ``theta``)."""
    posterior = _regression((1, 4, 3, 1))
    if linearised:
        posterior = linearised_posterior(posterior, _point(posterior.dim, 15))
    theta = _point(posterior.dim, 16)
    model = posterior.model
    np.testing.assert_allclose(_fisher(posterior, theta), model.fisher_generic(theta, posterior.data),
                               rtol=1e-11, atol=1e-12)


def test_regression_logdensity_and_predict_by_hand():
    posterior = _regression((1, 5, 1))
    theta = _point(16, 6)
    (W1, b1), (W2, b2) = posterior.model.network.unflatten(theta)
    X, y = np.asarray(posterior.data.X), np.asarray(posterior.data.y)
    f = (np.tanh(X @ np.asarray(W1).T + np.asarray(b1)) @ np.asarray(W2).T + np.asarray(b2))[:, 0]
    loglik = np.sum(-0.5 * (y - f) ** 2 / NOISE_VARIANCE - 0.5 * np.log(2 * np.pi * NOISE_VARIANCE))
    t = np.asarray(theta)
    logprior = -0.5 * t @ t / PRIOR_VARIANCE - 0.5 * 16 * np.log(2 * np.pi * PRIOR_VARIANCE)
    assert float(posterior.logdensity(theta)) == pytest.approx(loglik + logprior, rel=1e-12)
    np.testing.assert_allclose(posterior.model.predict(theta, X), f, rtol=1e-12)
    assert float(posterior.model.noise_variance(theta)) == NOISE_VARIANCE
    assert posterior.dim == 16


def test_network_models_need_a_network():
    with pytest.raises(ValueError, match="MultilayerPerceptron"):
        NetworkRegression()
    with pytest.raises(ValueError, match="MultilayerPerceptron"):
        NetworkClassifier(network=(1, 4, 1))


# ----------------------------------------------------------------------------------------
# inferred noise


def _inferred() -> Posterior:
    model = NetworkRegressionInferredNoise(network=MultilayerPerceptron((1, 4, 1)), prior=GaussianPrior(1.0))
    return Posterior("toy-mlpnoise", model, _data())


def test_inferred_noise_dimension_embedding_and_logdensity():
    posterior = _inferred()
    assert posterior.dim == 13 + 1
    theta = _point(14, 7).at[-1].set(-1.3)
    h = posterior.embed(theta)
    f = posterior.model.network(theta[:-1], posterior.data.X)[:, 0]
    assert h.shape == (41,)
    np.testing.assert_allclose(h[:-1], f, rtol=1e-14)
    assert float(h[-1]) == pytest.approx(np.exp(-1.3), rel=1e-14)
    assert float(posterior.model.noise_variance(theta)) == pytest.approx(np.exp(-1.3), rel=1e-14)
    np.testing.assert_allclose(posterior.model.predict(theta, posterior.data.X), f, rtol=1e-14)
    s, y, t = np.exp(-1.3), np.asarray(posterior.data.y), np.asarray(theta)
    expected = (np.sum(-0.5 * (y - np.asarray(f)) ** 2 / s - 0.5 * np.log(2 * np.pi * s))
                - 0.5 * t @ t - 0.5 * 14 * np.log(2 * np.pi))
    assert float(posterior.logdensity(theta)) == pytest.approx(expected, rel=1e-12)


def test_inferred_noise_fisher_has_the_variance_information_block():
    posterior = _inferred()
    theta = _point(14, 8).at[-1].set(0.4)
    G = _fisher(posterior, theta)
    s, n = np.exp(0.4), 40
    # d s / d theta_D = s, information N / (2 s^2): G_DD = N/2 + 1 (prior), no weight coupling
    assert float(G[-1, -1]) == pytest.approx(n / 2 + 1.0, rel=1e-12)
    np.testing.assert_allclose(G[-1, :-1], 0.0, atol=1e-14)
    J = jax.jacfwd(lambda w: posterior.model.network(w, posterior.data.X)[:, 0])(theta[:-1])
    np.testing.assert_allclose(G[:-1, :-1], J.T @ J / s + np.eye(13), rtol=1e-10)


def test_inferred_noise_takes_the_generic_christoffel_path():
    posterior = _inferred()
    assert posterior.model.fisher_christoffel is None
    theta, v = _point(14, 9), _point(14, 19)
    got, generic, tensor = _christoffels(posterior, theta, v)
    np.testing.assert_allclose(got, generic, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(tensor, generic, rtol=1e-8, atol=1e-12)
    # the theta-dependent noise information contributes: the fixed-noise formula (noise variance
    # frozen at exp(theta_D)) is not the answer for the last coordinate
    assert abs(float(generic[-1])) > 1e-3


# ----------------------------------------------------------------------------------------
# linearised network


def _linearised():
    posterior = _regression((1, 5, 1))
    anchor = _point(16, 11)
    return posterior, anchor, linearised_posterior(posterior, anchor)


def test_linearised_predictions_at_and_away_from_the_anchor():
    posterior, anchor, linear = _linearised()
    assert type(linear.model) is LinearisedNetworkRegression
    assert linear.data is posterior.data and linear.name == posterior.name
    assert linear.model.prior == posterior.model.prior and linear.model.family == posterior.model.family
    X = jnp.linspace(-3.0, 3.0, 11)[:, None]
    net = posterior.model.network
    np.testing.assert_allclose(linear.model.predict(anchor, X), net(anchor, X)[:, 0], rtol=1e-14, atol=1e-15)
    theta = anchor + _point(16, 12, scale=0.5)
    J = jax.jacfwd(lambda t: net(t, X)[:, 0])(anchor)
    expected = net(anchor, X)[:, 0] + J @ (theta - anchor)
    got = linear.model.predict(theta, X)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-13)
    assert float(jnp.max(jnp.abs(got - net(theta, X)[:, 0]))) > 1e-2  # not the network itself
    np.testing.assert_allclose(linear.embed(theta), linear.model.predict(theta, posterior.data.X), rtol=1e-15)


def test_linearised_embedding_is_affine_and_flat():
    _, anchor, linear = _linearised()
    theta, v = anchor + _point(16, 13), _point(16, 14)
    f = linear.embed
    _, second = jax.jvp(lambda t: jax.jvp(f, (t,), (v,))[1], (theta,), (v,))
    np.testing.assert_allclose(second, 0.0, atol=1e-12)
    gamma, generic, _ = _christoffels(linear, theta, v)
    np.testing.assert_allclose(gamma, 0.0, atol=1e-12)
    np.testing.assert_allclose(generic, 0.0, atol=1e-10)


@eqx.filter_jit
def _linearised_matrices(posterior, linear, anchor, far):
    J = jax.jacfwd(posterior.embed)(anchor)
    both = jnp.stack([anchor, far])
    return (J, posterior.fisher(anchor), posterior.hessian(far),
            jax.vmap(linear.hessian)(both), jax.vmap(linear.fisher)(both))


def test_linearised_hessian_is_minus_ggn_plus_prior_precision_everywhere():
    posterior, anchor, linear = _linearised()
    far = anchor + _point(16, 15, scale=1.5)
    J, fisher_at_anchor, hessian_far, linear_hessians, linear_fishers = _linearised_matrices(
        posterior, linear, anchor, far)
    J = np.asarray(J)
    assert J.shape == (40, 16)
    expected = -(J.T @ J / NOISE_VARIANCE + np.eye(16) / PRIOR_VARIANCE)
    # the original network's Fisher at the anchor is the same matrix
    np.testing.assert_allclose(fisher_at_anchor, -expected, rtol=1e-10)
    for hessian, fisher in zip(linear_hessians, linear_fishers):  # at the anchor and far from it
        np.testing.assert_allclose(hessian, expected, rtol=1e-9, atol=1e-10)
        np.testing.assert_allclose(fisher, -expected, rtol=1e-10)
    # the non-linearised Hessian differs away from the anchor (so the check above has teeth)
    assert float(np.max(np.abs(hessian_far - expected))) > 1e-2


def test_linearised_model_needs_an_anchor():
    with pytest.raises(ValueError, match="anchor"):
        LinearisedNetworkRegression(network=MultilayerPerceptron((1, 4, 1)))


@pytest.mark.parametrize("make", [
    lambda: _inferred(),
    lambda: Posterior("toy-logreg", LogisticRegression(), Dataset(np.ones((5, 2)), np.zeros(5))),
    lambda: Posterior("toy-class", NetworkClassifier(network=MultilayerPerceptron((1, 4, 1))),
                      Dataset(np.ones((5, 1)), np.zeros(5))),
])
def test_linearised_posterior_rejects_other_models(make):
    posterior = make()
    with pytest.raises(TypeError, match=f"{posterior.name}.*NetworkRegression.*{type(posterior.model).__name__}"):
        linearised_posterior(posterior, jnp.zeros(posterior.dim))


# ----------------------------------------------------------------------------------------
# function samples


def test_function_samples_map_back_to_the_original_scale():
    posterior = _regression((1, 5, 1))
    theta = jnp.stack([_point(16, 20), _point(16, 21), _point(16, 22)])
    X = np.linspace(-2.0, 2.0, 7)[:, None]
    samples = function_samples(posterior, theta, X, y_mean=1.5, y_std=3.0)
    assert isinstance(samples, FunctionSamples)
    net = posterior.model.network
    f = np.stack([np.asarray(net(t, jnp.asarray(X))[:, 0]) for t in theta])
    assert samples.f.shape == (3, 7) and samples.noise_std.shape == (3,)
    np.testing.assert_allclose(samples.f, f * 3.0 + 1.5, rtol=1e-13)
    np.testing.assert_allclose(samples.noise_std, np.sqrt(NOISE_VARIANCE) * 3.0, rtol=1e-14)
    # defaults: the training scale; a single theta is a batch of one
    plain = function_samples(posterior, theta[0], X)
    np.testing.assert_allclose(plain.f, f[:1], rtol=1e-13)


def test_function_samples_of_inferred_noise_use_the_sampled_variance():
    posterior = _inferred()
    theta = jnp.stack([_point(14, 23).at[-1].set(-2.0), _point(14, 24).at[-1].set(0.5)])
    samples = function_samples(posterior, theta, np.zeros((2, 1)), y_mean=-1.0, y_std=2.0)
    np.testing.assert_allclose(samples.noise_std, np.exp(np.array([-2.0, 0.5]) / 2) * 2.0, rtol=1e-14)


def test_function_samples_linearised_at_use_the_linearised_network():
    posterior, anchor, linear = _linearised()
    theta = jnp.stack([anchor + _point(16, 25, scale=0.5), anchor + _point(16, 26, scale=0.5)])
    X = np.linspace(-2.0, 2.0, 5)[:, None]
    lin = function_samples(posterior, theta, X, y_mean=0.5, y_std=2.0, linearised_at=anchor)
    expected = np.stack([np.asarray(linear.model.predict(t, jnp.asarray(X))) for t in theta]) * 2.0 + 0.5
    np.testing.assert_allclose(lin.f, expected, rtol=1e-12)
    plain = function_samples(posterior, theta, X, y_mean=0.5, y_std=2.0)
    assert np.max(np.abs(plain.f - lin.f)) > 1e-2
    np.testing.assert_allclose(lin.noise_std, plain.noise_std)


# ----------------------------------------------------------------------------------------
# classifier


def test_classifier_logdensity_is_bernoulli_plus_gaussian_prior():
    rng = np.random.default_rng(30)
    X = rng.normal(size=(35, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(float)
    net = MultilayerPerceptron((2, 4, 1), "silu")
    posterior = Posterior("toy-classifier", NetworkClassifier(network=net, prior=GaussianPrior(3.0)), Dataset(X, y))
    assert posterior.dim == 17
    theta = _point(17, 31, scale=1.0)
    (W1, b1), (W2, b2) = (tuple(np.asarray(a) for a in layer) for layer in net.unflatten(theta))
    h = X @ W1.T + b1
    eta = ((h / (1.0 + np.exp(-h))) @ W2.T + b2)[:, 0]
    p = 1.0 / (1.0 + np.exp(-eta))
    loglik = np.sum(y * np.log(p) + (1 - y) * np.log1p(-p))
    t = np.asarray(theta)
    logprior = -0.5 * t @ t / 3.0 - 0.5 * 17 * np.log(2 * np.pi * 3.0)
    assert float(posterior.logdensity(theta)) == pytest.approx(loglik + logprior, rel=1e-12)
    np.testing.assert_allclose(posterior.model.predict(theta, X), eta, rtol=1e-12)
    # Fisher: J^T diag(p(1-p)) J + I / 3
    J = jax.jacfwd(lambda w: net(w, jnp.asarray(X))[:, 0])(theta)
    expected = np.asarray(J).T @ ((p * (1 - p))[:, None] * np.asarray(J)) + np.eye(17) / 3.0
    np.testing.assert_allclose(_fisher(posterior, theta), expected, rtol=1e-10)
