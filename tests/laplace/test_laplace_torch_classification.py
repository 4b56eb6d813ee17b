"""geobayes.laplace.classification against laplace-torch 0.3 (Daxberger et al. 2021), the
library Bergamin et al. (2023) used (0.1a2) for their classification Laplace fits.

One 2-8-3 tanh MLP (D = 51) near a mode of ``sum_n CE + 0.01 |theta|^2`` on 80 points of three
overlapping Gaussian blobs; the same weights in a float64 ``nn.Sequential`` and in
``Laplace(model, "classification", subset_of_weights="all", hessian_structure="full",
prior_precision=0.02)``, fitted with a 32-row loader (three batches, the last one short).
Compared exactly (not statistically): the posterior precision and scale, the log marginal
likelihood at several prior precisions and prior means, the ``marglik`` prior precision, the
GLM predictive moments, and the LA (``nn``) and linearised-LA (``glm``, ``mc``) predictive
probabilities computed from the same standard-normal draws. The largest differences are
printed and written to ``$TMPDIR/geobayes_laplace_classification_diffs.json``.
"""

from __future__ import annotations

import json

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

import peer_differences

import geobayes  # noqa: F401  (float64)
from geobayes.laplace import (
    MARGLIK_DEFAULTS,
    classification_evidence_terms,
    classification_ggn,
    classification_log_marginal_likelihood,
    classification_posterior_precision,
    glm_predictive_moments,
    optimise_prior_precision,
    optimise_prior_precision_from_terms,
    precision_to_scale_tril,
)
from geobayes.networks import MultilayerPerceptron
from geobayes.networks.classifier_predictive import (linearised_mc_predictive_probabilities,
                                                     mc_predictive_probabilities)

# The peer is a test dependency (never skipped: a broken install fails the suite).
import laplace  # noqa: E402
import laplace.curvature as curvature  # noqa: E402
import torch  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

pytestmark = [
    # BackPACK's module hooks, and 0.3's reminder that the classification default link is probit.
    pytest.mark.filterwarnings("ignore:Full backward hook is firing:UserWarning"),
    pytest.mark.filterwarnings("ignore:Using a non-full backward hook:FutureWarning"),
    pytest.mark.filterwarnings("ignore:By default `link_approx` is `probit`:UserWarning"),
]

LAYERS = (2, 8, 3)
#: laplace-torch's prior precision at construction: Bergamin et al.'s 2 * wd with wd = 1e-2.
ALPHA = 0.02
LOADER_BATCH = 32
NUM_TEST, NUM_SAMPLES = 25, 64

DIFFS: dict[str, float] = {}


def record(name: str, value: float) -> float:
    DIFFS[name] = max(DIFFS.get(name, 0.0), float(value))
    return float(value)


@pytest.fixture(scope="module", autouse=True)
def report_differences():
    """Print and save the largest differences once the module's tests have run."""
    yield
    peer_differences.report(DIFFS, "laplace_classification", "laplace-torch classification differences")


