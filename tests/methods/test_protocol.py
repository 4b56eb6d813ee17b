"""The common ``fit`` / ``sample`` protocol, over every registered approximation method."""

from __future__ import annotations

import re

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.dataset import Dataset
from geobayes.families import GaussianFixedVariance
from geobayes.methods import METHOD_NAMES, ApproximateDraws, FitResult, get_method, method_config, summarise_draws
from geobayes.models import EmbeddingModel, GaussianPrior, LogisticRegression
from geobayes.networks import MultilayerPerceptron, NetworkRegression
from geobayes.posterior import Posterior

N = 50
SUMMARY_KEYS = {
    "n_samples",
    "n_failed",
    "failed_fraction",
    "mean_steps",
    "max_steps_taken",
    "T",
    "result_codes",
}
CONFIG = {
    "precision": "hessian",
    "ode": {"solver": "dopri5", "rtol": 1e-3, "atol": 1e-6, "max_steps": 4096},
    # Bergamin et al.'s mini-batched metric: batches of 20 of the 30 network observations.
    "minibatch": {"size": 20},
}
#: Bergamin et al.'s (2023) network variants: the linearisation needs a network regression model.
NETWORK_ONLY = {"lin_ela", "lin_rla_b", "lin_rla_b_batched"}


def _logistic(seed=0, n=40, d=3):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=(n, d - 1)), np.ones(n)])
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-X @ rng.normal(size=d)))).astype(float)
    return Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(10.0)), Dataset(X, y))


