"""Isotropic Gaussian prior: normalised density, precision, and rejection of bad variances."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.stats import multivariate_normal

from geobayes.models import GaussianPrior, LinearGaussianRegression, LogisticRegression


@pytest.mark.parametrize("variance", [0.0, -1.0, -1e-12, float("nan")])
def test_non_positive_variance_rejected(variance):
    with pytest.raises(ValueError, match="variance"):
        GaussianPrior(variance)


@pytest.mark.parametrize("model_cls", [LogisticRegression, LinearGaussianRegression])
def test_non_positive_variance_rejected_through_model(model_cls):
    with pytest.raises(ValueError, match="prior variance must be a finite number > 0"):
        model_cls(prior=GaussianPrior(variance=-2.0))


@pytest.mark.parametrize("variance", ["large", [1.0, 2.0], 1j])
def test_non_number_variance_rejected_in_one_line(variance):
    with pytest.raises(ValueError, match=r"^prior variance must be a real number, got .*$"):
        GaussianPrior(variance)


def test_variance_takes_the_precision_of_the_computation():
    """Weakly typed, as the float it replaces: a float32 computation stays float32."""
    with jax.enable_x64(False):
        prior = GaussianPrior(2.0)
        assert prior.logdensity(jnp.ones(3, dtype=jnp.float32)).dtype == jnp.float32
    assert GaussianPrior(2.0).logdensity(jnp.ones(3)).dtype == jnp.float64


def test_default_variance_is_paper_alpha():
    assert GaussianPrior().variance == 100.0


@pytest.mark.parametrize("variance", [0.5, 100.0])
def test_logdensity_is_normalised_gaussian(variance):
    theta = np.array([0.3, -1.2, 2.0])
    expected = multivariate_normal(np.zeros(3), variance * np.eye(3)).logpdf(theta)
    got = GaussianPrior(variance).logdensity(jnp.asarray(theta))
    np.testing.assert_allclose(got, expected, rtol=1e-13)


def test_precision_is_negative_hessian():
    prior = GaussianPrior(4.0)
    theta = jnp.array([1.0, -2.0, 0.5, 0.0])
    hessian = jax.jit(jax.hessian(prior.logdensity))(theta)
    np.testing.assert_allclose(prior.precision(4), -hessian, rtol=1e-14)
    np.testing.assert_allclose(prior.precision(4), np.eye(4) / 4.0, rtol=1e-15)
