"""Logistic regression: closed forms (Yu et al. 2024, Supp. 14.1) against autodiff.

With the canonical (logit) link the Fisher metric equals the negative Hessian of the log
posterior, so three independent computations must agree: the closed form
``X^T diag(s(1-s)) X + I/alpha``, the generic pullback ``J^T I(h) J + I/alpha`` and
``-jax.hessian(logdensity)``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.dataset import Dataset
from geobayes.models import GaussianPrior, LogisticRegression
from geobayes.posterior import Posterior

RIPLEY = "logreg/ripley.npy"  # in the data mirror (tests/data_mirror.py)


def _random_posterior(seed: int = 0, n: int = 40, d: int = 4, variance: float = 3.0) -> Posterior:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    theta_true = rng.normal(size=d)
    y = (rng.uniform(size=n) < 1.0 / (1.0 + np.exp(-X @ theta_true))).astype(float)
    return Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(variance)), Dataset(X, y))


def _ripley_posterior(standardise: bool) -> Posterior:
    raw = np.load(mirror_file(RIPLEY))
    features, labels = raw[:, :-1], raw[:, -1]
    if standardise:
        features = (features - features.mean(0)) / features.std(0)
    X = np.column_stack([features, np.ones(len(features))])
    name = "ripley_standardised-logreg" if standardise else "ripley_raw-logreg"
    return Posterior(name, LogisticRegression(prior=GaussianPrior(100.0)), Dataset(X, labels))


def _thetas(dim: int, seed: int, count: int = 3, scale: float = 1.5) -> np.ndarray:
    return np.random.default_rng(seed).normal(scale=scale, size=(count, dim))


@jax.jit
def _fishers(posterior: Posterior, theta: jax.Array):
    """Closed-form, generic and -Hessian metrics, and the Posterior's, in one compiled call."""
    return (
        posterior.model.fisher(theta, posterior.data),
        posterior.model.fisher_generic(theta, posterior.data),
        -posterior.hessian(theta),
        posterior.fisher(theta),
    )


@jax.jit
def _derivatives(posterior: Posterior, theta: jax.Array, v: jax.Array):
    """Closed-form and autodiff gradient / HVP, plus the dense Hessian, in one compiled call."""
    return (
        posterior.model.grad_and_hvp(theta, v, posterior.data),
        posterior.autodiff_grad_and_hvp(theta, v),
        posterior.grad(theta),
        posterior.hessian(theta),
        posterior.grad_and_hvp(theta, v),
    )


def _assert_three_fishers_agree(posterior: Posterior, theta: np.ndarray) -> None:
    analytic, generic, neg_hessian, via_posterior = _fishers(posterior, jnp.asarray(theta))
    scale = float(jnp.max(jnp.abs(analytic)))
    np.testing.assert_allclose(analytic, generic, rtol=1e-12, atol=1e-12 * scale)
    np.testing.assert_allclose(analytic, neg_hessian, rtol=1e-10, atol=1e-10 * scale)
    # Posterior.fisher delegates to the model's closed form.
    np.testing.assert_array_equal(via_posterior, analytic)
    # A metric: symmetric positive definite.
    np.testing.assert_array_equal(analytic, analytic.T)
    assert float(np.min(np.linalg.eigvalsh(analytic))) > 0.0


@pytest.mark.parametrize("seed", [0, 1])
def test_fisher_closed_form_equals_generic_and_negative_hessian(seed):
    posterior = _random_posterior(seed)
    for theta in _thetas(posterior.dim, seed + 100):
        _assert_three_fishers_agree(posterior, theta)


@pytest.mark.parametrize("standardise", [True, False])
def test_fisher_on_ripley_with_intercept(standardise):
    posterior = _ripley_posterior(standardise)
    assert posterior.dim == 3
    for theta in _thetas(posterior.dim, 7):
        _assert_three_fishers_agree(posterior, theta)


def test_fisher_at_zero_is_quarter_gram_plus_prior_precision():
    posterior = _random_posterior(3)
    X = np.asarray(posterior.data.X)
    expected = 0.25 * X.T @ X + np.eye(posterior.dim) / 3.0
    analytic, generic, _, _ = _fishers(posterior, jnp.zeros(posterior.dim))
    np.testing.assert_allclose(analytic, expected, rtol=1e-13)
    np.testing.assert_allclose(generic, expected, rtol=1e-13)


@pytest.mark.parametrize("make", [lambda: _random_posterior(2), lambda: _ripley_posterior(False)])
def test_closed_form_grad_and_hvp_equals_autodiff(make):
    posterior = make()
    rng = np.random.default_rng(11)
    for _ in range(3):
        theta = jnp.asarray(rng.normal(scale=1.5, size=posterior.dim))
        v = jnp.asarray(rng.normal(size=posterior.dim))
        (grad_cf, hvp_cf), (grad_ad, hvp_ad), grad, hessian, (grad_p, hvp_p) = _derivatives(
            posterior, theta, v
        )
        np.testing.assert_allclose(grad_cf, grad_ad, rtol=1e-11, atol=1e-11)
        np.testing.assert_allclose(hvp_cf, hvp_ad, rtol=1e-11, atol=1e-11)
        # ... and against the dense Hessian and jax.grad.
        np.testing.assert_allclose(grad_cf, grad, rtol=1e-11, atol=1e-11)
        np.testing.assert_allclose(hvp_cf, hessian @ v, rtol=1e-11, atol=1e-11)
        # The posterior uses the closed form where the model has one.
        np.testing.assert_array_equal(grad_p, grad_cf)
        np.testing.assert_array_equal(hvp_p, hvp_cf)


def test_logdensity_matches_hand_written_formula():
    posterior = _random_posterior(4, variance=2.5)
    X, y = np.asarray(posterior.data.X), np.asarray(posterior.data.y)
    theta = np.random.default_rng(5).normal(size=posterior.dim)
    eta = X @ theta
    loglik = np.sum(y * eta - np.logaddexp(0.0, eta))
    d = theta.size
    logprior = -0.5 * theta @ theta / 2.5 - 0.5 * d * np.log(2 * np.pi * 2.5)
    got = posterior.logdensity(jnp.asarray(theta))
    np.testing.assert_allclose(got, loglik + logprior, rtol=1e-13)


def test_logdensity_finite_for_huge_logits():
    """softplus keeps the Bernoulli log likelihood finite where naive log(1+exp) overflows."""
    posterior = _random_posterior(6)
    theta = jnp.full(posterior.dim, 400.0)
    values = jax.jit(lambda p, th: (p.logdensity(th), p.grad(th), p.fisher(th)))(posterior, theta)
    for value in values:
        assert bool(jnp.all(jnp.isfinite(value)))


def test_fisher_is_jittable_through_posterior_pytree():
    posterior = _random_posterior(8)
    theta = jnp.asarray(_thetas(posterior.dim, 9, count=1)[0])
    jitted = jax.jit(lambda p, th: p.fisher(th))(posterior, theta)
    X = np.asarray(posterior.data.X)
    s = 1.0 / (1.0 + np.exp(-X @ np.asarray(theta)))
    expected = X.T @ ((s * (1 - s))[:, None] * X) + np.eye(posterior.dim) / 3.0
    np.testing.assert_allclose(jitted, expected, rtol=1e-12)
