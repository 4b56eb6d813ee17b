"""The banana model of Yu et al. (2024), Sec. 5.2 / Supp. 15.8 (notes Sec. 1.7(a), 2.3).

Closed forms against the generic paths: the Fisher metric against the pullback
``J^T I(h) J + prior precision`` by autodiff, its Christoffel contraction against the generic
autodiff contraction of the same metric.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.stats

from geobayes.data.banana import generate_banana_data
from geobayes.dataset import Dataset
from geobayes.geometry import christoffel_contraction
from geobayes.models import GaussianPrior
from geobayes.models.banana import Banana
from geobayes.posterior import Posterior

DATA = generate_banana_data()
POSTERIOR = Posterior("banana-banana", Banana(prior=GaussianPrior(4.0)), Dataset(DATA.X, DATA.y))


def _points(seed: int, count: int = 4) -> np.ndarray:
    return np.random.default_rng(seed).normal(scale=1.5, size=(count, 2))


@jax.jit
def _closed_and_generic(posterior, theta, v):
    model, data = posterior.model, posterior.data
    return (
        model.fisher(theta, data),
        model.fisher_generic(theta, data),
        model.fisher_christoffel(theta, v, data),
        christoffel_contraction(lambda th: model.fisher_generic(th, data), theta, v),
        posterior.fisher_christoffel(theta, v),
    )


def test_defaults_are_the_papers():
    model = Banana()
    assert model.prior.variance == 4.0
    assert model.noise_variance == 4.0
    assert model.family.noise_variance == 4.0
    assert POSTERIOR.dim == 2
    assert POSTERIOR.data.X.shape == (100, 0)


def test_logdensity_matches_hand_written_formula():
    theta = np.array([0.3, -0.8])
    mean = theta[0] + theta[1] ** 2
    expected = scipy.stats.norm.logpdf(DATA.y, mean, 2.0).sum() + scipy.stats.norm.logpdf(
        theta, 0.0, 2.0
    ).sum()
    np.testing.assert_allclose(POSTERIOR.logdensity(jnp.asarray(theta)), expected, rtol=1e-13)
    # Mirror symmetry theta2 -> -theta2 (two Euclidean MAPs, notes Sec. 2.3).
    np.testing.assert_allclose(
        POSTERIOR.logdensity(jnp.asarray(theta * [1, -1])), expected, rtol=1e-13
    )


@pytest.mark.parametrize("seed", [0, 1])
def test_closed_forms_equal_generic(seed):
    rng = np.random.default_rng(seed + 10)
    for theta in _points(seed):
        v = rng.normal(size=2)
        fisher, generic, gamma, gamma_generic, gamma_posterior = _closed_and_generic(
            POSTERIOR, jnp.asarray(theta), jnp.asarray(v)
        )
        np.testing.assert_allclose(fisher, generic, rtol=1e-12)
        np.testing.assert_allclose(gamma, gamma_generic, rtol=1e-10, atol=1e-12)
        np.testing.assert_array_equal(gamma_posterior, gamma)


def test_fisher_is_the_papers_matrix():
    """``[[1/4 + N/4, 2 N theta2 / 4], [., 1/4 + 4 N theta2^2 / 4]]`` with
    ``det = 6.3125 + 25 theta2^2`` for N = 100 (notes Sec. 1.7(a))."""
    theta2 = 0.7
    g = np.asarray(POSTERIOR.fisher(jnp.array([-1.2, theta2])))
    expected = np.array([[0.25 + 25.0, 50.0 * theta2], [50.0 * theta2, 0.25 + 100.0 * theta2**2]])
    np.testing.assert_allclose(g, expected, rtol=1e-14)
    np.testing.assert_allclose(np.linalg.det(g), 6.3125 + 25.0 * theta2**2, rtol=1e-12)


def test_noise_variance_enters_likelihood_and_metric():
    model = Banana(prior=GaussianPrior(1.0), noise_variance=0.5)
    posterior = Posterior("banana-banana", model, Dataset(DATA.X, DATA.y))
    theta = jnp.array([0.2, 0.4])
    np.testing.assert_allclose(
        posterior.fisher(theta), model.fisher_generic(theta, posterior.data), rtol=1e-13
    )
    expected = scipy.stats.norm.logpdf(DATA.y, 0.2 + 0.16, np.sqrt(0.5)).sum() + (
        scipy.stats.norm.logpdf([0.2, 0.4], 0.0, 1.0).sum()
    )
    np.testing.assert_allclose(posterior.logdensity(theta), expected, rtol=1e-13)


def test_bad_noise_variance_raises():
    with pytest.raises(ValueError, match="noise_variance"):
        Banana(noise_variance=0.0)
    with pytest.raises(ValueError, match="noise_variance"):
        Banana(noise_variance=float("nan"))