def _network(seed=0, n=30):
    """A 1-3-1 tanh regression network (10 weights) on noisy sine data."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2.0, 2.0, size=(n, 1))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)
    model = NetworkRegression(network=MultilayerPerceptron((1, 3, 1)), prior=GaussianPrior(1.0),
                              family=GaussianFixedVariance(0.01))
    return Posterior("toy-mlp", model, Dataset(X, y))


POSTERIOR = _logistic()
NETWORK = _network()


def _newton_mode(posterior, start, iterations=30):
    step = jax.jit(lambda p, th: th - jnp.linalg.solve(p.hessian(th), p.grad(th)))
    theta = jnp.asarray(start)
    for _ in range(iterations):
        theta = step(posterior, theta)
    return theta


def _network_mode(posterior):
    """BFGS restarts (the pipeline's MAP search), then Newton to machine precision."""
    from geobayes.optimize import anchor_objective, find_map

    start = find_map(anchor_objective("euclidean"), posterior, posterior.dim, jax.random.PRNGKey(0), restarts=4)
    return _newton_mode(posterior, start.position, iterations=5)


MODE = _newton_mode(POSTERIOR, jnp.zeros(POSTERIOR.dim))
NETWORK_MODE = _network_mode(NETWORK)


def target_of(name):
    """(posterior, mode) a method is checked on: the network for the linearised variants."""
    return (NETWORK, NETWORK_MODE) if name in NETWORK_ONLY else (POSTERIOR, MODE)


#: Methods whose "samples" are the mode itself (the MAP row of Bergamin et al.'s tables): no
#: randomness and no tangent precision.
POINT_MASSES = {"map"}


@pytest.fixture(scope="module", params=METHOD_NAMES)
def fitted(request):
    name = request.param
    posterior, mode = target_of(name)
    return name, get_method(name).fit(posterior, method_config(name, CONFIG), jax.random.PRNGKey(0), mode=mode)


def test_mode_is_a_maximum():
    for posterior, mode in ((POSTERIOR, MODE), (NETWORK, NETWORK_MODE)):
        assert float(jnp.linalg.norm(jax.jit(lambda p, t: p.grad(t))(posterior, mode))) < 1e-8
        assert bool(jnp.all(jnp.linalg.eigvalsh(posterior.hessian(mode)) < 0))


def test_method_names_registered():
    assert set(METHOD_NAMES) >= {"ela", "rla_b", "rla_f"}
    for name in METHOD_NAMES:
        module = get_method(name)
        assert module.NAME == name
        assert callable(module.fit)


def test_fit_returns_fit_result(fitted):
    name, result = fitted
    assert isinstance(result, FitResult)
    assert result.stats["method"] == name
    assert hasattr(result.approximation, "sample")


def test_sample_shapes_dtypes_and_determinism(fitted):
    name, result = fitted
    key = jax.random.PRNGKey(1)
    draws = result.approximation.sample(key, N)
    assert isinstance(draws, ApproximateDraws)
    theta = np.asarray(draws.theta)
    assert theta.shape == (N, target_of(name)[0].dim) and theta.dtype == np.float64
    assert np.asarray(draws.successful).shape == (N,)
    assert np.asarray(draws.successful).dtype == np.bool_
    for field in (draws.result_code, draws.num_steps):
        assert np.asarray(field).shape == (N,)
        assert np.issubdtype(np.asarray(field).dtype, np.integer)
    assert bool(np.all(np.asarray(draws.successful)))
    assert np.all(np.isfinite(theta))

    again = result.approximation.sample(key, N)
    for a, b in zip(draws, again):
        np.testing.assert_array_equal(a, b)

    other = result.approximation.sample(jax.random.PRNGKey(2), N)
    if name in POINT_MASSES:  # the same point for every key: the mode
        np.testing.assert_array_equal(np.asarray(other.theta), theta)
        np.testing.assert_array_equal(theta, np.broadcast_to(np.asarray(target_of(name)[1]), theta.shape))
        return
    # Continuous draws: every row differs with probability one.
    assert np.all(np.any(np.asarray(other.theta) != theta, axis=1))


def test_samples_centred_on_mode(fitted):
    """All three are centred near the MAP: the mean of 50 draws is within 5 standard errors
    of the ELA marginal sd (a loose sanity check; RLA-B only shrinks, RLA-F is close here)."""
    name, result = fitted
    posterior, mode = target_of(name)
    draws = result.approximation.sample(jax.random.PRNGKey(3), N)
    cov = np.linalg.inv(-np.asarray(jax.jit(lambda p, t: p.hessian(t))(posterior, mode)))
    z = (np.asarray(draws.theta).mean(0) - np.asarray(mode)) / np.sqrt(np.diag(cov) / N)
    assert np.all(np.abs(z) < 5), (name, z)


def test_summarise_draws(fitted):
    name, result = fitted
    draws = result.approximation.sample(jax.random.PRNGKey(4), N)
    summary = summarise_draws(draws, evaluations_per_step=6)
    # Methods that invert a map by least squares also report the residuals.
    residual_keys = {"median_residual", "max_residual"} if draws.residual is not None else set()
    # Methods with a fallback solver (WG) also count the samples it solved again.
    fallback_keys = {"n_fallback", "n_fallback_failed"} if draws.fallback is not None else set()
    # Methods that solve geodesics also report the drift of their conserved speed.
    drift_keys = {"median_speed_drift", "max_speed_drift"} if draws.speed_drift is not None else set()
    assert set(summary) == SUMMARY_KEYS | residual_keys | fallback_keys | drift_keys
    if drift_keys:  # over the successful samples (all here); the default rtol 1e-3 lets it reach 0.6 here
        drift = np.asarray(draws.speed_drift)
        assert np.all(np.isfinite(drift)) and summary["max_speed_drift"] == pytest.approx(drift.max())
        assert 0.0 <= summary["median_speed_drift"] <= summary["max_speed_drift"], summary
    assert summary["n_samples"] == N
    assert summary["n_failed"] == 0
    assert summary["failed_fraction"] == 0.0
    assert summary["result_codes"] == {"0": N}
    steps = np.asarray(draws.num_steps)
    assert summary["mean_steps"] == pytest.approx(steps.mean())
    assert summary["max_steps_taken"] == int(steps.max())
    assert summary["T"] == pytest.approx(6 * steps.mean())
    if name in ("ela", "lin_ela", *POINT_MASSES):
        assert summary["T"] == 0.0
    else:
        assert summary["T"] > 0.0


@pytest.mark.parametrize("n", [0, -3, 2.0, True, "5"])
def test_sample_rejects_a_sample_count_that_is_not_a_positive_integer(fitted, n):
    name, result = fitted
    with pytest.raises(ValueError, match=r"sample\(key, n\): n must be a positive integer, got " + re.escape(repr(n))):
        result.approximation.sample(jax.random.PRNGKey(0), n)


@pytest.mark.parametrize("name", METHOD_NAMES)
def test_fit_rejects_a_mode_of_the_wrong_shape_or_not_finite(name):
    """A NaN mode used to give all-NaN draws flagged successful; a short one a shape error deep
    in JAX. Both now stop ``fit`` with the posterior's name and what is wrong."""
    posterior, mode = target_of(name)
    config = method_config(name, CONFIG)
    with pytest.raises(ValueError, match=re.escape(f"{posterior.name}: the mode has shape ({posterior.dim - 1},), "
                                                   f"expected ({posterior.dim},)")):
        get_method(name).fit(posterior, config, jax.random.PRNGKey(0), mode=mode[:-1])
    with pytest.raises(ValueError, match=re.escape(f"{posterior.name}: the mode is not finite at 1 of "
                                                   f"{posterior.dim} entries (first at index 1: nan)")):
        get_method(name).fit(posterior, config, jax.random.PRNGKey(0), mode=mode.at[1].set(jnp.nan))
    with pytest.raises(ValueError, match="not finite at 2 of"):
        get_method(name).fit(posterior, config, jax.random.PRNGKey(0), mode=mode.at[0].set(jnp.inf).at[2].set(jnp.nan))


def test_summarise_draws_counts_failures():
    draws = ApproximateDraws(
        theta=jnp.zeros((4, 2)),
        successful=jnp.array([True, False, True, False]),
        result_code=jnp.array([0, 1, 0, 1]),
        num_steps=jnp.array([3, 10, 5, 10]),
    )
    summary = summarise_draws(draws, evaluations_per_step=6)
    assert summary["n_failed"] == 2
    assert summary["failed_fraction"] == 0.5
    assert summary["result_codes"] == {"0": 2, "1": 2}
    assert summary["T"] == pytest.approx(6 * 7.0)
    assert summary["max_steps_taken"] == 10


def test_unknown_method_name_raises_key_error_naming_known_ones():
    with pytest.raises(KeyError) as excinfo:
        get_method("nuts_but_wrong")
    message = str(excinfo.value)
    assert "nuts_but_wrong" in message
    for name in METHOD_NAMES:
        assert name in message


class _QuadraticModel(EmbeddingModel):
    """Hand-made log density ``1/2 sum_i signs_i theta_i^2``: stationary point at 0."""

    signs: tuple = eqx.field(static=True, default=(-1.0, -1.0))
    family: GaussianFixedVariance = eqx.field(default_factory=GaussianFixedVariance)
    prior: GaussianPrior = eqx.field(default_factory=GaussianPrior)

    def logdensity(self, theta, data):
        return 0.5 * jnp.sum(jnp.asarray(self.signs) * theta**2)


def _quadratic_posterior(name, signs):
    data = Dataset(np.zeros((1, len(signs))), np.zeros(1))
    return Posterior(name, _QuadraticModel(signs=signs), data)


@pytest.mark.parametrize("method", sorted(set(METHOD_NAMES) - NETWORK_ONLY - POINT_MASSES - {"rla_b_batched"}))
@pytest.mark.parametrize(
    "posterior_name, signs", [("toy-saddle", (-1.0, 1.0)), ("toy-minimum", (1.0, 1.0))]
)
def test_non_positive_definite_hessian_precision_rejected(method, posterior_name, signs):
    posterior = _quadratic_posterior(posterior_name, signs)
    mode = jnp.zeros(2)
    with pytest.raises(ValueError, match=posterior_name) as excinfo:
        get_method(method).fit(posterior, method_config(method), jax.random.PRNGKey(0), mode=mode)
    assert "positive definite" in str(excinfo.value)


def test_quadratic_maximum_is_accepted():
    """Control for the test above: the same hand-made model at a maximum fits fine."""
    posterior = _quadratic_posterior("toy-maximum", (-1.0, -4.0))
    result = get_method("ela").fit(posterior, method_config("ela"), jax.random.PRNGKey(0), mode=jnp.zeros(2))
    L = np.asarray(result.approximation.tangent.precision_cholesky)
    np.testing.assert_allclose(L @ L.T, np.diag([1.0, 4.0]), rtol=1e-14)
