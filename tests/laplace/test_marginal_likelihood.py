"""geobayes.laplace on its own: the GGN is the model's Fisher metric, the exact-Hessian precision
is the negative log-posterior Hessian, the evidence is exact for a linear network, the Adam fit
reaches a stationary point, and bad inputs are refused with a clear message."""

from __future__ import annotations

import dataclasses
import json

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.optimize
import scipy.stats

import geobayes  # noqa: F401  (float64)
from geobayes.dataset import Dataset
from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.laplace import (
    data_curvature,
    evidence_terms,
    log_marginal_likelihood,
    log_marginal_likelihood_from_terms,
    network_jacobian,
    optimise_hyperparameters,
    optimise_hyperparameters_from_config,
    optimise_hyperparameters_from_terms,
    posterior_precision,
)
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.networks import MultilayerPerceptron, NetworkRegression
from geobayes.posterior import Posterior

ALPHA, SIGMA = 2.0, 0.4


def synthetic_data(n: int = 40, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``x ~ U(0, 6)``, ``y = sin(x) + 0.3 eps``."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.0, 6.0, size=(n, 1))
    return X, np.sin(X[:, 0]) + 0.3 * rng.standard_normal(n)


@pytest.fixture(scope="module")
def problem():
    network = MultilayerPerceptron((1, 10, 1), "tanh")
    X, y = synthetic_data()
    return network, network.initial_parameters(jax.random.key(0)), X, y


def posterior_of(network, X, y, prior_precision, noise_std) -> Posterior:
    model = NetworkRegression(network=network, prior=GaussianPrior(variance=1.0 / prior_precision),
                              family=GaussianFixedVariance(noise_variance=noise_std**2))
    return Posterior("synthetic-mlp", model, Dataset(X, y))


def test_ggn_precision_is_the_fisher_metric(problem):
    network, theta, X, y = problem
    ours = posterior_precision(network, theta, X, y, prior_precision=ALPHA, noise_std=SIGMA, structure="ggn")
    fisher = eqx.filter_jit(lambda p, t: p.fisher(t))(posterior_of(network, X, y, ALPHA, SIGMA), theta)
    diff = float(jnp.max(jnp.abs(ours - fisher)))
    assert diff <= 1e-12 * float(jnp.max(jnp.abs(fisher))), f"max |P_ggn - Fisher| = {diff:.3e}"
    assert jnp.array_equal(ours, ours.T)


def test_full_precision_is_the_negative_log_posterior_hessian(problem):
    network, theta, X, y = problem
    ours = posterior_precision(network, theta, X, y, prior_precision=ALPHA, noise_std=SIGMA, structure="full")
    hessian = -eqx.filter_jit(lambda p, t: p.hessian(t))(posterior_of(network, X, y, ALPHA, SIGMA), theta)
    diff = float(jnp.max(jnp.abs(ours - hessian)))
    assert diff <= 1e-12 * float(jnp.max(jnp.abs(hessian))), f"max |P_full + Hessian| = {diff:.3e}"
    assert jnp.array_equal(ours, ours.T)


def test_jacobian_forward_and_reverse_agree():
    """Forward mode for N >= D, reverse mode for N < D; same matrix, observation-major rows."""
    network = MultilayerPerceptron((1, 10, 10, 1), "tanh")
    theta = network.initial_parameters(jax.random.key(3))
    X, _ = synthetic_data(200)
    wide = network_jacobian(network, theta, X)           # 200 >= 141: jacfwd
    narrow = network_jacobian(network, theta, X[:5])     # 5 < 141: jacrev
    assert wide.shape == (200, 141) and narrow.shape == (5, 141)
    np.testing.assert_allclose(narrow, wide[:5], rtol=1e-12, atol=1e-14)


def test_precomputed_jacobian_gives_same_precision(problem):
    network, theta, X, y = problem
    jacobian = network_jacobian(network, theta, X)
    with_jacobian = posterior_precision(network, theta, X, y, prior_precision=ALPHA, noise_std=SIGMA,
                                        jacobian=jacobian)
    without = posterior_precision(network, theta, X, y, prior_precision=ALPHA, noise_std=SIGMA)
    np.testing.assert_array_equal(with_jacobian, without)


@pytest.mark.parametrize("structure", ["ggn", "full"])
def test_evidence_from_eigenvalues_equals_direct_log_determinant(problem, structure):
    """The O(D) evaluation from the eigenvalues of la.H equals the formula with slogdet of P
    (at pairs where the exact-Hessian precision at these random weights is positive definite)."""
    network, theta, X, y = problem
    for alpha, sigma in [(2.0, 4.0), (0.7, 10.0), (30.0, 1.0)]:
        precision = posterior_precision(network, theta, X, y, prior_precision=alpha, noise_std=sigma,
                                        structure=structure)
        sign, log_det = jnp.linalg.slogdet(precision)
        assert sign > 0
        log_likelihood = float(jnp.sum(scipy.stats.norm.logpdf(y, network(theta, X)[:, 0], sigma)))
        direct = (log_likelihood - 0.5 * (log_det - theta.size * np.log(alpha))
                  - 0.5 * alpha * float(theta @ theta))
        ours = log_marginal_likelihood(network, theta, X, y, prior_precision=alpha, noise_std=sigma,
                                       structure=structure)
        assert abs(float(ours) - float(direct)) < 1e-10 * abs(float(direct)), (alpha, sigma, ours, direct)


def test_indefinite_precision_gives_nan(problem):
    """Far from a mode the exact-Hessian precision can be indefinite: no Laplace evidence."""
    network, theta, X, y = problem
    precision = posterior_precision(network, theta, X, y, prior_precision=ALPHA, noise_std=SIGMA, structure="full")
    assert np.linalg.eigvalsh(np.asarray(precision))[0] < 0
    value = log_marginal_likelihood(network, theta, X, y, prior_precision=ALPHA, noise_std=SIGMA, structure="full")
    assert np.isnan(float(value))


def test_evidence_broadcasts_over_hyperparameter_grid(problem):
    network, theta, X, y = problem
    alphas = jnp.array([0.5, 1.0, 4.0])[:, None]
    sigmas = jnp.array([0.2, 0.5])[None, :]
    grid = log_marginal_likelihood(network, theta, X, y, prior_precision=alphas, noise_std=sigmas)
    assert grid.shape == (3, 2)
    for i in range(3):
        for j in range(2):
            single = log_marginal_likelihood(network, theta, X, y, prior_precision=float(alphas[i, 0]),
                                             noise_std=float(sigmas[0, j]))
            assert abs(float(grid[i, j] - single)) < 1e-10 * abs(float(single))


def linear_problem(seed: int = 1):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2.0, 3.0, size=(25, 1))
    y = 0.8 * X[:, 0] - 0.5 + 0.4 * rng.standard_normal(25)
    return MultilayerPerceptron((1, 1), "tanh"), X, y


