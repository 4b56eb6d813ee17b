"""RLA-BLog is exact on a Gaussian target (Yu et al. 2024, Sec. 4.1), where RLA-B is not.

For a Gaussian target the manifold ``P`` of the log map and the target's Monge manifold ``M``
coincide, so ``Exp_M(Log_P(m + thetabar)) = m + thetabar``: RLA-BLog returns ELA's draws.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from toy_posteriors import linear_gaussian_posterior

from geobayes.geometry.exponential_map import OdeSettings, exponential_map
from geobayes.geometry.logarithmic_map import LogMapResult
from geobayes.methods import ApproximateDraws, get_method, method_config
from geobayes.methods import rla_blog
from geobayes.metrics import wasserstein1

N = 100
POSTERIOR = linear_gaussian_posterior()
MEAN, COV = (np.asarray(a) for a in POSTERIOR.model.exact_posterior(POSTERIOR.data))
MODE = jnp.asarray(MEAN)
#: Exp map far tighter than the log map's residual (1e-8), so that the latter dominates.
TIGHT_ODE = {"solver": "dopri5", "rtol": 1e-10, "atol": 1e-12, "max_steps": 100_000}
#: Log-map settings of config/config.yaml (chord corrector, budget 1024), one draw after another.
LOG_MAP = {
    "corrector": "chord",
    "rtol": 1e-8,
    "atol": 1e-8,
    "max_steps": 1024,
    "ode_rtol": 1e-9,
    "ode_atol": 1e-10,
    "ode_max_steps": 16384,
}
#: |theta - (m + thetabar)| <= log-map residual + shot error (rtol 1e-9) + Exp error.
EXACT_TOL = 1e-6
KEY = jax.random.PRNGKey(1)


def _fit(name, config):
    return get_method(name).fit(POSTERIOR, method_config(name, config), jax.random.PRNGKey(0), mode=MODE).approximation


@pytest.fixture(scope="module")
def blog_draws():
    config = {"ode": TIGHT_ODE, "log_map": LOG_MAP}
    approximation = rla_blog.fit(POSTERIOR, rla_blog.Config.from_mapping(config), KEY, mode=MODE).approximation
    assert approximation.log_map.max_steps == 1024 and approximation.ode.rtol == 1e-10
    draws, log = approximation.sample_with_log_map(KEY, N)
    return approximation, draws, log


@pytest.fixture(scope="module")
def ela_draws():
    return _fit("ela", {}).sample(KEY, N)


def test_fit_result_and_sample_protocol(blog_draws):
    result = rla_blog.fit(POSTERIOR, rla_blog.Config(), KEY, mode=MODE)
    assert rla_blog.NAME == "rla_blog" and result.stats == {"method": "rla_blog"}
    approximation, draws, log = blog_draws
    assert isinstance(draws, ApproximateDraws) and isinstance(log, LogMapResult)
    assert draws.theta.shape == (N, 3) and draws.theta.dtype == jnp.float64
    assert bool(np.all(draws.successful)) and bool(np.all(log.successful))
    np.testing.assert_array_equal(draws.result_code, 0)
    # num_steps counts the Exp map only (the paper's T); the log map's corrector steps are apart.
    assert np.all(np.asarray(draws.num_steps) >= 1) and np.all(np.asarray(log.num_steps) >= 1)
    again = approximation.sample(KEY, N)
    for a, b in zip(again, draws):
        np.testing.assert_array_equal(a, b)


def test_log_map_targets_are_the_ela_draws(blog_draws, ela_draws):
    """Common random numbers: the log map is applied to ELA's draws for the same key, i.e.
    ``Exp_P(v) = m + thetabar`` with ``m + thetabar`` ELA's sample."""
    approximation, _, log = blog_draws
    ode = OdeSettings(**TIGHT_ODE)
    end = exponential_map(approximation.gaussian_metric, None, MODE, log.velocities, ode)
    np.testing.assert_allclose(end.points, ela_draws.theta, rtol=0, atol=EXACT_TOL)


