"""WG, the closed-form wrapped Gaussian of Hartmann et al. (2026): known answers (notes Sec. 1.5,
1.6 and the validation checks of Sec. 6.3).

* Gaussian linear model (App. C.1): ``Log = theta - mu_post``, ``D Log = I``, WG = the exact
  posterior; its samples are the ELA samples.
* Neal's funnel (App. C.2, base point 0, Fisher precision), squiggle and Rosenbrock (flat
  prior, base point = MAP, Hessian precision): WG = the target density exactly; the squiggle
  and Rosenbrock samples are the exact images ``psi^{-1}(J(theta*) V)`` of the tangent draws
  and match exact draws in mean and covariance.
* ``Log(theta*) = 0``, ``D Log(theta*) = I`` for every model (App. B).
* Canonical GLMs: ``Log(theta) = 1/2 (theta - theta_hat) + 1/2 Sigma_bar grad U(theta)``.
* Eq. (15) equals Eq. (12) written with the prior precision and the Bregman divergences.
* The sampler's failure reporting: result codes, residuals, RESIDUAL_FAILURE.
"""

from __future__ import annotations

import functools
import logging

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optimistix as optx
import pytest
import scipy.linalg
from scipy.stats import multivariate_normal

from geobayes.batching import Schedule, scheduled_map
from geobayes.data.linear_gaussian import simulate_linear_gaussian
from geobayes.dataset import Dataset
from geobayes.families import Bernoulli, Categorical, GaussianFixedCovariance, GaussianFixedVariance
from geobayes.geometry.approximate_exponential_map import (
    RESIDUAL_FAILURE,
    ExpMapSettings,
    approximate_exponential_map,
    solve_unsolved,
)
from geobayes.geometry.approximate_log_map import ApproximateLogMap
from geobayes.methods import ApproximateDraws, get_method, method_config, summarise_draws
from geobayes.methods import wg
from geobayes.models import (
    DenseGaussianPrior,
    GaussianPrior,
    LatentGaussianProcess,
    LinearGaussianRegression,
    LogisticGrowth,
    LogisticRegression,
    MultinomialGaussianProcess,
    PoissonRegression,
)
from geobayes.models.kernels import squared_exponential_kernel
from geobayes.optimize import anchor_objective, find_map
from geobayes.optimize.broyden import Broyden
from geobayes.posterior import Posterior
from geobayes.settings import from_mapping
from geobayes.target import Target
from geobayes.targets import Funnel, Rosenbrock, Squiggle


def _settings(**overrides) -> dict:
    options = {"solver": "levenberg_marquardt", "rtol": 1e-10, "atol": 1e-10, "max_steps": 256,
               "residual_tol": 1e-6}
    options.update(overrides)
    return options


def _config(precision: str = "hessian", **overrides) -> dict:
    return {"precision": precision, "wrapped_gaussian": _settings(**overrides)}


# ----------------------------------------------------------------------------------------
# posteriors


def _spd(rng: np.random.Generator, d: int) -> np.ndarray:
    a = rng.normal(size=(d, d))
    return a @ a.T / d + 0.5 * np.eye(d)


def _bernreg(prior=None) -> Posterior:
    rng = np.random.default_rng(10)
    X = np.column_stack([rng.normal(size=(30, 2)), np.ones(30)])
    y = (rng.uniform(size=30) < 1 / (1 + np.exp(-X @ np.array([1.0, -0.7, 0.3])))).astype(float)
    return Posterior("toy-bernreg", LogisticRegression(prior=prior or GaussianPrior(4.0)), Dataset(X, y))


def _poisreg(prior=None) -> Posterior:
    rng = np.random.default_rng(11)
    X = np.column_stack([0.6 * rng.normal(size=(30, 2)), np.ones(30)])
    y = rng.poisson(np.exp(X @ np.array([0.5, -0.4, 0.7]))).astype(float)
    return Posterior("toy-poisreg", PoissonRegression(prior=prior or GaussianPrior(4.0)), Dataset(X, y))


def _berngp() -> Posterior:
    rng = np.random.default_rng(12)
    X = rng.normal(size=(8, 2))
    K = squared_exponential_kernel(X, variance=2.0, lengthscale=1.0, jitter=1e-4)
    y = (X[:, 0] + 0.3 * rng.normal(size=8) > 0).astype(float)
    return Posterior("toy-berngp", LatentGaussianProcess(family=Bernoulli(), prior=DenseGaussianPrior(K)),
                     Dataset(X, y))


def _multigp() -> Posterior:
    rng = np.random.default_rng(13)
    n, classes = 5, 3
    X = rng.normal(size=(n, 2))
    K = squared_exponential_kernel(X, variance=2.0, lengthscale=1.0, jitter=1e-4)
    model = MultinomialGaussianProcess(n_classes=classes, prior=DenseGaussianPrior(scipy.linalg.block_diag(K, K)),
                                       family=Categorical())
    return Posterior("toy-multigp", model, Dataset(X, np.array([0, 1, 2, 0, 2])))


def _growth() -> Posterior:
    rng = np.random.default_rng(14)
    t = np.sort(rng.uniform(0.0, 10.0, size=15))
    y = 2.0 * 50.0 / (2.0 + 48.0 * np.exp(-0.9 * t)) + 2.0 * rng.normal(size=15)
    return Posterior("x-growth", LogisticGrowth(), Dataset(t[:, None], y))


@eqx.filter_jit
def _newton(posterior: Posterior, theta: jax.Array) -> jax.Array:
    """25 Newton steps on the log posterior (strictly concave for the canonical GLMs)."""
    def step(_, th):
        return th - jnp.linalg.solve(posterior.hessian(th), posterior.grad(th))
    return jax.lax.fori_loop(0, 25, step, theta)