@pytest.mark.parametrize("structure", ["ggn", "full"])
@pytest.mark.parametrize("alpha,sigma", [(1.0, 0.4), (0.1, 1.5), (25.0, 0.2)])
def test_evidence_is_exact_for_a_linear_network(structure, alpha, sigma):
    """Bayesian linear regression f = w x + b: at the posterior mean the Laplace evidence equals
    log N(y | 0, sigma^2 I + X_aug X_aug^T / alpha) (GGN and Hessian coincide for a linear f)."""
    network, X, y = linear_problem()
    X_aug = np.column_stack([X[:, 0], np.ones(len(y))])  # theta = (w, b), torch order
    precision = X_aug.T @ X_aug / sigma**2 + alpha * np.eye(2)
    theta_star = np.linalg.solve(precision, X_aug.T @ y / sigma**2)
    exact = scipy.stats.multivariate_normal(np.zeros(len(y)), sigma**2 * np.eye(len(y)) + X_aug @ X_aug.T / alpha
                                            ).logpdf(y)
    ours = float(log_marginal_likelihood(network, jnp.asarray(theta_star), X, y, prior_precision=alpha,
                                         noise_std=sigma, structure=structure))
    assert abs(ours - exact) < 1e-10 * abs(exact), f"Laplace {ours} vs exact {exact}: diff {abs(ours - exact):.3e}"


