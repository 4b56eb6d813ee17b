"""Linear-Gaussian regression: the exact posterior is the autodiff Laplace approximation."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.dataset import Dataset
from geobayes.families import GaussianFixedVariance
from geobayes.models import GaussianPrior, LinearGaussianRegression
from geobayes.pipeline.posteriors import build_model
from geobayes.posterior import Posterior


@jax.jit
def _grad_hessian_fisher(posterior: Posterior, theta: jax.Array):
    return posterior.grad(theta), posterior.hessian(theta), posterior.fisher(theta)


def _posterior(seed: int, n: int = 25, d: int = 3, noise: float = 0.3, variance: float = 2.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = X @ rng.normal(size=d) + rng.normal(scale=np.sqrt(noise), size=n)
    model = LinearGaussianRegression(
        family=GaussianFixedVariance(noise_variance=noise), prior=GaussianPrior(variance)
    )
    return Posterior("toy-lingauss", model, Dataset(X, y))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_posterior_equals_autodiff_mode_and_inverse_negative_hessian(seed):
    posterior = _posterior(seed)
    mean, cov = posterior.model.exact_posterior(posterior.data)
    # The log density is quadratic: one Newton step from anywhere lands on the mode.
    start = jnp.asarray(np.random.default_rng(seed + 10).normal(size=posterior.dim))
    grad, hessian, _ = _grad_hessian_fisher(posterior, start)
    mode = start - np.linalg.solve(hessian, grad)
    np.testing.assert_allclose(mode, mean, rtol=1e-10, atol=1e-12)
    _, hessian_at_mode, _ = _grad_hessian_fisher(posterior, mode)
    np.testing.assert_allclose(np.linalg.inv(-hessian_at_mode), cov, rtol=1e-10, atol=1e-14)
    # The gradient vanishes at the exact mean.
    grad_at_mean, _, _ = _grad_hessian_fisher(posterior, mean)
    assert float(np.linalg.norm(grad_at_mean)) < 1e-9
    # Covariance is symmetric positive definite.
    np.testing.assert_allclose(cov, cov.T, rtol=0, atol=1e-15)
    assert float(np.min(np.linalg.eigvalsh(cov))) > 0


def test_exact_posterior_against_numpy_formula():
    posterior = _posterior(3, noise=0.7, variance=5.0)
    X, y = np.asarray(posterior.data.X), np.asarray(posterior.data.y)
    precision = X.T @ X / 0.7 + np.eye(X.shape[1]) / 5.0
    cov = np.linalg.inv(precision)
    mean = np.linalg.solve(precision, X.T @ y / 0.7)
    got_mean, got_cov = posterior.model.exact_posterior(posterior.data)
    np.testing.assert_allclose(got_mean, mean, rtol=1e-12)
    np.testing.assert_allclose(got_cov, cov, rtol=1e-12)


def test_fisher_is_constant_and_equals_negative_hessian():
    """Fixed-variance Gaussian + linear embedding: G is constant (Yu et al. 2024, Theorem 1)."""
    posterior = _posterior(4)
    _, cov = posterior.model.exact_posterior(posterior.data)
    precision = np.linalg.inv(cov)
    rng = np.random.default_rng(0)
    for _ in range(3):
        theta = jnp.asarray(rng.normal(scale=3.0, size=posterior.dim))
        _, hessian, fisher = _grad_hessian_fisher(posterior, theta)
        np.testing.assert_allclose(fisher, precision, rtol=1e-10)
        np.testing.assert_allclose(-hessian, precision, rtol=1e-10)
        # The Fisher metric does not move with theta: its derivative is exactly zero.
        dg = jax.jit(lambda p, th: jax.jvp(p.fisher, (th,), (jnp.ones_like(th),))[1])(
            posterior, theta
        )
        np.testing.assert_array_equal(dg, jnp.zeros_like(dg))


def test_no_closed_form_grad_and_hvp_falls_back_to_autodiff():
    posterior = _posterior(5)
    assert getattr(posterior.model, "grad_and_hvp", None) is None
    theta = jnp.arange(1.0, posterior.dim + 1.0)
    v = jnp.ones(posterior.dim)
    grad, hvp = jax.jit(lambda p, th, u: p.grad_and_hvp(th, u))(posterior, theta, v)
    expected_grad, hessian, _ = _grad_hessian_fisher(posterior, theta)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-12)
    np.testing.assert_allclose(hvp, hessian @ v, rtol=1e-12)


def test_registry_names():
    model = build_model("lingauss", {"noise_variance": 0.5, "prior_variance": 2.0})
    assert isinstance(model, LinearGaussianRegression)
    assert (model.family.noise_variance, model.prior.variance) == (0.5, 2.0)