@eqx.filter_jit
def _grad_and_hessian(posterior: Posterior, theta: jax.Array):
    return posterior.grad(theta), posterior.hessian(theta)


#: ApproximateLogMap built in one compiled call (eagerly, its autodiff dispatches op by op).
_log_map_at = eqx.filter_jit(ApproximateLogMap)

GROWTH_START = np.log([0.9, 2.0, 50.0, 4.0])  # the simulation's (r, C0, K, sigma^2)


@functools.cache
def _posterior_and_map(name: str):
    """The posterior and its MAP by Newton's method, to rounding (the GLM identity below needs
    ``grad U(theta_hat) = 0``); ``test_find_map_agrees_with_newton`` ties it to ``find_map``."""
    posterior = {"bernreg": _bernreg, "poisreg": _poisreg, "berngp": _berngp, "multigp": _multigp,
                 "growth": _growth}[name]()
    start = GROWTH_START if name == "growth" else np.zeros(posterior.dim)
    theta = _newton(posterior, jnp.asarray(start))
    grad, hessian = _grad_and_hessian(posterior, theta)
    assert float(jnp.max(jnp.abs(grad))) < 1e-9
    assert float(jnp.min(jnp.linalg.eigvalsh(-hessian))) > 0  # a maximum
    return posterior, theta


def test_find_map_agrees_with_newton():
    posterior, theta_hat = _posterior_and_map("bernreg")
    estimate = find_map(anchor_objective("euclidean"), posterior, posterior.dim, jax.random.PRNGKey(0), restarts=2)
    assert estimate.converged, estimate.summary()
    np.testing.assert_allclose(estimate.position, theta_hat, rtol=0, atol=1e-6)


# ----------------------------------------------------------------------------------------
# Gaussian linear model (App. C.1)


def _linear_gaussian() -> Posterior:
    data = simulate_linear_gaussian(25, 3, noise_variance=0.5, prior_variance=2.0, seed=3)
    model = LinearGaussianRegression(family=GaussianFixedVariance(0.5), prior=GaussianPrior(2.0))
    return Posterior("toy-lingauss", model, Dataset(data["X"], data["y"]))


@functools.cache
def _linear_gaussian_fit():
    posterior = _linear_gaussian()
    mean = posterior.model.exact_posterior(posterior.data)[0]
    return posterior, wg.fit(posterior, wg.Config.from_mapping(_config()), jax.random.PRNGKey(0), mode=mean)


def test_linear_gaussian_wg_is_the_exact_posterior():
    posterior, fit = _linear_gaussian_fit()
    mean, cov = (np.asarray(a) for a in posterior.model.exact_posterior(posterior.data))
    assert fit.stats["method"] == "wg"
    approx = fit.approximation
    points = mean + np.random.default_rng(0).normal(size=(6, 3)) @ np.linalg.cholesky(cov).T * 2.0
    log_prob, log_map, jacobian = jax.jit(jax.vmap(
        lambda p: (approx.log_prob(p), approx.log_map(p), approx.log_map.jacobian(p))))(jnp.asarray(points))
    np.testing.assert_allclose(log_prob, multivariate_normal(mean, cov).logpdf(points), rtol=0, atol=1e-8)
    np.testing.assert_allclose(log_map, points - mean, rtol=0, atol=1e-10)
    np.testing.assert_allclose(jacobian, np.broadcast_to(np.eye(3), (6, 3, 3)), rtol=0, atol=1e-12)


def test_linear_gaussian_wg_samples_are_ela_samples():
    posterior, fit = _linear_gaussian_fit()
    mean = posterior.model.exact_posterior(posterior.data)[0]
    key = jax.random.PRNGKey(1)
    expected = get_method("ela").fit(posterior, method_config("ela", _config()), key, mode=mean)
    expected = expected.approximation.sample(key, 100)
    draws = fit.approximation.sample(key, 100)
    assert bool(jnp.all(draws.successful))
    np.testing.assert_array_equal(draws.result_code, 0)
    assert float(jnp.max(draws.residual)) < 1e-10
    np.testing.assert_allclose(draws.theta, expected.theta, rtol=0, atol=1e-9)


# ----------------------------------------------------------------------------------------
# Gaussian-image targets: funnel, squiggle, Rosenbrock


SQUIGGLE = Squiggle(name="hartmann-squiggle", a=1.5, variances=(2.0, 0.1))
ROSENBROCK = Rosenbrock(name="hartmann-rosenbrock")
FUNNEL = Funnel(name="neal-funnel", sigma=3.0)
IMAGE_TARGETS = {
    "funnel": (FUNNEL, np.zeros(2), "fisher"),
    "squiggle": (SQUIGGLE, np.zeros(2), "hessian"),
    "rosenbrock": (ROSENBROCK, np.array([2.0, 4.0]), "hessian"),
}


@functools.cache
def _image_fit(name: str):
    target, base, precision = IMAGE_TARGETS[name]
    config = wg.Config.from_mapping(_config(precision))
    return wg.fit(target, config, jax.random.PRNGKey(0), mode=jnp.asarray(base)).approximation


@pytest.mark.parametrize("name", list(IMAGE_TARGETS))
def test_wg_density_equals_target_density(name):
    target = IMAGE_TARGETS[name][0]
    approx = _image_fit(name)
    points = np.asarray(target.sample_exact(jax.random.PRNGKey(5), 20))
    got = np.asarray(jax.jit(jax.vmap(approx.log_prob))(jnp.asarray(points)))
    expected = np.asarray(jax.vmap(target.logdensity)(jnp.asarray(points)))
    assert np.all(np.isfinite(expected)) and np.ptp(expected) > 1.0
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-10)


N_IMAGE = 4000


