"""Posterior = model x data: naming, dimension, derivatives, pytree behaviour."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.dataset import Dataset
from geobayes.families import GaussianFixedVariance
from geobayes.models import GaussianPrior, LinearGaussianRegression, LogisticRegression
from geobayes.posterior import Posterior, split_posterior_name


def _logistic(n=30, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (rng.uniform(size=n) < 0.5).astype(float)
    return Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(2.0)), Dataset(X, y))


@jax.jit
def _all(posterior, theta, v):
    return (
        posterior.logdensity(theta),
        posterior.grad(theta),
        posterior.hessian(theta),
        posterior.grad_and_hvp(theta, v),
        posterior.autodiff_grad_and_hvp(theta, v),
        posterior.fisher(theta),
    )


def test_dim_and_name():
    posterior = _logistic(d=5)
    assert posterior.dim == 5
    assert posterior.name == "toy-logreg"
    assert split_posterior_name(posterior.name) == ("toy", "logreg")


@pytest.mark.parametrize("bad", ["toy", "a-b-c", "-logreg", "toy-", ""])
def test_split_posterior_name_rejects_bad_names(bad):
    with pytest.raises(ValueError, match="<dataset>-<model>"):
        split_posterior_name(bad)


def test_split_posterior_name_with_underscores():
    assert split_posterior_name("heart_standardised-logreg") == ("heart_standardised", "logreg")


def test_derivatives_match_finite_differences():
    posterior = _logistic()
    rng = np.random.default_rng(1)
    theta = jnp.asarray(rng.normal(size=posterior.dim))
    v = jnp.asarray(rng.normal(size=posterior.dim))
    value, grad, hessian, (g2, hv), (g3, hv3), fisher = _all(posterior, theta, v)
    h = 1e-5
    f = jax.jit(lambda p, t: p.logdensity(t))
    fd_grad = np.array(
        [
            (f(posterior, theta + h * e) - f(posterior, theta - h * e)) / (2 * h)
            for e in np.eye(posterior.dim)
        ]
    )
    np.testing.assert_allclose(grad, fd_grad, rtol=1e-7, atol=1e-7)
    gf = jax.jit(lambda p, t: p.grad(t))
    fd_hv = (gf(posterior, theta + h * v) - gf(posterior, theta - h * v)) / (2 * h)
    np.testing.assert_allclose(hv, fd_hv, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(hessian, hessian.T, atol=1e-12)
    np.testing.assert_allclose(hessian @ v, hv, rtol=1e-11)
    np.testing.assert_allclose(g2, grad, rtol=1e-12)
    np.testing.assert_allclose(g3, grad, rtol=1e-12)
    np.testing.assert_allclose(hv3, hv, rtol=1e-11)
    np.testing.assert_allclose(fisher, -hessian, rtol=1e-10)  # canonical link
    assert np.isfinite(float(value))


def test_posterior_is_a_pytree_with_static_name():
    posterior = _logistic()
    leaves = jax.tree_util.tree_leaves(posterior)
    # Arrays (data) and numbers (prior variance); the name is static metadata.
    assert all(isinstance(leaf, (jax.Array, float)) for leaf in leaves)
    shape = posterior.data.X.shape
    assert any(isinstance(leaf, jax.Array) and leaf.shape == shape for leaf in leaves)
    # Same shapes, different data: the same jitted function serves both.
    data = Dataset(np.asarray(posterior.data.X) * 2, posterior.data.y)
    other = Posterior("other-logreg", posterior.model, data)
    theta = jnp.ones(posterior.dim)
    a = _all(posterior, theta, theta)[0]
    b = _all(other, theta, theta)[0]
    assert float(a) != float(b)


def test_linear_gaussian_logdensity_formula():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(10, 2))
    y = rng.normal(size=10)
    model = LinearGaussianRegression(family=GaussianFixedVariance(0.3), prior=GaussianPrior(1.5))
    posterior = Posterior("toy-lingauss", model, Dataset(X, y))
    theta = np.array([0.4, -0.2])
    r = y - X @ theta
    expected = (
        -0.5 * r @ r / 0.3
        - 5 * np.log(2 * np.pi * 0.3)
        - 0.5 * theta @ theta / 1.5
        - np.log(2 * np.pi * 1.5)
    )
    np.testing.assert_allclose(posterior.logdensity(jnp.asarray(theta)), expected, rtol=1e-13)
