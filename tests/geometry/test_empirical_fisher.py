"""The empirical Fisher metric (Yu et al. 2024, Supp. 16.6; notes Sec. 1.7(f))."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.data.banana import generate_banana_data
from geobayes.dataset import Dataset
from geobayes.families import Bernoulli, GaussianFixedVariance
from geobayes.geometry.empirical_fisher import EmpiricalFisher
from geobayes.models import GaussianPrior, LogisticRegression
from geobayes.models.banana import Banana
from geobayes.posterior import Posterior
from geobayes.targets import Squiggle

METRIC = EmpiricalFisher()


def _logistic(seed=0, n=40, d=3, variance=5.0) -> Posterior:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-X @ rng.normal(size=d)))).astype(float)
    return Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(variance)), Dataset(X, y))


def _banana(seed=1) -> Posterior:
    data = generate_banana_data(seed=seed)
    return Posterior("banana-banana", Banana(prior=GaussianPrior(4.0)), Dataset(data.X, data.y))


@jax.jit
def _tensor(posterior, theta):
    return METRIC.tensor(posterior, theta)


@jax.jit
def _christoffels(posterior, theta, v):
    return METRIC.christoffel(posterior, theta, v), METRIC.generic_christoffel(posterior, theta, v)


def test_per_observation_terms_sum_to_the_log_likelihood():
    posterior = _logistic()
    theta = jnp.array([0.3, -1.0, 2.0])
    terms = posterior.model.log_likelihood_terms(theta, posterior.data)
    assert terms.shape == (40,)
    np.testing.assert_allclose(
        jnp.sum(terms), posterior.model.log_likelihood(theta, posterior.data), rtol=1e-14
    )
    y, mu = jnp.array([0.1, -2.0, 3.0]), jnp.array([0.0, 1.0, 2.5])
    family = GaussianFixedVariance(0.7)
    np.testing.assert_allclose(
        jnp.sum(family.log_likelihood_terms(y, mu)), family.log_likelihood(y, mu), rtol=1e-14
    )
    bernoulli = Bernoulli()
    labels = jnp.array([0.0, 1.0, 1.0])
    np.testing.assert_array_equal(
        jnp.sum(bernoulli.log_likelihood_terms(labels, mu)), bernoulli.log_likelihood(labels, mu)
    )


@pytest.mark.parametrize("seed", [0, 1])
def test_logistic_regression_equals_loop_over_observations(seed):
    """``sum_n s_n s_n^T + I / alpha`` with the hand-written score ``s_n = (y_n - sigmoid(x_n^T
    theta)) x_n``, accumulated in a plain Python loop."""
    posterior = _logistic(seed)
    X, y = np.asarray(posterior.data.X), np.asarray(posterior.data.y)
    theta = np.random.default_rng(seed + 5).normal(size=3)
    expected = np.eye(3) / 5.0
    for x_n, y_n in zip(X, y):
        score = (y_n - 1.0 / (1.0 + np.exp(-x_n @ theta))) * x_n
        expected += np.outer(score, score)
    np.testing.assert_allclose(_tensor(posterior, jnp.asarray(theta)), expected, rtol=1e-12)


def test_banana_is_a_rescaled_fisher_metric_and_positive_definite():
    """For the banana ``s_n = (y_n - h) / sigma_y^2 grad h``, so
    ``G_EF - P = (sum_n r_n^2 / (N sigma_y^2)) (G_F - P)`` with ``P`` the prior precision: the
    empirical Fisher is the Fisher metric with the noise variance replaced by the residuals'."""
    posterior = _banana()
    y = np.asarray(posterior.data.y)
    prior_precision = np.eye(2) / 4.0
    for theta in np.random.default_rng(2).normal(scale=1.5, size=(4, 2)):
        g_ef = np.asarray(_tensor(posterior, jnp.asarray(theta)))
        g_f = np.asarray(posterior.fisher(jnp.asarray(theta)))
        ratio = np.sum((y - theta[0] - theta[1] ** 2) ** 2) / (y.size * 4.0)
        np.testing.assert_allclose(
            g_ef - prior_precision, ratio * (g_f - prior_precision), rtol=1e-11
        )
        assert np.min(np.linalg.eigvalsh(g_ef)) > 0


def test_banana_empirical_fisher_matches_fisher_at_the_truth_within_chi_square_error():
    """At a parameter with the true mean ``theta1 + theta2^2 = 1.25`` the residuals are the
    noise, so the ratio above is ``chi^2_N / N``: mean 1, standard deviation ``sqrt(2 / N)``."""
    posterior = _banana()
    theta = jnp.array([0.5, np.sqrt(0.75)])
    g_ef = np.asarray(_tensor(posterior, theta)) - np.eye(2) / 4.0
    g_f = np.asarray(posterior.fisher(theta)) - np.eye(2) / 4.0
    ratio = g_ef[0, 0] / g_f[0, 0]
    assert abs(ratio - 1.0) < 5 * np.sqrt(2.0 / 100)


def _finite_difference_christoffel(posterior, theta, v, eps=1e-5):
    """``G^{-1} [(d_v G) v - 1/2 grad (v^T G v)]`` with central differences of the tensor."""
    g = lambda th: np.asarray(_tensor(posterior, jnp.asarray(th)))  # noqa: E731
    dv_g = (g(theta + eps * v) - g(theta - eps * v)) / (2 * eps)
    grad_quadratic = np.array(
        [(v @ g(theta + eps * e) @ v - v @ g(theta - eps * e) @ v) / (2 * eps) for e in np.eye(2)]
    )
    return np.linalg.solve(g(theta), dv_g @ v - 0.5 * grad_quadratic)


def test_christoffel_is_the_generic_contraction_and_matches_finite_differences():
    """The paper uses the generic autodiff contraction for the empirical Fisher; it is finite
    and agrees with central differences of the metric. Their error, truncation
    ``eps^2 |d^3 G|`` plus rounding ``u |G| / eps`` with ``|G| ~ 1e3``, amplified by
    ``1 / lambda_min(G) = 4``, is about 1e-7 here: tolerance 1e-5 of the largest component
    (a wrong factor anywhere would give O(1) relative errors)."""
    posterior = _banana()
    rng = np.random.default_rng(3)
    for _ in range(3):
        theta, v = rng.normal(size=2), rng.normal(size=2)
        gamma, generic = _christoffels(posterior, jnp.asarray(theta), jnp.asarray(v))
        assert bool(jnp.all(jnp.isfinite(gamma)))
        np.testing.assert_array_equal(gamma, generic)
        reference = _finite_difference_christoffel(posterior, theta, v)
        np.testing.assert_allclose(gamma, reference, rtol=0, atol=1e-5 * np.abs(reference).max())
    # Along v = 0 there is no acceleration.
    gamma, _ = _christoffels(posterior, jnp.array([0.1, 0.2]), jnp.zeros(2))
    np.testing.assert_array_equal(gamma, 0.0)


def test_closed_form_target_raises_naming_it():
    with pytest.raises(TypeError, match="squiggle: the empirical Fisher metric needs"):
        METRIC.tensor(Squiggle("squiggle"), jnp.zeros(2))