@functools.cache
def _image_draws(name: str):
    """4000 WG draws and their tangent velocities (one compiled call per target)."""
    approx = _image_fit(name)
    key = jax.random.PRNGKey(2)
    return approx.sample(key, N_IMAGE), approx.tangent.sample_velocities(key, N_IMAGE)


@pytest.mark.parametrize("name", ["squiggle", "rosenbrock"])
def test_wg_draws_are_exact_images_of_the_tangent_draws(name):
    """Flat prior, square ``J = d psi / d theta``: ``Log(theta) = J(theta*)^{-1} psi(theta)``
    (psi(theta*) = 0), so ``Exp(V) = psi^{-1}(J(theta*) V)``."""
    target, base, _ = IMAGE_TARGETS[name]
    draws, velocities = _image_draws(name)
    jac = target.to_gaussian_jacobian(jnp.asarray(base))
    expected = np.asarray(jax.vmap(lambda v: target.from_gaussian(jac @ v))(velocities))
    np.testing.assert_array_equal(draws.result_code, 0)
    assert bool(jnp.all(draws.successful))
    assert float(jnp.max(draws.residual)) < 1e-6
    scale = 1.0 + np.abs(expected)
    np.testing.assert_array_less(np.abs(np.asarray(draws.theta) - expected) / scale, 1e-6)


@pytest.mark.parametrize("name", ["squiggle", "rosenbrock"])
def test_wg_draws_match_exact_draws_in_mean_and_covariance(name):
    target, base, _ = IMAGE_TARGETS[name]
    n = N_IMAGE
    a = np.asarray(_image_draws(name)[0].theta)
    b = np.asarray(target.sample_exact(jax.random.PRNGKey(4), n))
    # means: 5 standard errors of a difference of two independent means
    se = np.sqrt(a.var(0) / n + b.var(0) / n)
    assert np.all(np.abs(a.mean(0) - b.mean(0)) < 5 * se), (a.mean(0) - b.mean(0)) / se

    # covariances: the standard error of each entry from the 4th moments of each sample
    def cov_and_se2(x):
        c = x - x.mean(0)
        prod = c[:, :, None] * c[:, None, :]
        return prod.mean(0), prod.var(0) / n

    ca, va = cov_and_se2(a)
    cb, vb = cov_and_se2(b)
    z = np.abs(ca - cb) / np.sqrt(va + vb)
    assert np.all(z < 5), z
    # the same check rejects Laplace (N(theta*, Sigma_bar)): it has the wrong covariance
    precision = -np.asarray(target.hessian(jnp.asarray(base)))
    z_la = np.abs(np.linalg.inv(precision) - cb) / np.sqrt(vb)
    assert np.max(z_la) > 5, z_la


# ----------------------------------------------------------------------------------------
# Log(theta_hat) = 0 and D Log(theta_hat) = I


@eqx.filter_jit
def _log_and_jacobian(log_map: ApproximateLogMap, theta: jax.Array):
    return log_map(theta), log_map.jacobian(theta)


@pytest.mark.parametrize("name", ["bernreg", "poisreg", "berngp", "multigp", "growth"])
def test_log_map_vanishes_with_identity_jacobian_at_the_map(name):
    posterior, theta_hat = _posterior_and_map(name)
    log_map = _log_map_at(posterior, theta_hat)
    d = posterior.dim
    value, jacobian = _log_and_jacobian(log_map, theta_hat)
    np.testing.assert_allclose(value, np.zeros(d), rtol=0, atol=1e-12)
    np.testing.assert_allclose(jacobian, np.eye(d), rtol=0, atol=1e-9)
    # away from the base point the map is not the identity (the test could fail)
    value, jacobian = _log_and_jacobian(log_map, theta_hat + 0.5)
    assert np.max(np.abs(np.asarray(jacobian) - np.eye(d))) > 1e-3


# ----------------------------------------------------------------------------------------
# canonical GLMs: Log = (theta - theta_hat)/2 + Sigma_bar grad U / 2


@pytest.mark.parametrize("name", ["bernreg", "poisreg", "berngp"])
def test_canonical_glm_log_map_is_average_of_displacement_and_newton_step(name):
    posterior, theta_hat = _posterior_and_map(name)
    log_map = _log_map_at(posterior, theta_hat)
    g_hat = -np.asarray(_grad_and_hessian(posterior, theta_hat)[1])
    sigma_bar = np.linalg.inv(g_hat)
    chol = np.linalg.cholesky(sigma_bar)
    rng = np.random.default_rng(1)
    for _ in range(3):
        theta = theta_hat + jnp.asarray(2.0 * chol @ rng.normal(size=posterior.dim))
        value, jacobian = _log_and_jacobian(log_map, theta)  # compiled by the test above
        gu, gg = (-a for a in _grad_and_hessian(posterior, theta))
        expected = 0.5 * (theta - theta_hat) + 0.5 * sigma_bar @ np.asarray(gu)
        assert np.max(np.abs(expected - np.asarray(theta - theta_hat))) > 1e-3  # not trivially linear
        np.testing.assert_allclose(value, expected, rtol=1e-8, atol=1e-10)
        # D Log = 1/2 G(theta_hat)^{-1} (G(theta_hat) + G(theta)), G = -Hessian (canonical link)
        np.testing.assert_allclose(jacobian, 0.5 * np.linalg.solve(g_hat, g_hat + np.asarray(gg)),
                                   rtol=1e-8, atol=1e-10)


# ----------------------------------------------------------------------------------------
# Eq. (15) = Eq. (12)


def _bregman(phi, a, b):
    """``D_phi(a || b) = phi(a) - phi(b) - <grad phi(b), a - b>``."""
    return phi(a) - phi(b) - jax.grad(phi)(b) @ (a - b)


