"""geobayes.laplace against laplace-torch 0.3 (Daxberger et al. 2021), the field's reference
Laplace implementation, used here as an independent peer.

Same weights in both (torch ``nn.Sequential`` parameter order), float64 throughout, one
full batch. Compared: the posterior precision (GGN and exact-Hessian backends), the posterior
covariance, the log marginal likelihood at several ``(prior_precision, sigma)`` pairs, and the
hyperparameters after the papers' Adam loop (Yu et al. 2024, Sec. 5.4 code). The largest
absolute differences are printed and written to ``$TMPDIR/geobayes_laplace_peer_diffs.json``.
"""

from __future__ import annotations

import copy

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

import peer_differences

import geobayes  # noqa: F401  (float64)
from geobayes.laplace import (
    log_marginal_likelihood,
    optimise_hyperparameters,
    posterior_precision,
)
from geobayes.networks import MultilayerPerceptron

# The peer is a test dependency installed by `make venv` (CPU torch recipe): never skipped, so a
# broken install fails the suite instead of silently dropping the comparison.
import laplace  # noqa: E402
import laplace.curvature as curvature  # noqa: E402
import torch  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

#: Backends of laplace-torch 0.3 per structure (a fresh deepcopy of the model for each).
BACKENDS = {
    "ggn": ["CurvlinopsGGN", "BackPackGGN", "AsdlGGN"],
    "full": ["CurvlinopsHessian", "AsdlHessian"],
}
CASES = [(structure, backend) for structure, names in BACKENDS.items() for backend in names]
ARCHITECTURES = [(1, 10, 1), (1, 10, 10, 1)]

#: Weights are near a mode of sum_n r_n^2 / (2 SIGMA_TRAIN^2) + ALPHA_TRAIN / 2 |theta|^2.
SIGMA_TRAIN, ALPHA_TRAIN = 0.3, 1.0
#: (prior_precision, noise_std) for the precision and covariance comparisons.
ALPHA, SIGMA = 2.0, 0.4
#: Pairs at which both evidences are compared; the exact-Hessian precision is positive definite
#: at all of them (checked), so neither log det is NaN.
PAIRS = [(ALPHA, SIGMA), (1.0, 0.5), (3.0, 0.3), (0.5, 1.0), (np.e, np.e), (10.0, 1.0)]

#: Deprecation noise from the BackPack and ASDL backends' module hooks, not from geobayes.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Full backward hook is firing:UserWarning"),
    pytest.mark.filterwarnings("ignore:Using a non-full backward hook:FutureWarning"),
]

#: Largest absolute difference per quantity, keyed ``<architecture>/<quantity>``.
DIFFS: dict[str, float] = {}


@pytest.fixture(scope="module", autouse=True)
def report_differences():
    """Print and save the largest differences once the module's tests have run."""
    yield
    peer_differences.report(DIFFS, "laplace_peer", "laplace-torch peer differences")


@pytest.fixture(autouse=True)
def torch_float64():
    """laplace-torch's curvlinops backends build ``torch.eye`` in the default dtype."""
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(previous)


def synthetic_data(n: int = 150, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Snelson-like 1-D data: ``x ~ U(0, 6)``, ``y = sin(x) + 0.3 eps``."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.0, 6.0, size=(n, 1))
    return X, np.sin(X[:, 0]) + 0.3 * rng.standard_normal(n)


def train_near_mode(network: MultilayerPerceptron, X: np.ndarray, y: np.ndarray) -> jax.Array:
    """3,000 full-batch Adam steps (lr 1e-2) on the training objective from torch-like initial
    weights: near a mode, as the papers' MAP training leaves them (no exact stationarity is
    needed; every comparison holds at any weights)."""
    def objective(w):
        return 0.5 * jnp.sum((y - network(w, X)[:, 0]) ** 2) / SIGMA_TRAIN**2 + 0.5 * ALPHA_TRAIN * jnp.dot(w, w)

    optimiser = optax.adam(1e-2)

    @jax.jit
    def run(w):
        def step(carry, _):
            w, state = carry
            updates, state = optimiser.update(jax.grad(objective)(w), state, w)
            return (optax.apply_updates(w, updates), state), None
        return jax.lax.scan(step, (w, optimiser.init(w)), None, length=3000)[0][0]

    return run(network.initial_parameters(jax.random.key(1)))


@pytest.fixture(scope="module", params=ARCHITECTURES, ids=lambda s: "-".join(map(str, s)))
def problem(request):
    network = MultilayerPerceptron(request.param, "tanh")
    X, y = synthetic_data()
    return network, train_near_mode(network, X, y), X, y


def torch_model(network: MultilayerPerceptron, theta) -> torch.nn.Module:
    """The same network as ``nn.Sequential(Linear, Tanh, ..., Linear)`` with our weights."""
    sizes, layers = network.layer_sizes, []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1], dtype=torch.float64))
        if i < len(sizes) - 2:
            layers.append(torch.nn.Tanh())
    model = torch.nn.Sequential(*layers)
    torch.nn.utils.vector_to_parameters(torch.tensor(np.asarray(theta)), model.parameters())
    return model


