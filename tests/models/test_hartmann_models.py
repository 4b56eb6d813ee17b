"""Models of Hartmann et al. (2026) (notes Sec. 1.6, E2-E5): priors, kernel, latent GPs, the
multinomial GP, logistic growth, and the generic Fisher metric against independent forms."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.integrate
import scipy.linalg
from scipy.stats import multivariate_normal

from geobayes.dataset import Dataset
from geobayes.families import Bernoulli, Categorical, Poisson
from geobayes.models import (
    DenseGaussianPrior,
    FlatPrior,
    GaussianPrior,
    LatentGaussianProcess,
    LogisticGrowth,
    LogisticRegression,
    MultinomialGaussianProcess,
    PoissonRegression,
)
from geobayes.models.kernels import squared_exponential_kernel
from geobayes.models.logistic_growth import logistic_curve
from geobayes.posterior import Posterior


def _spd(rng: np.random.Generator, d: int) -> np.ndarray:
    a = rng.normal(size=(d, d))
    return a @ a.T / d + 0.5 * np.eye(d)


@jax.jit
def _fisher_and_neg_hessian(posterior: Posterior, theta: jax.Array):
    return (posterior.model.fisher_generic(theta, posterior.data), posterior.fisher(theta),
            -posterior.hessian(theta))


# ----------------------------------------------------------------------------------------
# priors


def test_dense_gaussian_prior_density_precision_whitening():
    rng = np.random.default_rng(0)
    cov = _spd(rng, 4)
    prior = DenseGaussianPrior(cov)
    for _ in range(3):
        theta = rng.normal(size=4) * 2
        assert float(prior.logdensity(jnp.asarray(theta))) == pytest.approx(
            multivariate_normal(np.zeros(4), cov).logpdf(theta), rel=1e-12)
    np.testing.assert_allclose(np.asarray(prior.precision(4)) @ cov, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(prior.precision(4), -jax.hessian(prior.logdensity)(jnp.zeros(4)), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(prior.covariance(4), cov)
    chol = np.asarray(prior.whitening(4))
    np.testing.assert_allclose(chol @ chol.T, cov, rtol=1e-13, atol=1e-14)
    np.testing.assert_array_equal(chol, np.tril(chol))


def test_dense_gaussian_prior_rejects_bad_covariances():
    with pytest.raises(ValueError, match="jitter"):
        DenseGaussianPrior(np.array([[1.0, 2.0], [2.0, 1.0]]))  # eigenvalues 3 and -1
    rank_one = np.outer([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="jitter"):
        DenseGaussianPrior(rank_one - 1e-9 * np.eye(3))
    with pytest.raises(ValueError, match="square"):
        DenseGaussianPrior(np.ones((2, 3)))
    with pytest.raises(ValueError, match="non-finite"):
        DenseGaussianPrior(np.array([[1.0, np.nan], [np.nan, 1.0]]))


def test_flat_prior():
    prior = FlatPrior()
    theta = jnp.asarray([1.0, -30.0, 4.0])
    assert float(prior.logdensity(theta)) == 0.0
    np.testing.assert_array_equal(prior.precision(3), np.zeros((3, 3)))
    assert prior.covariance(3) is None
    assert prior.whitening(3) is None


# ----------------------------------------------------------------------------------------
# kernel


def test_squared_exponential_kernel_values():
    x = np.array([[0.0, 0.0], [3.0, 4.0], [1.0, 0.0]])
    K = squared_exponential_kernel(x, variance=2.0, lengthscale=5.0, jitter=0.0)
    expected = np.array([
        [2.0, 2.0 * np.exp(-0.5), 2.0 * np.exp(-0.5 / 25)],
        [2.0 * np.exp(-0.5), 2.0, 2.0 * np.exp(-0.5 * 20 / 25)],
        [2.0 * np.exp(-0.5 / 25), 2.0 * np.exp(-0.5 * 20 / 25), 2.0],
    ])
    np.testing.assert_allclose(K, expected, rtol=1e-14)
    np.testing.assert_array_equal(K, K.T)
    K_jitter = squared_exponential_kernel(x, variance=2.0, lengthscale=5.0, jitter=1e-3)
    np.testing.assert_allclose(K_jitter - K, 2e-3 * np.eye(3), rtol=1e-10, atol=1e-16)


def test_squared_exponential_kernel_random_inputs_symmetric_psd():
    x = np.random.default_rng(1).normal(size=(12, 3))
    K = squared_exponential_kernel(x, variance=1.5, lengthscale=0.8, jitter=1e-6)
    np.testing.assert_array_equal(K, K.T)
    d2 = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(K, 1.5 * np.exp(-d2 / (2 * 0.64)) + 1.5e-6 * np.eye(12), rtol=1e-12, atol=1e-15)
    assert np.min(np.linalg.eigvalsh(K)) > 0


@pytest.mark.parametrize("kwargs, key", [
    ({"variance": 1.0, "lengthscale": 0.0, "jitter": 0.0}, "lengthscale"),
    ({"variance": 1.0, "lengthscale": -2.0, "jitter": 0.0}, "lengthscale"),
    ({"variance": 0.0, "lengthscale": 1.0, "jitter": 0.0}, "variance"),
    ({"variance": 1.0, "lengthscale": 1.0, "jitter": -1e-6}, "jitter"),
    ({"variance": 1.0, "lengthscale": float("inf"), "jitter": 0.0}, "lengthscale"),
])
def test_squared_exponential_kernel_rejects_bad_hyperparameters(kwargs, key):
    with pytest.raises(ValueError, match=key):
        squared_exponential_kernel(np.zeros((2, 1)), **kwargs)


# ----------------------------------------------------------------------------------------
# latent GP and multinomial GP


def test_latent_gaussian_process_dimension_and_identity_embedding():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(6, 2))
    K = squared_exponential_kernel(X, variance=1.0, lengthscale=1.0, jitter=1e-6)
    model = LatentGaussianProcess(family=Bernoulli(), prior=DenseGaussianPrior(K))
    data = Dataset(X, rng.integers(0, 2, size=6))
    assert model.dim(data) == 6
    theta = jnp.asarray(rng.normal(size=6))
    np.testing.assert_array_equal(model.embedding(theta, data), theta)
    expected = (Bernoulli().log_likelihood(data.y, theta) + multivariate_normal(np.zeros(6), K).logpdf(np.asarray(theta)))
    assert float(model.logdensity(theta, data)) == pytest.approx(float(expected), rel=1e-11)


def test_multinomial_gaussian_process_embedding_and_dimension():
    n, classes = 4, 3
    rng = np.random.default_rng(3)
    X = rng.normal(size=(n, 2))
    K = squared_exponential_kernel(X, variance=1.0, lengthscale=1.0, jitter=1e-4)
    prior = DenseGaussianPrior(scipy.linalg.block_diag(K, K))
    model = MultinomialGaussianProcess(n_classes=classes, prior=prior, family=Categorical())
    data = Dataset(X, rng.integers(0, classes, size=n))
    assert model.dim(data) == n * (classes - 1) == 8
    f1, f2 = rng.normal(size=n), rng.normal(size=n)
    eta = np.asarray(model.embedding(jnp.asarray(np.concatenate([f1, f2])), data))
    assert eta.shape == (n, classes - 1)
    np.testing.assert_array_equal(eta[:, 0], f1)  # column c = latent function of class c
    np.testing.assert_array_equal(eta[:, 1], f2)


# ----------------------------------------------------------------------------------------
# logistic growth


def _growth_data(seed: int = 4, n: int = 12):
    rng = np.random.default_rng(seed)
    t = np.sort(rng.uniform(0.0, 10.0, size=n))
    r, c0, k, s = 0.9, 2.0, 50.0, 4.0
    y = c0 * k / (c0 + (k - c0) * np.exp(-r * t)) + np.sqrt(s) * rng.normal(size=n)
    return t, y


def test_logistic_growth_embedding_matches_closed_form_and_ode_solution():
    t, y = _growth_data()
    data = Dataset(t[:, None], y)
    model = LogisticGrowth()
    assert model.dim(data) == 4
    r, c0, k, s = 0.7, 1.5, 30.0, 2.5
    theta = jnp.log(jnp.asarray([r, c0, k, s]))
    h = np.asarray(model.embedding(theta, data))
    assert h.shape == (t.size + 1,)
    assert h[-1] == pytest.approx(s, rel=1e-14)
    closed = c0 * k / (c0 + (k - c0) * np.exp(-r * t))
    np.testing.assert_allclose(h[:-1], closed, rtol=1e-13)
    sol = scipy.integrate.solve_ivp(lambda _, c: r * c * (1 - c / k), (0.0, t.max()), [c0], t_eval=t,
                                    method="DOP853", rtol=1e-12, atol=1e-12)
    assert sol.success
    np.testing.assert_allclose(h[:-1], sol.y[0], rtol=1e-9)
    # C(0) = C0, C(inf) = K
    assert float(logistic_curve(jnp.asarray(0.0), r, c0, k)) == pytest.approx(c0, rel=1e-15)
    assert float(logistic_curve(jnp.asarray(200.0), r, c0, k)) == pytest.approx(k, rel=1e-12)


def test_logistic_growth_log_likelihood_is_gaussian_with_variance_exp_theta4():
    t, y = _growth_data()
    data = Dataset(t[:, None], y)
    model = LogisticGrowth()
    theta = jnp.asarray([-0.2, 0.5, 3.5, 1.1])
    r, c0, k, s = np.exp(np.asarray(theta))
    mean = c0 * k / (c0 + (k - c0) * np.exp(-r * t))
    expected = multivariate_normal(mean, s * np.eye(t.size)).logpdf(y) + multivariate_normal(
        np.zeros(4), 10.0 * np.eye(4)).logpdf(np.asarray(theta))
    assert float(model.logdensity(theta, data)) == pytest.approx(expected, rel=1e-12)


def test_logistic_growth_fisher_equals_independent_pullback():
    t, y = _growth_data()
    n = t.size
    data = Dataset(t[:, None], y)
    posterior = Posterior("toy-growth", LogisticGrowth(), data)
    theta = np.array([-0.3, 0.4, 3.2, 0.9])
    r, c0, k, s = np.exp(theta)
    e = np.exp(-r * t)
    den = c0 + (k - c0) * e
    curve = c0 * k / den
    # Dh in the log parameters, by hand: d C / d log p = p d C / d p
    jac = np.zeros((n + 1, 4))
    jac[:n, 0] = r * c0 * k * (k - c0) * t * e / den**2
    jac[:n, 1] = c0 * k**2 * e / den**2
    jac[:n, 2] = k * c0**2 * (1 - e) / den**2
    jac[n, 3] = s
    np.testing.assert_allclose(np.asarray(posterior.embed(jnp.asarray(theta)))[:n], curve, rtol=1e-13)
    info = np.concatenate([np.full(n, 1.0 / s), [n / (2.0 * s**2)]])
    expected = jac.T @ (info[:, None] * jac) + np.eye(4) / 10.0
    generic, via_posterior, _ = _fisher_and_neg_hessian(posterior, jnp.asarray(theta))
    np.testing.assert_allclose(generic, expected, rtol=1e-10)
    np.testing.assert_allclose(via_posterior, expected, rtol=1e-10)
    # The variance block in log coordinates is n/2 + 1/10 (notes Sec. 1.6).
    assert float(generic[3, 3]) == pytest.approx(n / 2 + 0.1, rel=1e-12)


# ----------------------------------------------------------------------------------------
# generic Fisher = -Hessian for canonical links


def test_poisson_regression_generic_fisher_equals_negative_hessian():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(25, 3)) * 0.5
    y = rng.poisson(np.exp(X @ np.array([0.5, -0.3, 0.8]))).astype(float)
    posterior = Posterior("toy-poisreg", PoissonRegression(prior=GaussianPrior(4.0)), Dataset(X, y))
    for theta in rng.normal(size=(2, 3)):
        generic, via_posterior, neg_hessian = _fisher_and_neg_hessian(posterior, jnp.asarray(theta))
        expected = X.T @ (np.exp(X @ theta)[:, None] * X) + np.eye(3) / 4.0
        np.testing.assert_allclose(generic, expected, rtol=1e-12)
        np.testing.assert_allclose(neg_hessian, expected, rtol=1e-10)
        np.testing.assert_array_equal(via_posterior, generic)


def test_logistic_regression_with_dense_prior_fisher_equals_negative_hessian():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(20, 3))
    y = rng.integers(0, 2, size=20).astype(float)
    cov = _spd(rng, 3)
    posterior = Posterior("toy-bernreg", LogisticRegression(prior=DenseGaussianPrior(cov)), Dataset(X, y))
    theta = rng.normal(size=3)
    generic, closed, neg_hessian = _fisher_and_neg_hessian(posterior, jnp.asarray(theta))
    s = 1 / (1 + np.exp(-X @ theta))
    expected = X.T @ ((s * (1 - s))[:, None] * X) + np.linalg.inv(cov)
    np.testing.assert_allclose(generic, expected, rtol=1e-10)
    np.testing.assert_allclose(closed, expected, rtol=1e-10)
    np.testing.assert_allclose(neg_hessian, expected, rtol=1e-10)


def test_logistic_regression_grad_and_hvp_with_dense_prior_matches_autodiff():
    """The closed-form gradient / HVP (used by RLA-B) takes any prior precision."""
    rng = np.random.default_rng(9)
    X = rng.normal(size=(15, 3))
    posterior = Posterior("toy-synthbern", LogisticRegression(prior=DenseGaussianPrior(_spd(rng, 3))),
                          Dataset(X, rng.integers(0, 2, size=15)))
    theta, v = jnp.asarray(rng.normal(size=3)), jnp.asarray(rng.normal(size=3))
    grad, hvp = posterior.grad_and_hvp(theta, v)
    expected_grad, expected_hvp = posterior.autodiff_grad_and_hvp(theta, v)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-12)
    np.testing.assert_allclose(hvp, expected_hvp, rtol=1e-12)


def test_latent_gp_generic_fisher_equals_negative_hessian():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(6, 2))
    K = squared_exponential_kernel(X, variance=2.0, lengthscale=1.0, jitter=1e-3)
    posterior = Posterior("toy-poisgp", LatentGaussianProcess(family=Poisson(), prior=DenseGaussianPrior(K)),
                          Dataset(X, rng.poisson(2.0, size=6)))
    theta = rng.normal(size=6)
    generic, _, neg_hessian = _fisher_and_neg_hessian(posterior, jnp.asarray(theta))
    expected = np.diag(np.exp(theta)) + np.linalg.inv(K)
    np.testing.assert_allclose(generic, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
    np.testing.assert_allclose(neg_hessian, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())


def test_multinomial_gp_generic_fisher_equals_negative_hessian():
    n, classes = 4, 3
    rng = np.random.default_rng(8)
    X = rng.normal(size=(n, 2))
    K = squared_exponential_kernel(X, variance=1.0, lengthscale=1.0, jitter=1e-2)
    prior_cov = scipy.linalg.block_diag(K, K)
    model = MultinomialGaussianProcess(n_classes=classes, prior=DenseGaussianPrior(prior_cov), family=Categorical())
    posterior = Posterior("toy-multigp", model, Dataset(X, rng.integers(0, classes, size=n)))
    theta = rng.normal(size=n * (classes - 1))
    generic, _, neg_hessian = _fisher_and_neg_hessian(posterior, jnp.asarray(theta))
    # by hand: block (c, c') of the likelihood part is diag_n(p_nc delta_cc' - p_nc p_nc')
    f = theta.reshape(classes - 1, n).T
    full = np.column_stack([f, np.zeros(n)])
    p = np.exp(full) / np.exp(full).sum(1, keepdims=True)
    like = np.zeros((n * (classes - 1),) * 2)
    for a in range(classes - 1):
        for b in range(classes - 1):
            like[a * n:(a + 1) * n, b * n:(b + 1) * n] = np.diag(p[:, a] * ((a == b) - p[:, b]))
    expected = like + np.linalg.inv(prior_cov)
    np.testing.assert_allclose(generic, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
    np.testing.assert_allclose(neg_hessian, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