@jax.jit
def _eq12_poisson(X, precision, base, theta):
    """Eq. (12) from scratch: ``-1/2 G^{-1} grad_{theta1} D_post`` with ``G = F^T diag(e^{F theta*}) F
    + Sigma_pi^{-1}`` and ``D_post = KLsym + D_phi(1||2) + D_phi(2||1)``, ``phi = -log prior``."""
    phi = lambda th: 0.5 * th @ precision @ th  # noqa: E731  (-log N(0, Sigma_pi) + const)
    kl_sym = lambda e1, e2: jnp.sum((e1 - e2) * (jnp.exp(e1) - jnp.exp(e2)))  # noqa: E731

    def contrast(t1):
        return kl_sym(X @ t1, X @ theta) + _bregman(phi, t1, theta) + _bregman(phi, theta, t1)

    G = X.T @ (jnp.exp(X @ base)[:, None] * X) + precision
    return -0.5 * jnp.linalg.solve(G, jax.grad(contrast)(base))


def test_eq15_equals_eq12_with_dense_prior():
    rng = np.random.default_rng(20)
    cov = _spd(rng, 3)
    assert np.linalg.cond(cov) < 50
    posterior = _poisreg(prior=DenseGaussianPrior(cov))
    base = jnp.asarray([0.3, -0.2, 0.5])  # any base point: the identity is algebraic
    log_map = _log_map_at(posterior, base)
    thetas = base + jnp.asarray(rng.normal(scale=0.7, size=(4, 3)))
    got = jax.jit(jax.vmap(log_map))(thetas)
    expected = jax.vmap(lambda th: _eq12_poisson(posterior.data.X, jnp.asarray(np.linalg.inv(cov)), base, th))(thetas)
    assert np.min(np.max(np.abs(np.asarray(expected)), axis=1)) > 1e-2
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


def test_eq15_equals_eq12_for_the_non_affine_growth_model():
    posterior = _growth()
    base = jnp.asarray([-0.1, 0.6, 3.9, 1.3])
    log_map = _log_map_at(posterior, base)
    precision = jnp.eye(4) / 10.0
    phi = lambda th: 0.5 * th @ precision @ th  # noqa: E731
    n = posterior.data.y.shape[0]
    s = jnp.exp(base[3])
    info = jnp.concatenate([jnp.full(n, 1.0 / s), jnp.array([n / (2.0 * s**2)])])  # notes Sec. 1.6

    @jax.jit
    def eq12(theta):
        jac = jax.jacfwd(posterior.embed)(base)
        G = jac.T @ (info[:, None] * jac) + precision

        def contrast(t1):
            return (posterior.family.symmetrised_kl(posterior.embed(t1), posterior.embed(theta))
                    + _bregman(phi, t1, theta) + _bregman(phi, theta, t1))

        return -0.5 * jnp.linalg.solve(G, jax.grad(contrast)(base))

    thetas = base + jnp.asarray(np.random.default_rng(21).normal(scale=0.1, size=(3, 4)))
    got = jax.jit(jax.vmap(log_map))(thetas)
    expected = jax.vmap(eq12)(thetas)
    assert np.min(np.max(np.abs(np.asarray(expected)), axis=1)) > 1e-2
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


# ----------------------------------------------------------------------------------------
# sampling: result codes, residuals, solvers


N_DRAWS = 200


@functools.cache
def _glm_draws(name: str, solver: str = "levenberg_marquardt"):
    posterior, theta_hat = _posterior_and_map(name)
    key = jax.random.PRNGKey(7)
    approx = wg.fit(posterior, wg.Config.from_mapping(_config(solver=solver)), key, mode=theta_hat).approximation
    return approx, approx.sample(key, N_DRAWS), approx.tangent.sample_velocities(key, N_DRAWS)


@pytest.mark.parametrize("name", ["berngp"])
def test_affine_models_sample_without_failures(name):
    _, theta_hat = _posterior_and_map(name)
    approx, draws, velocities = _glm_draws(name)
    assert isinstance(draws, ApproximateDraws)
    assert draws.residual is not None and draws.residual.shape == (N_DRAWS,)
    np.testing.assert_array_equal(draws.result_code, 0)
    assert bool(jnp.all(draws.successful))
    assert float(jnp.max(draws.residual)) < 1e-6
    # each draw is a preimage: Log(theta_V) = V
    np.testing.assert_allclose(jax.jit(jax.vmap(approx.log_map))(draws.theta), velocities, rtol=0, atol=1e-6)
    # the draws are not the Laplace draws (the GLM posteriors are not Gaussian)
    assert float(jnp.max(jnp.abs(draws.theta - (theta_hat + velocities)))) > 1e-3

    summary = summarise_draws(draws, wg.EVALUATIONS_PER_STEP)
    assert summary["n_failed"] == 0 and summary["result_codes"] == {"0": N_DRAWS}
    assert summary["max_residual"] == pytest.approx(float(jnp.max(draws.residual)), rel=1e-15)
    assert summary["median_residual"] == pytest.approx(float(jnp.median(draws.residual)), rel=1e-15)
    assert summary["T"] == pytest.approx(float(np.mean(draws.num_steps)) * wg.EVALUATIONS_PER_STEP)
    arrays = draws.arrays()
    assert set(arrays) == {"theta", "successful", "result_code", "num_steps", "residual", "fallback"}


def test_newton_solver_gives_the_levenberg_marquardt_draws():
    _, lm, _ = _glm_draws("berngp")
    _, newton, _ = _glm_draws("berngp", "newton")
    np.testing.assert_array_equal(newton.result_code, 0)
    assert float(jnp.max(newton.residual)) < 1e-6
    np.testing.assert_allclose(newton.theta, lm.theta, rtol=0, atol=1e-7)
    assert int(jnp.max(newton.num_steps)) < 20  # Newton converges in a few steps (Corollary 1)