def test_optimiser_ascends_and_reaches_a_stationary_point():
    """On the linear network (evidence at fixed theta): Adam increases the evidence and ends where
    its gradient vanishes, at the optimum a quasi-Newton solver finds."""
    network, X, y = linear_problem()
    theta = jnp.array([0.7, -0.4])
    terms = evidence_terms(network, theta, X, y)
    fit = optimise_hyperparameters_from_terms(terms, num_steps=3000, learning_rate=0.05, trace_every=10)
    trace = fit.trace_log_marginal_likelihood
    assert trace.shape == (300,) and fit.steps[1] == 10
    assert fit.log_marginal_likelihood > trace[0] + 1.0
    assert fit.log_marginal_likelihood >= trace.max() - 1e-8
    assert fit.gradient_norm < 1e-5, f"gradient norm at the end {fit.gradient_norm:.2e}"

    def negative(log_values):
        return -float(log_marginal_likelihood_from_terms(terms, np.exp(log_values[0]), np.exp(log_values[1])))

    reference = scipy.optimize.minimize(negative, np.array([1.0, 1.0]), method="BFGS", options={"gtol": 1e-10})
    np.testing.assert_allclose([np.log(fit.prior_precision), np.log(fit.noise_std)], reference.x, atol=1e-5)
    grad = jax.grad(lambda v: log_marginal_likelihood_from_terms(terms, jnp.exp(v[0]), jnp.exp(v[1])))(
        jnp.log(jnp.array([fit.prior_precision, fit.noise_std])))
    assert float(jnp.linalg.norm(grad)) < 1e-5


def test_optimiser_full_length_is_fast_and_wrapper_matches(problem):
    network, theta, X, y = problem
    fit = optimise_hyperparameters(network, theta, X, y, num_steps=20_000)
    again = optimise_hyperparameters_from_terms(evidence_terms(network, theta, X, y), num_steps=20_000)
    assert fit.prior_precision == again.prior_precision and fit.noise_std == again.noise_std
    assert fit.steps.shape == (200,) and np.all(np.isfinite(fit.trace_log_marginal_likelihood))
    assert fit.gradient_norm < 1e-2
    json.dumps(fit.summary())
    with pytest.raises(dataclasses.FrozenInstanceError):
        fit.noise_std = 1.0


def test_fixed_noise_moves_only_the_prior_precision(problem):
    network, theta, X, y = problem
    fit = optimise_hyperparameters(network, theta, X, y, init_log_noise_std=np.log(0.3), num_steps=500,
                                   optimise_noise_std=False)
    assert fit.noise_std == pytest.approx(0.3, rel=1e-14)
    assert np.all(fit.trace_noise_std == fit.trace_noise_std[0])
    assert fit.prior_precision != pytest.approx(np.e)


def test_config_block_gives_the_same_fit_and_refuses_a_wrong_block(problem):
    """The DAG's ``marginal_likelihood`` block maps onto the keyword arguments one for one; a block
    with a key missing or misspelt is refused naming the block and the key."""
    network, theta, X, y = problem
    block = {"structure": "full", "init_log_prior_precision": 0.5, "init_log_noise_std": -1.0,
             "learning_rate": 0.01, "steps": 300}
    fit = optimise_hyperparameters_from_config(network, theta, X, y, block)
    direct = optimise_hyperparameters(network, theta, X, y, structure="full", init_log_prior_precision=0.5,
                                      init_log_noise_std=-1.0, learning_rate=0.01, num_steps=300)
    assert (fit.prior_precision, fit.noise_std) == (direct.prior_precision, direct.noise_std)
    assert fit.prior_precision != optimise_hyperparameters_from_config(
        network, theta, X, y, {**block, "structure": "ggn"}).prior_precision
    misspelt = {**{k: v for k, v in block.items() if k != "steps"}, "step": 300}
    with pytest.raises(KeyError, match=r"experiments.x.marginal_likelihood: missing keys \['steps'\], unknown keys \['step'\]"):
        optimise_hyperparameters_from_config(network, theta, X, y, misspelt, where="experiments.x.marginal_likelihood")