def fitted_laplace(network, theta, X, y, backend: str, prior_precision=1.0, noise_std=1.0):
    """``FullLaplace(..., 'regression').fit`` on one full batch, X (N, 1), y (N, 1)."""
    model = copy.deepcopy(torch_model(network, theta))
    la = laplace.FullLaplace(model, "regression", sigma_noise=noise_std, prior_precision=prior_precision,
                             backend=getattr(curvature, backend))
    dataset = TensorDataset(torch.tensor(X), torch.tensor(y[:, None]))
    la.fit(DataLoader(dataset, batch_size=len(dataset)))
    return la


def record(network: MultilayerPerceptron, quantity: str, value: float) -> float:
    key = "-".join(map(str, network.layer_sizes)) + "/" + quantity
    DIFFS[key] = max(DIFFS.get(key, 0.0), float(value))
    return float(value)


def test_torch_model_matches_network(problem):
    network, theta, X, _ = problem
    with torch.no_grad():
        theirs = torch_model(network, theta)(torch.tensor(X)).numpy()
    diff = record(network, "network_output", np.max(np.abs(theirs - np.asarray(network(theta, X)))))
    assert diff < 1e-13, f"torch and geobayes networks differ by {diff:.2e}"


@pytest.mark.parametrize("structure,backend", CASES)
def test_posterior_precision_matches(problem, structure, backend):
    network, theta, X, y = problem
    alpha, sigma = ALPHA, SIGMA
    la = fitted_laplace(network, theta, X, y, backend, alpha, sigma)
    theirs = la.posterior_precision.detach().numpy()
    ours = np.asarray(posterior_precision(network, theta, X, y, prior_precision=alpha, noise_std=sigma,
                                          structure=structure))
    diff = record(network, f"precision_{structure}_{backend}", np.max(np.abs(theirs - ours)))
    scale = np.max(np.abs(theirs))
    assert diff <= 1e-12 * scale, f"max |P_torch - P_ours| = {diff:.3e} (max |P| = {scale:.3e})"


@pytest.mark.parametrize("structure,backend", CASES)
def test_posterior_covariance_matches(problem, structure, backend):
    network, theta, X, y = problem
    la = fitted_laplace(network, theta, X, y, backend, ALPHA, SIGMA)
    theirs = la.posterior_covariance.detach().numpy()
    precision = posterior_precision(network, theta, X, y, prior_precision=ALPHA, noise_std=SIGMA,
                                    structure=structure)
    ours = np.asarray(jnp.linalg.inv(precision))
    diff = record(network, f"covariance_{structure}_{backend}", np.max(np.abs(theirs - ours)))
    scale = np.max(np.abs(theirs))
    condition = np.linalg.cond(np.asarray(precision))
    assert diff <= 1e-14 * condition * scale, (
        f"max |Sigma_torch - Sigma_ours| = {diff:.3e} (max |Sigma| = {scale:.3e}, cond(P) = {condition:.2e})")


@pytest.mark.parametrize("structure,backend", CASES)
def test_log_marginal_likelihood_matches(problem, structure, backend):
    network, theta, X, y = problem
    la = fitted_laplace(network, theta, X, y, backend)
    alphas, sigmas = np.array(PAIRS).T
    for alpha, sigma in PAIRS:
        precision = posterior_precision(network, theta, X, y, prior_precision=alpha, noise_std=sigma,
                                        structure=structure)
        assert np.linalg.eigvalsh(np.asarray(precision))[0] > 0, f"P not positive definite at {alpha, sigma}"
    ours = np.asarray(log_marginal_likelihood(network, theta, X, y, prior_precision=alphas, noise_std=sigmas,
                                              structure=structure))
    theirs = np.array([la.log_marginal_likelihood(torch.tensor(a), torch.tensor(s)).item() for a, s in PAIRS])
    assert np.all(np.isfinite(theirs)), f"laplace-torch evidence not finite: {theirs}"
    diff = record(network, f"log_marglik_{structure}_{backend}", np.max(np.abs(theirs - ours)))
    assert diff <= 1e-10 * np.max(np.abs(theirs)), (
        f"max |logml_torch - logml_ours| = {diff:.3e} over {PAIRS}: torch {theirs}, ours {ours}")