@pytest.fixture(scope="module", autouse=True)
def torch_one_thread():
    """These 51-parameter problems gain nothing from torch's intra-op threads, which only
    contend with JAX's (and any neighbour's) on a loaded machine."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(autouse=True)
def torch_float64():
    """curvlinops builds ``torch.eye`` in the default dtype."""
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(previous)


def blobs(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Three overlapping 2-D Gaussian classes, labels 0, 1, 2."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 3
    centres = np.array([[0.0, 1.0], [-0.9, -0.5], [0.9, -0.5]])
    return centres[y] + 0.7 * rng.standard_normal((n, 2)), y


@pytest.fixture(scope="module")
def problem():
    """Network, weights near a mode of ``sum_n CE + ALPHA / 2 |theta|^2``, train and test data."""
    network = MultilayerPerceptron(LAYERS, "tanh")
    X, y = blobs(80, 0)
    X_test, _ = blobs(NUM_TEST, 1)

    def objective(w):
        log_p = jax.nn.log_softmax(network(w, X), axis=-1)
        return -jnp.sum(log_p[jnp.arange(len(y)), y]) + 0.5 * ALPHA * jnp.dot(w, w)

    optimiser = optax.adam(3e-2)

    @jax.jit
    def train(w):
        def step(carry, _):
            w, state = carry
            updates, state = optimiser.update(jax.grad(objective)(w), state, w)
            return (optax.apply_updates(w, updates), state), None
        return jax.lax.scan(step, (w, optimiser.init(w)), None, length=500)[0][0]

    theta = train(network.initial_parameters(jax.random.key(3)))
    return network, theta, X, y, X_test


def torch_model(network: MultilayerPerceptron, theta) -> torch.nn.Module:
    sizes, layers = network.layer_sizes, []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1], dtype=torch.float64))
        if i < len(sizes) - 2:
            layers.append(torch.nn.Tanh())
    model = torch.nn.Sequential(*layers)
    torch.nn.utils.vector_to_parameters(torch.tensor(np.asarray(theta)), model.parameters())
    return model


def fitted_laplace(problem, backend=None, **kwargs):
    """``Laplace(model, 'classification', 'all', 'full', prior_precision=ALPHA)`` fitted on a
    32-row loader; ``backend=None`` is laplace-torch 0.3's default (CurvlinopsGGN)."""
    network, theta, X, y, _ = problem
    extra = {} if backend is None else {"backend": getattr(curvature, backend)}
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        la = laplace.Laplace(torch_model(network, theta), "classification", subset_of_weights="all",
                             hessian_structure="full", prior_precision=ALPHA, **extra, **kwargs)
        la.fit(DataLoader(TensorDataset(torch.tensor(X), torch.tensor(y, dtype=torch.long)),
                          batch_size=LOADER_BATCH))
    finally:
        torch.set_default_dtype(previous)
    return la


@pytest.fixture(scope="module")
def la_fitted(problem):
    return fitted_laplace(problem)


@pytest.fixture
def la_default(la_fitted):
    """The module's fitted default Laplace, its prior precision reset to ``ALPHA`` (the evidence
    calls overwrite it)."""
    la_fitted.prior_precision = ALPHA
    return la_fitted


@pytest.fixture(scope="module")
def ours(problem):
    """Our GGN and log likelihood in 7-row chunks (80 = 11 * 7 + 3: the last chunk is padded)."""
    network, theta, X, y, _ = problem
    return classification_ggn(network, theta, X, y, batch_size=7)


def softmax(logits: np.ndarray, axis: int) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


def test_torch_model_matches_network(problem):
    network, theta, X, _, _ = problem
    with torch.no_grad():
        theirs = torch_model(network, theta)(torch.tensor(X)).numpy()
    diff = record("logits_abs", np.max(np.abs(theirs - np.asarray(network(theta, X)))))
    assert diff < 1e-13


def test_chunked_ggn_equals_unchunked_and_dense(problem, ours):
    """Chunking changes nothing; both equal the dense ``J^T (diag p - p p^T) J`` written out."""
    network, theta, X, y, _ = problem
    ggn_chunked, loglik_chunked = ours
    ggn_full, loglik_full = classification_ggn(network, theta, X, y)

    @jax.jit
    def dense_reference(w):
        jac = jax.jacrev(lambda v: network(v, X))(w)  # (N, C, D)
        log_p = jax.nn.log_softmax(network(w, X), axis=-1)
        p = jnp.exp(log_p)
        lam = jax.vmap(jnp.diag)(p) - p[:, :, None] * p[:, None, :]
        return jnp.einsum("ncd,nck,nke->de", jac, lam, jac), jnp.sum(log_p[jnp.arange(len(y)), y])

    dense, expected = dense_reference(theta)
    dense, expected = np.asarray(dense), float(expected)
    scale = np.max(np.abs(dense))
    chunk_diff = record("ggn_chunked_vs_unchunked_rel", np.max(np.abs(ggn_chunked - ggn_full)) / scale)
    dense_diff = record("ggn_vs_dense_rel", np.max(np.abs(np.asarray(ggn_full) - dense)) / scale)
    assert chunk_diff < 1e-13 and dense_diff < 1e-13
    assert np.allclose(ggn_chunked, np.asarray(ggn_chunked).T, rtol=0, atol=0)
    assert abs(float(loglik_chunked) - expected) < 1e-11 and abs(float(loglik_full) - expected) < 1e-11
    assert np.linalg.eigvalsh(np.asarray(ggn_chunked))[0] > -1e-12 * scale


