"""WhitenedTarget: the non-centred parametrisation ``theta = L z`` of dense-prior posteriors."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.dataset import Dataset
from geobayes.families import Bernoulli
from geobayes.models import DenseGaussianPrior, GaussianPrior, LatentGaussianProcess, LogisticRegression
from geobayes.models.kernels import squared_exponential_kernel
from geobayes.posterior import Posterior
from geobayes.whitened_target import WhitenedTarget, whitened


def _gp_posterior() -> tuple[Posterior, np.ndarray]:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 2))
    K = squared_exponential_kernel(X, variance=3.0, lengthscale=2.0, jitter=1e-3)
    model = LatentGaussianProcess(family=Bernoulli(), prior=DenseGaussianPrior(K))
    return Posterior("toy-berngp", model, Dataset(X, rng.integers(0, 2, size=5))), K


def test_whitened_returns_none_for_isotropic_prior_and_target_for_dense_prior():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(10, 3)), rng.integers(0, 2, size=10)
    assert whitened(Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(2.0)), Dataset(X, y))) is None

    posterior, K = _gp_posterior()
    white = whitened(posterior)
    assert isinstance(white, WhitenedTarget)
    L = np.asarray(white.scale)
    np.testing.assert_array_equal(L, np.tril(L))
    np.testing.assert_allclose(L @ L.T, K, rtol=1e-12, atol=1e-14)
    assert white.name == "toy-berngp" and white.dim == 5


def test_whitened_logdensity_is_target_at_L_z():
    posterior, K = _gp_posterior()
    white = whitened(posterior)
    L = np.linalg.cholesky(K)
    both = jax.jit(jax.vmap(lambda z: (white.logdensity(z), posterior.logdensity(jnp.asarray(L) @ z))))
    zs = np.random.default_rng(2).normal(size=(6, 5))
    got, expected = both(jnp.asarray(zs))
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    # the prior term becomes N(0, I) in z up to the dropped constant log det L
    prior_only = jax.vmap(lambda z: posterior.model.prior.logdensity(jnp.asarray(L) @ z))(jnp.asarray(zs))
    const = -0.5 * 5 * np.log(2 * np.pi) - np.sum(np.log(np.diag(L)))
    np.testing.assert_allclose(prior_only, -0.5 * np.sum(zs**2, axis=1) + const, rtol=1e-12)


def test_round_trip_between_theta_and_z():
    posterior, K = _gp_posterior()
    white = whitened(posterior)
    L = np.linalg.cholesky(K)
    rng = np.random.default_rng(3)
    z = rng.normal(size=5)
    theta = white.to_theta(z)
    assert isinstance(theta, np.ndarray) and theta.shape == (5,)
    np.testing.assert_allclose(theta, L @ z, rtol=1e-13)
    np.testing.assert_allclose(white.to_z(theta), z, rtol=1e-10, atol=1e-12)
    theta = rng.normal(size=5)
    np.testing.assert_allclose(white.to_theta(white.to_z(theta)), theta, rtol=1e-10, atol=1e-12)
    batch = rng.normal(size=(4, 5))
    np.testing.assert_allclose(white.to_theta(batch), batch @ L.T, rtol=1e-13)


def test_whitened_target_with_explicit_scale():
    posterior, _ = _gp_posterior()
    scale = jnp.asarray(np.diag([1.0, 2.0, 0.5, 3.0, 1.5]))
    white = WhitenedTarget(posterior, scale)
    z = jnp.asarray([0.1, -0.2, 0.3, 0.4, -0.5])
    assert float(white.logdensity(z)) == pytest.approx(float(posterior.logdensity(scale @ z)), rel=1e-13)
    np.testing.assert_allclose(white.to_z(np.asarray(scale @ z)), z, rtol=1e-13)