@pytest.mark.parametrize("name", ["berngp", "poisreg"])
def test_fixed_point_solver_gives_the_levenberg_marquardt_draws(name):
    """theta <- theta - (Log(theta) - V) (D Log = I at the MAP; no Jacobian) converges to the same
    preimages as Levenberg-Marquardt, one Log evaluation a step (more steps than Newton's)."""
    approx, lm, velocities = _glm_draws(name)
    _, fixed, _ = _glm_draws(name, "fixed_point")
    np.testing.assert_array_equal(fixed.result_code, 0)
    assert float(jnp.max(fixed.residual)) < 1e-6
    np.testing.assert_allclose(jax.jit(jax.vmap(approx.log_map))(fixed.theta), velocities, rtol=0, atol=1e-6)
    np.testing.assert_allclose(fixed.theta, lm.theta, rtol=0, atol=1e-7)
    _, newton, _ = _glm_draws(name, "newton")
    assert float(jnp.mean(fixed.num_steps)) > float(jnp.mean(newton.num_steps))


@pytest.mark.parametrize("name", ["berngp", "bernreg", "poisreg"])
def test_broyden_solver_gives_the_newton_draws_in_cheaper_steps(name):
    """Broyden's root find from the inverse Jacobian I (D Log = I at the MAP) reaches Newton's
    preimages to the tolerance, every sample, in more steps than Newton but no more than 64."""
    approx, newton, velocities = _glm_draws(name, "newton")
    _, broyden, _ = _glm_draws(name, "broyden")
    np.testing.assert_array_equal(broyden.result_code, 0)
    assert not bool(jnp.any(broyden.fallback))
    assert float(jnp.max(broyden.residual)) < 1e-6
    np.testing.assert_allclose(jax.jit(jax.vmap(approx.log_map))(broyden.theta), velocities, rtol=0, atol=1e-7)
    np.testing.assert_allclose(broyden.theta, newton.theta, rtol=0, atol=1e-6)
    assert float(jnp.mean(newton.num_steps)) < float(jnp.mean(broyden.num_steps)) <= 64


def test_broyden_line_search_bounds_the_steps_of_far_samples_where_newton_cycles():
    """On a nearly separable logistic regression (|theta*| ~ 14) the full Broyden step overshoots
    on far draws and the plain method wanders (75 steps on the slowest of 200 draws); the
    backtracking line search solves every draw in at most 30 (28), to the same preimages, where
    undamped Newton leaves some unsolved."""
    rng = np.random.default_rng(1)
    X = np.column_stack([rng.normal(size=(60, 4)), np.ones(60)])
    coefficients = 3.0 * rng.normal(size=5)
    y = (rng.uniform(size=60) < 1 / (1 + np.exp(-X @ coefficients))).astype(float)
    posterior = Posterior("separable-bernreg", LogisticRegression(prior=GaussianPrior(100.0)), Dataset(X, y))
    mode = find_map(anchor_objective("euclidean"), posterior, 5, jax.random.PRNGKey(0), restarts=2).position
    approx = wg.fit(posterior, wg.Config.from_mapping(_config(solver="broyden", fallback="none")), None,
                    mode=mode).approximation
    velocities = approx.tangent.sample_velocities(jax.random.PRNGKey(3), 200)

    def solve(halvings):
        def one(v):
            sol = optx.root_find(lambda theta, v: approx.log_map(theta) - v,
                                 Broyden(rtol=1e-10, atol=1e-10, halvings=halvings), approx.log_map.base + v, args=v,
                                 max_steps=256, throw=False)
            return sol.value, sol.result == optx.RESULTS.successful, sol.stats["num_steps"]
        return jax.jit(jax.vmap(one))(velocities)

    plain, plain_ok, plain_steps = solve(0)
    searched, searched_ok, searched_steps = solve(6)
    assert bool(jnp.all(searched_ok)) and bool(jnp.all(plain_ok))
    assert int(searched_steps.max()) <= 30 < 60 < int(plain_steps.max())
    np.testing.assert_allclose(searched, plain, rtol=0, atol=1e-6)
    # the pipeline's `broyden` is the searched one
    draws = approx.sample(jax.random.PRNGKey(3), 200)
    np.testing.assert_array_equal(draws.num_steps, searched_steps)
    newton = wg.fit(posterior, wg.Config.from_mapping(_config(solver="newton", fallback="none")), None,
                    mode=mode).approximation.sample(jax.random.PRNGKey(3), 200)
    assert not bool(jnp.all(newton.successful))


def test_fixed_point_stops_at_its_own_cap_and_the_fallback_solves_the_rest():
    """With a fallback, fixed_point runs at most ``fixed_point_steps`` steps (not ``fallback_after``),
    and Levenberg-Marquardt solves again exactly the samples it left unsolved."""
    posterior, theta_hat = _posterior_and_map("poisreg")
    key = jax.random.PRNGKey(9)
    alone = wg.fit(posterior, wg.Config.from_mapping(_config(solver="fixed_point", fallback="none", max_steps=10)),
                   key, mode=theta_hat).approximation.sample(key, 50)
    unsolved = ~np.asarray(alone.successful)
    assert 0 < unsolved.sum() < 50, unsolved.sum()
    settings = _config(solver="fixed_point", fallback="levenberg_marquardt", fixed_point_steps=10, fallback_after=1)
    draws = wg.fit(posterior, wg.Config.from_mapping(settings), key, mode=theta_hat).approximation.sample(key, 50)
    np.testing.assert_array_equal(np.asarray(draws.fallback), unsolved)
    np.testing.assert_array_equal(draws.result_code, 0)
    solved = ~unsolved
    np.testing.assert_array_equal(np.asarray(draws.theta)[solved], np.asarray(alone.theta)[solved])
    assert np.all(np.asarray(draws.num_steps)[unsolved] > 10)