def torch_hyperparameter_loop(la, num_steps: int, learning_rate: float = 0.1) -> tuple[float, float, list]:
    """Yu et al.'s loop, verbatim up to dtype."""
    log_prior = torch.ones(1, requires_grad=True, dtype=torch.float64)
    log_sigma = torch.ones(1, requires_grad=True, dtype=torch.float64)
    hyper_optimizer = torch.optim.Adam([log_prior, log_sigma], lr=learning_rate)
    trace = []
    for _ in range(num_steps):
        hyper_optimizer.zero_grad()
        neg_marglik = -la.log_marginal_likelihood(log_prior.exp(), log_sigma.exp())
        neg_marglik.backward()
        hyper_optimizer.step()
        trace.append(-neg_marglik.item())
    return log_prior.exp().item(), log_sigma.exp().item(), trace


def test_fitted_hyperparameters_lag_one_step():
    """After the loop ``la.prior_precision`` / ``la.sigma_noise`` hold the values of the last
    evaluation, one Adam step before ``log_prior.exp()`` / ``log_sigma.exp()``: ours are the
    latter, the former are the last entries of the trace."""
    network = MultilayerPerceptron((1, 10, 1), "tanh")
    X, y = synthetic_data()
    theta = network.initial_parameters(jax.random.key(2))
    la = fitted_laplace(network, theta, X, y, "CurvlinopsGGN")
    alpha_torch, sigma_torch, _ = torch_hyperparameter_loop(la, 20)
    fit = optimise_hyperparameters(network, theta, X, y, num_steps=20, trace_every=1)
    np.testing.assert_allclose([fit.prior_precision, fit.noise_std], [alpha_torch, sigma_torch], rtol=1e-10)
    np.testing.assert_allclose([fit.trace_prior_precision[-1], fit.trace_noise_std[-1]],
                               [la.prior_precision.item(), la.sigma_noise.item()], rtol=1e-10)
    assert abs(fit.prior_precision - la.prior_precision.item()) > 1e-6


@pytest.mark.parametrize("backend", ["CurvlinopsGGN", "BackPackGGN"])
def test_optimised_hyperparameters_match(problem, backend):
    """GGN only, as both papers use it: with the exact Hessian, Adam's path leaves the region where
    ``H / sigma^2 + alpha I`` is positive definite on these weights and both evidences turn NaN."""
    network, theta, X, y = problem
    structure = "ggn"
    num_steps = 300
    la = fitted_laplace(network, theta, X, y, backend)
    alpha_torch, sigma_torch, trace_torch = torch_hyperparameter_loop(la, num_steps)
    fit = optimise_hyperparameters(network, theta, X, y, structure=structure, init_log_prior_precision=1.0,
                                   init_log_noise_std=1.0, learning_rate=0.1, num_steps=num_steps, trace_every=1)
    rel_alpha = record(network, f"hyper_relative_prior_precision_{backend}", abs(fit.prior_precision / alpha_torch - 1))
    rel_sigma = record(network, f"hyper_relative_noise_std_{backend}", abs(fit.noise_std / sigma_torch - 1))
    trace_diff = record(network, f"hyper_trace_log_marglik_{backend}",
                        np.max(np.abs(np.asarray(trace_torch) - fit.trace_log_marginal_likelihood)))
    assert rel_alpha < 1e-6 and rel_sigma < 1e-6, (
        f"after {num_steps} Adam steps: prior precision torch {alpha_torch} ours {fit.prior_precision} "
        f"(rel {rel_alpha:.2e}); noise std torch {sigma_torch} ours {fit.noise_std} (rel {rel_sigma:.2e})")
    assert trace_diff <= 1e-8 * np.max(np.abs(trace_torch)), (
        f"max |log marglik trace torch - ours| = {trace_diff:.3e}")