@pytest.mark.parametrize("backend", [None, "BackPackGGN"],
                         ids=["CurvlinopsGGN-default-0.3", "BackPackGGN-0.1a2-default"])
def test_posterior_precision_matches(problem, ours, la_default, backend):
    network, theta, X, y, _ = problem
    la = la_default if backend is None else fitted_laplace(problem, backend)
    name = backend or "CurvlinopsGGN"
    theirs = la.posterior_precision.detach().numpy()
    ggn, loglik = ours
    mine = np.asarray(classification_posterior_precision(network, theta, X, y, prior_precision=ALPHA, ggn=ggn))
    rel = record(f"precision_rel_{name}", np.max(np.abs(theirs - mine)) / np.max(np.abs(theirs)))
    assert rel < 1e-8, f"max |P_torch - P_ours| / max |P| = {rel:.2e}"
    assert abs(la.loss.item() + float(loglik)) <= 1e-10 * abs(float(loglik))  # la.loss = -log lik
    direct = np.asarray(classification_posterior_precision(network, theta, X, y, prior_precision=ALPHA, batch_size=7))
    assert np.max(np.abs(direct - mine)) == 0.0


def test_posterior_scale_matches(problem, ours, la_default):
    network, theta, X, y, _ = problem
    precision = classification_posterior_precision(network, theta, X, y, prior_precision=ALPHA, ggn=ours[0])
    theirs = la_default.posterior_scale.detach().numpy()
    mine = np.asarray(precision_to_scale_tril(precision))
    rel = record("scale_rel", np.max(np.abs(theirs - mine)) / np.max(np.abs(theirs)))
    assert rel < 1e-10 and np.allclose(np.triu(mine, 1), 0.0)


def test_log_marginal_likelihood_matches(problem, ours, la_default):
    """At two prior precisions (and three more), then with non-zero prior means (scalar and
    per-weight): laplace-torch's scatter is ``(theta - mu_0)^T P_0 (theta - mu_0)``."""
    network, theta, X, y, _ = problem
    alphas = np.array([ALPHA, 1.7, 1e-3, 0.3, 25.0])
    theirs = np.array([la_default.log_marginal_likelihood(torch.tensor(a)).item() for a in alphas])
    mine = np.asarray(classification_log_marginal_likelihood(network, theta, X, y, prior_precision=alphas))
    terms = classification_evidence_terms(network, theta, X, y, ggn=ours[0], log_likelihood=ours[1])
    assert float(terms.log_likelihood) == pytest.approx(float(ours[1]), rel=1e-14)
    rel = record("log_marglik_rel", np.max(np.abs(theirs - mine) / np.abs(theirs)))
    assert rel < 1e-10, f"torch {theirs}, ours {mine}"
    rng = np.random.default_rng(5)
    try:
        for prior_mean in (0.3, rng.normal(scale=0.5, size=theta.shape[0])):
            la_default.prior_mean = torch.tensor(prior_mean) if np.ndim(prior_mean) else prior_mean
            theirs = np.array([la_default.log_marginal_likelihood(torch.tensor(a)).item() for a in alphas[:2]])
            mine = np.asarray(classification_log_marginal_likelihood(
                network, theta, X, y, prior_precision=alphas[:2], prior_mean=prior_mean))
            rel = record("log_marglik_prior_mean_rel", np.max(np.abs(theirs - mine) / np.abs(theirs)))
            assert rel < 1e-10, f"prior mean {np.ravel(prior_mean)[:3]}: torch {theirs}, ours {mine}"
    finally:
        la_default.prior_mean = 0.0