@pytest.mark.parametrize("name", ["growth", "berngp"])
def test_matrix_free_solver_gives_the_levenberg_marquardt_draws(name):
    """levenberg_marquardt_lsmr (LSMR steps from JVPs/VJPs, no Jacobian) inverts the log map of a
    real posterior (the non-affine growth model, the 8-dimensional latent GP) to the same points."""
    approx, lm, velocities = _glm_draws(name)
    _, free, _ = _glm_draws(name, "levenberg_marquardt_lsmr")
    np.testing.assert_array_equal(lm.result_code, 0)
    np.testing.assert_array_equal(free.result_code, 0)
    assert bool(jnp.all(free.successful))
    assert float(jnp.max(free.residual)) < 1e-6
    np.testing.assert_allclose(jax.jit(jax.vmap(approx.log_map))(free.theta), velocities, rtol=0, atol=1e-6)
    np.testing.assert_allclose(free.theta, lm.theta, rtol=0, atol=1e-7)


@pytest.mark.parametrize("solver", ["levenberg_marquardt", "levenberg_marquardt_lsmr"])
def test_step_cap_reports_failures_instead_of_raising(solver):
    posterior, theta_hat = _posterior_and_map("poisreg")
    key = jax.random.PRNGKey(8)
    config = wg.Config.from_mapping(_config(max_steps=1, solver=solver, fallback="none"))
    approx = wg.fit(posterior, config, key, mode=theta_hat).approximation
    draws = approx.sample(key, 50)
    codes = np.asarray(draws.result_code)
    assert np.all(codes != 0), codes
    assert not bool(jnp.any(draws.successful))
    assert np.all(np.asarray(draws.num_steps) <= 1)
    assert not bool(jnp.any(draws.fallback))
    summary = summarise_draws(draws, wg.EVALUATIONS_PER_STEP)
    assert summary["n_failed"] == 50 and summary["failed_fraction"] == 1.0
    assert summary["n_fallback"] == 0