def test_exact_on_gaussian_target(blog_draws, ela_draws):
    _, draws, log = blog_draws
    np.testing.assert_allclose(draws.theta, ela_draws.theta, rtol=0, atol=EXACT_TOL)
    # ... although the log map did real work: velocities are far from the straight offsets.
    offsets = np.asarray(ela_draws.theta) - MEAN
    stretch = np.linalg.norm(np.asarray(log.velocities), axis=1) / np.linalg.norm(offsets, axis=1)
    assert np.median(stretch) > 1.5


def test_wasserstein_at_monte_carlo_level_and_rla_b_is_not(blog_draws):
    """W1 to exact draws: RLA-BLog within the spread of W1 between independent exact sets of
    the same size (mean +- 4 sd over 8 replicates); RLA-B beyond it and under-dispersed."""
    _, draws, _ = blog_draws
    rng = np.random.default_rng(0)
    exact = rng.multivariate_normal(MEAN, COV, size=N)
    reference = [
        wasserstein1(exact, rng.multivariate_normal(MEAN, COV, size=N), num_iter_max=1e7)
        for _ in range(8)
    ]
    centre, spread = np.mean(reference), np.std(reference, ddof=1)
    w_blog = wasserstein1(exact, np.asarray(draws.theta), num_iter_max=1e7)
    rla_b = _fit("rla_b", {}).sample(KEY, N)
    assert bool(np.all(rla_b.successful))
    w_b = wasserstein1(exact, np.asarray(rla_b.theta), num_iter_max=1e7)
    assert abs(w_blog - centre) < 4 * spread, (w_blog, centre, spread)
    assert w_b > centre + 4 * spread, (w_b, centre, spread)
    # Paired on the same base draws: RLA-B's squared distances to the mode are smaller.
    d_blog = np.sum((np.asarray(draws.theta) - MEAN) ** 2, axis=1)
    d_b = np.sum((np.asarray(rla_b.theta) - MEAN) ** 2, axis=1)
    diff = d_blog - d_b
    assert diff.mean() > 5 * diff.std(ddof=1) / np.sqrt(N)
    assert np.trace(np.cov(np.asarray(rla_b.theta).T)) < 0.5 * np.trace(COV)


def test_failed_log_map_is_reported_in_the_draws():
    """A budget of one corrector iteration; all draws in one lock-step ``vmap`` batch, the
    fallback's too."""
    log_map = {**LOG_MAP, "max_steps": 1, "batch_size": 0}
    approximation = rla_blog.fit(POSTERIOR, rla_blog.Config.from_mapping({"log_map": log_map}), KEY, mode=MODE).approximation
    assert (approximation.log_map.max_steps, approximation.log_map.batch_size) == (1, 0)
    draws, log = approximation.sample_with_log_map(KEY, 4)
    np.testing.assert_array_equal(log.successful, False)
    np.testing.assert_array_equal(log.result_code, 7)  # optimistix nonlinear_max_steps_reached
    # The chord's one iteration, then the Newton fallback's one: both counted, both failed.
    np.testing.assert_array_equal(log.fallback, True)
    np.testing.assert_array_equal(log.num_steps, 2)
    np.testing.assert_array_equal(draws.successful, False)
    np.testing.assert_array_equal(draws.result_code, rla_blog.LOG_MAP_FAILURE_OFFSET + 7)
    np.testing.assert_array_equal(draws.num_steps, 0)
    assert bool(np.all(np.isnan(np.asarray(draws.theta))))


def test_bad_log_map_config_names_the_key():
    with pytest.raises(ValueError, match=r"approximation\.log_map\.atol: expected a number, got 'loose'"):
        rla_blog.fit(POSTERIOR, rla_blog.Config.from_mapping({"log_map": {"atol": "loose"}}), KEY, mode=MODE)