def test_zero_steps_returns_the_initial_values(problem):
    network, theta, X, y = problem
    fit = optimise_hyperparameters(network, theta, X, y, num_steps=0)
    assert fit.prior_precision == pytest.approx(np.e) and fit.noise_std == pytest.approx(np.e)
    assert fit.steps.shape == (0,)


@pytest.mark.parametrize("kwargs,message", [
    ({"prior_precision": 0.0}, "prior_precision must be finite and > 0"),
    ({"prior_precision": -1.0}, "prior_precision must be finite and > 0"),
    ({"noise_std": 0.0}, "noise_std must be finite and > 0"),
    ({"noise_std": float("nan")}, "noise_std must be finite and > 0"),
    ({"prior_precision": np.ones(31)}, "prior_precision must be a scalar"),
    ({"structure": "diag"}, "unknown Laplace structure 'diag'"),
    ({"theta": np.zeros(30)}, "theta must have shape (31,)"),
    ({"X": np.zeros((40, 2))}, "X must have shape (N, 1)"),
    ({"X": np.zeros(40)}, "X must have shape (N, 1)"),
    ({"y": np.zeros(39)}, "y must have shape (40,) or (40, 1)"),
    ({"jacobian": np.zeros((40, 30))}, "jacobian must have shape (40, 31)"),
    ({"network": "mlp"}, "network must be a MultilayerPerceptron"),
])
def test_posterior_precision_rejects_bad_inputs(problem, kwargs, message):
    network, theta, X, y = problem
    arguments = {"network": network, "theta": theta, "X": X, "y": y, "prior_precision": ALPHA, "noise_std": SIGMA,
                 "structure": "ggn"} | kwargs
    positional = [arguments.pop(name) for name in ("network", "theta", "X", "y")]
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        posterior_precision(*positional, **arguments)


@pytest.mark.parametrize("kwargs,message", [
    ({"prior_precision": np.array([1.0, 0.0])}, "prior_precision must be finite and > 0"),
    ({"noise_std": -0.5}, "noise_std must be finite and > 0"),
    ({"prior_mean": np.zeros(3)}, "prior_mean must be a scalar or have shape"),
    ({"structure": "kron"}, "unknown Laplace structure"),
])
def test_log_marginal_likelihood_rejects_bad_inputs(problem, kwargs, message):
    network, theta, X, y = problem
    arguments = {"prior_precision": ALPHA, "noise_std": SIGMA} | kwargs
    with pytest.raises(ValueError, match=message):
        log_marginal_likelihood(network, theta, X, y, **arguments)


@pytest.mark.parametrize("kwargs,message", [
    ({"num_steps": -1}, "num_steps must be an integer >= 0"),
    ({"num_steps": 10.5}, "num_steps must be an integer >= 0"),
    ({"trace_every": 0}, "trace_every must be an integer >= 1"),
    ({"learning_rate": 0.0}, "learning_rate must be finite and > 0"),
    ({"init_log_noise_std": float("inf")}, "initial log hyperparameters must be finite"),
])
def test_optimiser_rejects_bad_settings(problem, kwargs, message):
    network, theta, X, y = problem
    with pytest.raises(ValueError, match=message):
        optimise_hyperparameters(network, theta, X, y, **kwargs)


def test_data_curvature_is_laplace_torch_H(problem):
    """``la.H`` convention: precision = H / sigma^2 + alpha I for both structures."""
    network, theta, X, y = problem
    for structure in ("ggn", "full"):
        curvature = data_curvature(network, theta, X, y, structure=structure)
        precision = posterior_precision(network, theta, X, y, prior_precision=ALPHA, noise_std=SIGMA,
                                        structure=structure)
        np.testing.assert_allclose(precision, curvature / SIGMA**2 + ALPHA * np.eye(31), rtol=1e-14, atol=1e-12)