def test_fallback_solves_again_exactly_the_samples_the_solver_leaves_unsolved():
    """Newton stopped after 3 steps leaves 33 of 50 Poisson-regression samples unsolved; the
    Levenberg-Marquardt fallback solves exactly those again, to the points Levenberg-Marquardt
    alone finds, and the others keep Newton's points; each sample's steps are both solves'."""
    posterior, theta_hat = _posterior_and_map("poisreg")
    key = jax.random.PRNGKey(8)

    def draws(**overrides):
        config = wg.Config.from_mapping(_config(**overrides))
        return wg.fit(posterior, config, key, mode=theta_hat).approximation.sample(key, 50)

    newton = draws(solver="newton", max_steps=3, fallback="none")
    unsolved = ~np.asarray(newton.successful)
    assert unsolved.sum() == 33
    lm = draws(solver="levenberg_marquardt")
    rescued = draws(solver="newton", fallback="levenberg_marquardt", fallback_after=3, fallback_chunk_size=8)

    np.testing.assert_array_equal(rescued.fallback, unsolved)
    np.testing.assert_array_equal(rescued.result_code, 0)
    assert float(jnp.max(rescued.residual)) < 1e-6
    np.testing.assert_allclose(rescued.theta[unsolved], lm.theta[unsolved], rtol=0, atol=1e-7)
    np.testing.assert_allclose(rescued.theta[~unsolved], newton.theta[~unsolved], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(rescued.num_steps[~unsolved], newton.num_steps[~unsolved])
    np.testing.assert_array_equal(rescued.num_steps[unsolved], 3 + np.asarray(lm.num_steps)[unsolved])
    summary = summarise_draws(rescued, wg.EVALUATIONS_PER_STEP)
    assert (summary["n_failed"], summary["n_fallback"], summary["n_fallback_failed"]) == (0, 33, 0)


def _draws_and_compiled(sample, caplog):
    """``sample()``'s draws and the names of the programs JAX compiled for it (its compile log)."""
    jax.clear_caches()  # a program compiled by an earlier test would otherwise not be logged
    caplog.clear()
    with caplog.at_level(logging.WARNING), jax.log_compiles(True):
        draws = jax.block_until_ready(sample())
    return draws, " ".join(record.getMessage() for record in caplog.records if "Compiling" in record.getMessage())


def _newton_with_fallback(fallback_after: int):
    """WG on the Poisson regression: Newton capped at ``fallback_after`` steps, then Levenberg-Marquardt
    8 at a time; with the key it draws with."""
    posterior, theta_hat = _posterior_and_map("poisreg")
    key = jax.random.PRNGKey(8)
    config = wg.Config.from_mapping(_config(solver="newton", fallback="levenberg_marquardt",
                                            fallback_after=fallback_after, fallback_chunk_size=8))
    return wg.fit(posterior, config, key, mode=theta_hat).approximation, key


@pytest.mark.parametrize("fallback_after, unsolved", [(16, 0), (3, 33)])
def test_the_fallback_is_compiled_only_for_a_batch_that_needs_it(fallback_after, unsolved, caplog):
    """Eager sampling compiles the Levenberg-Marquardt fallback as its own program, only when the
    first solver leaves a sample unsolved (Newton capped at 16 steps solves all 50 Poisson-regression
    samples, at 3 steps leaves 33); the draws are bit-identical to one program holding both solvers
    (a caller's jit around ``sample``, as before)."""
    approximation, key = _newton_with_fallback(fallback_after)
    lazy, compiled = _draws_and_compiled(lambda: approximation.sample(key, 50), caplog)
    assert int(np.sum(lazy.fallback)) == unsolved
    assert ("jit(with_fallback)" in compiled) == (unsolved > 0), compiled
    assert "jit(_first)" in compiled

    one_program, compiled = _draws_and_compiled(lambda: eqx.filter_jit(lambda a: a.sample(key, 50))(approximation),
                                                caplog)
    assert "jit(with_fallback)" not in compiled and "jit(_first)" not in compiled  # inlined in the caller's program
    for ours, theirs in zip(lazy, one_program, strict=True):
        if ours is not None:
            np.testing.assert_array_equal(ours, theirs)


def test_the_exponential_map_called_eagerly_runs_as_programs_with_the_draws_of_one(caplog):
    """``approximate_exponential_map`` outside any ``jit`` compiles the first solve as its own program
    (not op by op) and the fallback as another, and gives the draws of the same call in one program."""
    approximation, key = _newton_with_fallback(3)
    velocities = approximation.tangent.sample_velocities(key, 50)
    eager, compiled = _draws_and_compiled(
        lambda: approximate_exponential_map(approximation.log_map, velocities, approximation.settings), caplog)
    assert "jit(first_solve)" in compiled and "jit(with_fallback)" in compiled
    assert int(np.sum(eager.fallback)) == 33
    jitted = eqx.filter_jit(approximate_exponential_map)(approximation.log_map, velocities, approximation.settings)
    for ours, theirs in zip(eager, jitted, strict=True):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("chunk", [1, 3, 7, 50, 64])
@pytest.mark.parametrize("count", [0, 1, 9])
def test_unsolved_samples_are_solved_in_as_many_chunks_as_they_fill(chunk, count):
    """solve_unsolved runs its solve on every unsolved row, in the rows' order, and on no chunk
    past the last of them: rows of chunks never run stay zero (none unsolved: no solve at all)."""
    velocities = jnp.arange(1.0, 51.0)[:, None] * jnp.ones((1, 2))
    unsolved = np.zeros(50, dtype=bool)
    unsolved[np.random.default_rng(count).choice(50, size=count, replace=False)] = True
    (out,) = solve_unsolved(lambda v: (v + 1000.0,), velocities, jnp.asarray(unsolved), chunk)
    np.testing.assert_array_equal(out[unsolved], velocities[unsolved] + 1000.0)
    solved_rows = int(np.sum(np.asarray(out[:, 0]) != 0))
    assert solved_rows == min(50, -(-count // chunk) * chunk)


def test_ela_draws_have_no_residual():
    posterior = _linear_gaussian()
    mean = posterior.model.exact_posterior(posterior.data)[0]
    fitted = get_method("ela").fit(posterior, method_config("ela"), None, mode=mean)
    draws = fitted.approximation.sample(jax.random.PRNGKey(0), 5)
    assert draws.residual is None
    assert "residual" not in draws.arrays()
    assert "max_residual" not in summarise_draws(draws, 1)


class _Fold(Target):
    """``psi(theta) = theta^2`` onto ``N(psi | 1, 1)``, base point 1: a non-injective imbedding.

    ``Log_1(theta) = (theta^2 - 1) / 2 >= -1/2``: a tangent vector ``V < -1/2`` has no preimage,
    and ``theta = 0`` is a stationary point of ``|V - Log(theta)|^2`` with residual ``-1/2 - V``.
    """

    name: str = eqx.field(static=True, default="toy-fold")

    @property
    def dim(self) -> int:
        return 1

    def logdensity(self, theta):
        return -0.5 * (theta[0] ** 2 - 1.0) ** 2

    @property
    def family(self):
        return GaussianFixedCovariance(jnp.eye(1))

    def embed(self, theta):
        return theta**2

    def prior_covariance(self):
        return None


@pytest.mark.parametrize("solver", ["levenberg_marquardt", "levenberg_marquardt_lsmr"])
def test_converged_solve_at_a_non_preimage_is_a_residual_failure(solver):
    target = _Fold()
    key = jax.random.PRNGKey(0)
    approx = wg.fit(target, wg.Config.from_mapping(_config(solver=solver)), key, mode=jnp.ones(1)).approximation
    n = 200
    draws = approx.sample(key, n)
    v = np.asarray(approx.tangent.sample_velocities(key, n))[:, 0]
    codes = np.asarray(draws.result_code)
    theta = np.asarray(draws.theta)[:, 0]
    residual = np.asarray(draws.residual)
    reachable = v > -0.5
    # every reachable V is found: theta^2 = 1 + 2 V, on the base point's branch
    assert reachable.sum() > 100
    np.testing.assert_array_equal(codes[reachable], 0)
    np.testing.assert_allclose(theta[reachable], np.sqrt(1 + 2 * v[reachable]), rtol=1e-8)
    # no unreachable V is reported successful
    assert not np.any(np.asarray(draws.successful)[~reachable])
    assert np.all(codes[~reachable] != 0)
    # where the solver converged there, it is at the stationary point 0, flagged RESIDUAL_FAILURE
    flagged = codes == RESIDUAL_FAILURE
    assert flagged.sum() >= 1, np.unique(codes, return_counts=True)
    assert np.all(~reachable[flagged])
    np.testing.assert_allclose(theta[flagged], 0.0, atol=1e-6)
    np.testing.assert_allclose(residual[flagged], -0.5 - v[flagged], rtol=1e-8)
    assert summarise_draws(draws, 1)["result_codes"][str(RESIDUAL_FAILURE)] == int(flagged.sum())


# ----------------------------------------------------------------------------------------
# errors


class _Bare(Target):
    name: str = eqx.field(static=True, default="toy-bare")

    @property
    def dim(self) -> int:
        return 2

    def logdensity(self, theta):
        return -0.5 * theta @ theta


def test_target_without_contrast_description_is_rejected_by_name():
    with pytest.raises(NotImplementedError, match="toy-bare"):
        wg.fit(_Bare(), wg.Config.from_mapping({"precision": "hessian"}), None, mode=jnp.zeros(2))


@pytest.mark.parametrize("overrides, key", [
    ({"solver": "gauss_newton"}, "approximation.wrapped_gaussian.solver"),
    ({"rtol": 0.0}, "approximation.wrapped_gaussian.rtol"),
    ({"atol": -1e-8}, "approximation.wrapped_gaussian.atol"),
    ({"residual_tol": 0.0}, "approximation.wrapped_gaussian.residual_tol"),
    ({"residual_tol": float("nan")}, "approximation.wrapped_gaussian.residual_tol"),
    ({"max_steps": 0}, "approximation.wrapped_gaussian.max_steps"),
    ({"inner_max_steps": 0}, "approximation.wrapped_gaussian.inner_max_steps"),
    ({"fallback": "newton"}, "approximation.wrapped_gaussian.fallback"),
    ({"fallback_after": 0}, "approximation.wrapped_gaussian.fallback_after"),
    ({"fallback_chunk_size": 0}, "approximation.wrapped_gaussian.fallback_chunk_size"),
    ({"broyden_steps": 0}, "approximation.wrapped_gaussian.broyden_steps"),
    ({"chunk_size": -1}, "approximation.wrapped_gaussian.chunk_size"),
    ({"chunk_size": 2.5}, "approximation.wrapped_gaussian.chunk_size"),
])
def test_exp_map_settings_reject_bad_values_naming_the_config_key(overrides, key):
    with pytest.raises(ValueError, match=key.replace(".", r"\.")):
        ExpMapSettings(**{k: v for k, v in _settings(**overrides).items()})
    with pytest.raises(ValueError, match=key.replace(".", r"\.")):
        wg.fit(_linear_gaussian(), wg.Config.from_mapping(_config(**overrides)), None, mode=jnp.zeros(3))


def test_auto_resolves_to_broyden_with_a_fallback_and_to_levenberg_marquardt_without_one():
    """``auto``: Broyden (with the Levenberg-Marquardt fallback and its own step cap) on an affine
    embedding below ``fixed_point_from_dim`` parameters, the fixed-point iteration from there on;
    Levenberg-Marquardt on any other, where a fallback to itself would be pointless."""
    auto = ExpMapSettings(broyden_steps=40)
    affine = auto.resolve(_bernreg())
    assert (str(affine.solver), str(affine.fallback), affine.has_fallback) == ("broyden", "levenberg_marquardt", True)
    assert affine.first_solver_steps == 40
    assert ExpMapSettings(solver="newton").first_solver_steps == ExpMapSettings().fallback_after
    # from fixed_point_from_dim parameters on (D = 8 here), the fixed-point iteration with its own step cap
    wide = ExpMapSettings(fixed_point_from_dim=8).resolve(_berngp())
    assert (str(wide.solver), wide.has_fallback, wide.first_solver_steps) == ("fixed_point", True, 64)
    assert str(ExpMapSettings(fixed_point_from_dim=9).resolve(_berngp()).solver) == "broyden"
    other = auto.resolve(_growth())
    assert (str(other.solver), other.has_fallback) == ("levenberg_marquardt", False)
    assert ExpMapSettings(solver="bfgs", fallback="none").resolve(_growth()).has_fallback is False


def test_chunk_size_caps_the_first_solves_chunks_and_keeps_the_schedules_other_choices():
    """``chunk_size`` caps the chunk of the first solve (one batch, or the schedule's larger chunk);
    a smaller schedule chunk, and 0, leave the schedule as it is."""
    settings = ExpMapSettings(chunk_size=4)
    assert settings.first_schedule(Schedule()) == Schedule(4)
    assert settings.first_schedule(Schedule(250, sort_by_difficulty=True, refill=True)) == Schedule(
        4, sort_by_difficulty=True, refill=True)
    assert settings.first_schedule(Schedule(3)) == Schedule(3)
    assert ExpMapSettings(chunk_size=0).first_schedule(Schedule()) == Schedule()
    assert ExpMapSettings().chunk_size == 100


def test_first_solve_runs_in_chunks_of_chunk_size_with_the_draws_of_one_batch(monkeypatch):
    """The inversion hands the capped schedule to the batched map (observed, not replaced) and its
    draws, codes and steps are those of one batch (to round-off)."""
    import geobayes.geometry.approximate_exponential_map as module

    posterior, mode = _bernreg(), jnp.zeros(3)
    seen = []

    def observed(fn, xs, schedule, *args, **kwargs):
        seen.append(schedule)
        return scheduled_map(fn, xs, schedule, *args, **kwargs)

    monkeypatch.setattr(module, "scheduled_map", observed)
    draws = {}
    for chunk in (0, 3):
        config = wg.Config.from_mapping(_config(chunk_size=chunk))
        draws[chunk] = wg.fit(posterior, config, None, mode=mode).approximation.sample(jax.random.PRNGKey(2), 8)
    assert seen == [Schedule(), Schedule(3)]
    for name in ("theta", "residual"):
        np.testing.assert_allclose(getattr(draws[3], name), getattr(draws[0], name), rtol=0, atol=1e-12)
    for name in ("successful", "result_code", "num_steps"):
        np.testing.assert_array_equal(getattr(draws[3], name), getattr(draws[0], name))


def test_exp_map_settings_from_config_converts_numbers():
    settings = from_mapping(ExpMapSettings, {"solver": "newton", "rtol": "1e-9", "atol": 1, "max_steps": 12.0,
                                             "residual_tol": "1e-5"}, "approximation.wrapped_gaussian")
    assert settings == ExpMapSettings(solver="newton", rtol=1e-9, atol=1.0, max_steps=12, residual_tol=1e-5)