def test_optimised_prior_precision_matches(problem, ours, la_default):
    """laplace-torch 0.3's own loop with its defaults (n_steps 100, lr 0.1, init 1, scalar
    structure) against ours with the same defaults."""
    network, theta, X, y, _ = problem
    la = la_default
    la.optimize_prior_precision(method="marglik")
    assert la.prior_precision.shape == (1,), "FullLaplace's default prior structure should be scalar"
    alpha_torch = la.prior_precision.item()
    lml_torch = la.log_marginal_likelihood().item()
    assert MARGLIK_DEFAULTS == {"init_prior_precision": 1.0, "learning_rate": 0.1, "steps": 100}
    fit = optimise_prior_precision(network, theta, X, y)
    terms = classification_evidence_terms(network, theta, X, y, ggn=ours[0], log_likelihood=ours[1])
    assert optimise_prior_precision_from_terms(terms).prior_precision == pytest.approx(fit.prior_precision, rel=1e-12)
    rel_alpha = record("optimised_alpha_rel", abs(fit.prior_precision / alpha_torch - 1))
    rel_lml = record("optimised_log_marglik_rel", abs(fit.log_marginal_likelihood / lml_torch - 1))
    assert rel_alpha < 1e-8, f"torch alpha {alpha_torch}, ours {fit.prior_precision}"
    assert rel_lml < 1e-10, f"torch log marglik {lml_torch}, ours {fit.log_marginal_likelihood}"
    assert fit.steps == 100 and fit.trace_prior_precision[0] == 1.0 and len(fit.trace_log_marginal_likelihood) == 100
    # 100 steps at lr 0.1 from alpha = 1 need not converge (here |d lml / d log alpha| ~ 0.2 at
    # the end): laplace-torch stops there too, and so do we.
    assert fit.log_marginal_likelihood > fit.trace_log_marginal_likelihood[0]
    assert np.isfinite(fit.gradient_norm)
    summary = fit.summary()
    assert json.loads(json.dumps(summary))["prior_precision"] == fit.prior_precision


def test_predictives_match_on_the_same_draws(problem, ours, la_default):
    """Same standard-normal draws (torch's global RNG, reseeded) through both libraries:
    ``nn``: ``theta_s = theta + L eps_s`` with ``eps`` of shape (S, D) (``la.sample``);
    ``glm``/``mc``: ``f_mu + chol(f_var) eps`` with one ``eps`` of shape (C, S) shared by all
    inputs (``normal_samples``); and the weight-sample linearised predictive
    ``softmax(f* + J (theta_s - theta*))`` with laplace-torch's own Jacobians."""
    network, theta, X, y, X_test = problem
    la = la_default
    precision = classification_posterior_precision(network, theta, X, y, prior_precision=ALPHA, ggn=ours[0])
    scale = np.asarray(precision_to_scale_tril(precision))
    covariance = scale @ scale.T
    Xt = torch.tensor(X_test)

    f_mu, f_var = la._glm_predictive_distribution(Xt)
    mu, var = glm_predictive_moments(network, theta, covariance, X_test, batch_size=10)
    record("glm_mean_abs", np.max(np.abs(f_mu.numpy() - np.asarray(mu))))
    var_rel = record("glm_var_rel", np.max(np.abs(f_var.numpy() - np.asarray(var))) / np.max(np.abs(f_var.numpy())))
    assert DIFFS["glm_mean_abs"] < 1e-12 and var_rel < 1e-9

    torch.manual_seed(11)
    glm_torch = la(Xt, pred_type="glm", link_approx="mc", n_samples=NUM_SAMPLES).numpy()
    torch.manual_seed(11)
    eps_out = torch.randn((mu.shape[1], NUM_SAMPLES), dtype=torch.float64).numpy()
    # normal_samples: f_mu + chol(f_var) eps, eps (C, S) shared by every input
    logits = np.asarray(mu)[:, :, None] + np.linalg.cholesky(np.asarray(var)) @ eps_out[None]  # (M, C, S)
    glm_ours = softmax(logits, axis=1).mean(axis=2)
    glm_diff = record("glm_mc_probability_abs", np.max(np.abs(glm_torch - glm_ours)))

    torch.manual_seed(12)
    nn_torch = la(Xt, pred_type="nn", link_approx="mc", n_samples=NUM_SAMPLES).numpy()
    torch.manual_seed(12)
    theta_samples = np.asarray(theta) + torch.randn(NUM_SAMPLES, theta.shape[0], dtype=torch.float64).numpy() @ scale.T
    nn_ours = np.asarray(mc_predictive_probabilities(network, theta_samples, X_test))
    nn_diff = record("nn_mc_probability_abs", np.max(np.abs(nn_torch - nn_ours)))

    Js, f = la.backend.jacobians(Xt)
    delta = torch.tensor(theta_samples - np.asarray(theta))
    lin_torch = torch.softmax(f[None] + torch.einsum("ncp,sp->snc", Js, delta), dim=-1).mean(0).numpy()
    lin_ours = np.asarray(linearised_mc_predictive_probabilities(network, theta, theta_samples, X_test))
    lin_diff = record("linearised_weight_sample_probability_abs", np.max(np.abs(lin_torch - lin_ours)))

    assert glm_diff < 1e-10 and nn_diff < 1e-10 and lin_diff < 1e-10, (glm_diff, nn_diff, lin_diff)
    for probabilities in (glm_ours, nn_ours, lin_ours):
        np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, atol=1e-12)


BAD_INPUTS = {
    "labels out of range": (lambda X, y, th: (th, X, np.where(y == 2, 3, y)), "labels must lie in"),
    "negative label": (lambda X, y, th: (th, X, y - 1), "labels must lie in"),
    "non-integer labels": (lambda X, y, th: (th, X, y + 0.5), "integer class labels"),
    "boolean labels": (lambda X, y, th: (th, X, y > 0), "integer class labels"),
    "length mismatch": (lambda X, y, th: (th, X, y[:-1]), r"y must have shape \(80,\)"),
    "2-D labels": (lambda X, y, th: (th, X, y[:, None]), r"y must have shape \(80,\)"),
    "non-finite theta": (lambda X, y, th: (th.at[0].set(jnp.nan), X, y), "theta must be finite"),
    "matrix theta": (lambda X, y, th: (th[None], X, y), "theta must be a non-empty flat vector"),
    "empty X": (lambda X, y, th: (th, X[:0], y[:0]), "N >= 1 rows"),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_data_raises(problem, case):
    network, theta, X, y, _ = problem
    make, message = BAD_INPUTS[case]
    th, Xb, yb = make(X, y, theta)
    with pytest.raises(ValueError, match=message):
        classification_ggn(network, th, Xb, yb)


def test_bad_settings_raise(problem, ours):
    network, theta, X, y, _ = problem
    for alpha in (0.0, -1.0, np.inf, np.nan):
        with pytest.raises(ValueError, match="prior_precision must be finite and > 0"):
            classification_posterior_precision(network, theta, X, y, prior_precision=alpha, ggn=ours[0])
        with pytest.raises(ValueError, match="prior_precision must be finite and > 0"):
            classification_log_marginal_likelihood(network, theta, X, y, prior_precision=[1.0, alpha])
    with pytest.raises(ValueError, match="batch_size must be None or an integer >= 1"):
        classification_ggn(network, theta, X, y, batch_size=0)
    with pytest.raises(ValueError, match=r"ggn must have shape \(51, 51\)"):
        classification_posterior_precision(network, theta, X, y, prior_precision=1.0, ggn=ours[0][:5])
    with pytest.raises(ValueError, match="prior_mean must be a scalar or have shape"):
        classification_evidence_terms(network, theta, X, y, prior_mean=np.zeros(3), ggn=ours[0], log_likelihood=ours[1])
    with pytest.raises(ValueError, match="pass both ggn and log_likelihood"):
        classification_evidence_terms(network, theta, X, y, ggn=ours[0])
    terms = classification_evidence_terms(network, theta, X, y, ggn=ours[0], log_likelihood=ours[1])
    with pytest.raises(ValueError, match="steps must be an integer >= 0"):
        optimise_prior_precision_from_terms(terms, steps=-1)
    with pytest.raises(ValueError, match="learning_rate must be finite and > 0"):
        optimise_prior_precision_from_terms(terms, learning_rate=0.0)
    with pytest.raises(ValueError, match="init_prior_precision must be finite and > 0"):
        optimise_prior_precision_from_terms(terms, init_prior_precision=-2.0)
    with pytest.raises(ValueError, match="C >= 2 logits"):
        classification_ggn(MultilayerPerceptron((2, 4, 1), "tanh"), jnp.zeros(17), X, np.zeros(80, int))
    with pytest.raises(ValueError, match="network must be a callable"):
        classification_ggn("mlp", theta, X, y)
    with pytest.raises(ValueError, match=r"theta_samples must have shape \(S, 51\)"):
        linearised_mc_predictive_probabilities(network, theta, theta[None, :50], X)
    with pytest.raises(ValueError, match=r"covariance must have shape \(51, 51\)"):
        glm_predictive_moments(network, theta, jnp.eye(50), X)
