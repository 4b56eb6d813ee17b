"""Logarithmic map by shooting: round trips, the isotropic closed form, reported failures.

The metric throughout is the Monge metric of a Gaussian (RLA-BLog's manifold P), whose
geodesics from the mean are known in closed form when the precision is isotropic.
Each (dimension, settings) pair costs a compilation of several seconds, so the tests share
two, D = 2 and D = 5, solved one target at a time with the default (chord) corrector, and
Newton's corrector on D = 5. A log map starved of corrector iterations, in a lock-step batch,
is tested through RLA-BLog (tests/methods/test_rla_blog.py).
"""

from __future__ import annotations

import dataclasses

import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.geometry.exponential_map import OdeSettings, exponential_map
from geobayes.geometry.gaussian_monge import GaussianMonge
from geobayes.geometry.logarithmic_map import (
    LogMapResult,
    LogMapSettings,
    _shot_residual,
    logarithmic_map,
)
from geobayes.settings import from_mapping

BATCH = 6
DIMS = (2, 5)
SETTINGS = LogMapSettings()
#: Newton's corrector with the budgets it had as the default (128 iterations, 5 a stage).
NEWTON = LogMapSettings(corrector="newton", max_steps=128, stage_max_steps=5)
#: Independent Exp map, three orders tighter than the shots.
REFERENCE_ODE = OdeSettings(rtol=1e-11, atol=1e-13, max_steps=100_000)
#: |Exp(Log x) - x| <= atol (residual, 1e-8) + global error of shots at rtol 1e-8.
ROUND_TRIP_TOL = 1e-6


def _anisotropic(dim, seed, low=0.3, high=30.0):
    """Gaussian-Monge metric with a random mean and eigenvalues of P log-uniform in [low, high]."""
    rng = np.random.default_rng(seed)
    rotation, _ = np.linalg.qr(rng.normal(size=(dim, dim)))
    eigenvalues = np.exp(rng.uniform(np.log(low), np.log(high), size=dim))
    precision = rotation @ np.diag(eigenvalues) @ rotation.T
    return GaussianMonge(jnp.asarray(rng.normal(size=dim)), jnp.asarray(precision))


def _gaussian_draws(metric, n, seed):
    """``m + thetabar``, ``thetabar ~ N(0, P^{-1})``: the targets RLA-BLog feeds the log map."""
    rng = np.random.default_rng(seed)
    chol = np.linalg.cholesky(np.asarray(metric.precision))
    offsets = np.linalg.solve(chol.T, rng.normal(size=(n, metric.mean.shape[0])).T).T
    return metric.mean + jnp.asarray(offsets)


def _isotropic_log_norm(r, c):
    """Riemannian distance from the mean to radius ``r`` when P = c I:
    ``L(r) = int_0^r sqrt(1 + c^2 s^2) ds``."""
    return 0.5 * r * np.sqrt(1.0 + (c * r) ** 2) + np.arcsinh(c * r) / (2.0 * c)


@pytest.mark.parametrize("dim", DIMS)
def test_exp_of_log_returns_the_target(dim):
    metric = _anisotropic(dim, seed=dim)
    targets = _gaussian_draws(metric, BATCH, seed=100 + dim)
    log = logarithmic_map(metric, None, metric.mean, targets, SETTINGS)
    assert isinstance(log, LogMapResult)
    assert log.velocities.shape == (BATCH, dim)
    for field in (log.successful, log.result_code, log.num_steps, log.residual):
        assert field.shape == (BATCH,)
    assert bool(np.all(log.successful)), log
    np.testing.assert_array_equal(log.result_code, 0)
    assert np.all(np.asarray(log.residual) < SETTINGS.atol * np.sqrt(dim))
    assert np.all(np.asarray(log.num_steps) >= 1)
    end = exponential_map(metric, None, metric.mean, log.velocities, REFERENCE_ODE)
    assert bool(np.all(end.successful))
    np.testing.assert_allclose(end.points, targets, rtol=0, atol=ROUND_TRIP_TOL)
    # The metric is curved at this scale: the velocities are not the straight-line offsets.
    assert float(jnp.max(jnp.abs(log.velocities - (targets - metric.mean)))) > 0.1


def test_log_of_exp_returns_the_velocity():
    """Short enough velocities (inside the injectivity radius) come back unchanged."""
    dim = 5
    metric = _anisotropic(dim, seed=25, low=0.3, high=3.0)
    rng = np.random.default_rng(35)
    velocities = jnp.asarray(0.7 * rng.normal(size=(BATCH, dim)))
    end = exponential_map(metric, None, metric.mean, velocities, REFERENCE_ODE)
    assert float(jnp.max(jnp.abs(end.points - metric.mean - velocities))) > 0.05  # curved
    log = logarithmic_map(metric, None, metric.mean, end.points, SETTINGS)
    assert bool(np.all(log.successful)), log
    # d Exp is well conditioned here, so |dv| is of the order of the endpoint error.
    np.testing.assert_allclose(log.velocities, velocities, rtol=0, atol=10 * ROUND_TRIP_TOL)


@pytest.mark.parametrize("dim", DIMS)
def test_isotropic_precision_matches_closed_form(dim):
    """P = c I: geodesics from the mean are radial with constant Riemannian speed, so
    ``Log_m(m + r u) = L(r) u`` with ``L(r) = r sqrt(1 + c^2 r^2) / 2 + asinh(c r) / (2 c)``."""
    c = 4.0
    rng = np.random.default_rng(7)
    directions = rng.normal(size=(BATCH, dim))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    radii = np.array([0.05, 0.3, 0.7, 1.0, 1.5, 2.0])  # c r from 0.2 to 8
    mean = jnp.asarray(rng.normal(size=dim))
    metric = GaussianMonge(mean, c * jnp.eye(dim))
    targets = mean + radii[:, None] * directions
    log = logarithmic_map(metric, None, mean, targets, SETTINGS)
    assert bool(np.all(log.successful)), log
    expected = _isotropic_log_norm(radii, c)[:, None] * directions
    assert expected[-1] @ directions[-1] > 4 * radii[-1]  # far from the straight-line guess
    np.testing.assert_allclose(log.velocities, expected, rtol=1e-6, atol=1e-9)


def test_continuation_reaches_targets_on_a_steep_paraboloid():
    """Eigenvalues of P in [10, 200]: geodesics from the vertex reach conjugate points at
    typical sample distances. Single shooting from the linear guess fails on 4 of these 6
    targets (32 Newton iterations; measured, see the Notes of ``logarithmic_map``); the
    continuation reaches all of them."""
    metric = _anisotropic(5, seed=1, low=10.0, high=200.0)
    targets = _gaussian_draws(metric, BATCH, seed=1)
    log = logarithmic_map(metric, None, metric.mean, targets, SETTINGS)
    assert bool(np.all(log.successful)), log
    end = exponential_map(metric, None, metric.mean, log.velocities, REFERENCE_ODE)
    np.testing.assert_allclose(end.points, targets, rtol=0, atol=ROUND_TRIP_TOL)
    # Far from the linear guess: |v| / |x - m| ~ |P (x - m)| / 2 on a steep paraboloid.
    stretch = np.linalg.norm(log.velocities, axis=1) / np.linalg.norm(targets - metric.mean, axis=1)
    assert np.all(stretch > 2.0)


def test_chord_and_newton_correctors_reach_the_same_velocities():
    """Where the branch from v = 0 is unique (eig(P) in [0.3, 30], D = 5) the two correctors
    find the same log map; the chord method reuses one Jacobian a stage, so it takes more
    (cheaper) iterations than Newton (measured: 1.1-5x less time, benchmarks/bench_log_map.py)."""
    assert SETTINGS.corrector == "chord"
    metric = _anisotropic(5, seed=5)
    targets = _gaussian_draws(metric, BATCH, seed=105)
    chord = logarithmic_map(metric, None, metric.mean, targets, SETTINGS)
    newton = logarithmic_map(metric, None, metric.mean, targets, NEWTON)
    assert bool(np.all(chord.successful)) and bool(np.all(newton.successful)), (chord, newton)
    np.testing.assert_allclose(chord.velocities, newton.velocities, rtol=0, atol=10 * ROUND_TRIP_TOL)
    assert float(jnp.max(jnp.abs(chord.velocities - (targets - metric.mean)))) > 0.1  # curved
    assert np.all(np.asarray(chord.num_steps) > np.asarray(newton.num_steps))
    assert not bool(np.any(chord.fallback)) and not bool(np.any(newton.fallback))


def test_newton_solves_again_what_the_chord_method_left_unsolved():
    """Starved of iterations a stage, the chord method cannot converge: without a fallback it
    reports every target failed; with Newton's (the default) those targets are solved again,
    marked, with both solves' iterations counted."""
    metric = _anisotropic(5, seed=5)
    targets = _gaussian_draws(metric, BATCH, seed=105)
    starved = LogMapSettings(stage_max_steps=1, max_steps=64, fallback="none")
    failed = logarithmic_map(metric, None, metric.mean, targets, starved)
    assert not bool(np.any(failed.successful)) and not bool(np.any(failed.fallback))
    assert set(np.asarray(failed.result_code).tolist()) <= {7, 8}
    rescued = logarithmic_map(metric, None, metric.mean, targets, dataclasses.replace(starved, fallback="newton"))
    assert bool(np.all(rescued.successful)) and bool(np.all(rescued.fallback)), rescued
    np.testing.assert_array_equal(rescued.result_code, 0)
    newton = logarithmic_map(metric, None, metric.mean, targets, dataclasses.replace(NEWTON, max_steps=64))
    np.testing.assert_allclose(rescued.velocities, newton.velocities, rtol=0, atol=10 * ROUND_TRIP_TOL)
    assert np.all(np.asarray(rescued.num_steps) > np.asarray(newton.num_steps))


def test_failed_shot_gives_nan_residual():
    """A shot that cannot reach t = 1 returns NaN, so Newton stops on non-finite values
    instead of chasing the point where the solver stopped."""
    metric = _anisotropic(2, seed=2)
    args = (metric, None, metric.mean, metric.mean, OdeSettings(max_steps=2))
    residual = _shot_residual(jnp.array([3.0, -2.0]), args)
    assert residual.shape == (2,) and bool(jnp.all(jnp.isnan(residual)))


def test_target_at_base_point_has_zero_velocity():
    metric = _anisotropic(2, seed=3)
    targets = jnp.tile(metric.mean, (BATCH, 1))
    log = logarithmic_map(metric, None, metric.mean, targets, SETTINGS)
    assert bool(np.all(log.successful))
    np.testing.assert_array_equal(log.velocities, 0.0)


def test_mismatched_shapes_are_rejected():
    metric = _anisotropic(2, seed=3)
    with pytest.raises(ValueError, match="targets shape"):
        logarithmic_map(metric, None, metric.mean, jnp.zeros((4, 3)), SETTINGS)


CONFIG = {
    "rtol": 1e-8,
    "atol": "1e-8",
    "max_steps": 64,
    "ode_rtol": 1e-9,
    "ode_atol": 1e-10,
    "ode_max_steps": 16384.0,
}


def test_settings_from_config():
    settings = from_mapping(LogMapSettings, CONFIG, "approximation.log_map")
    assert (settings.rtol, settings.atol, settings.max_steps) == (1e-8, 1e-8, 64)
    assert (settings.ode.solver, settings.ode.rtol, settings.ode.atol) == ("dopri5", 1e-9, 1e-10)
    assert settings.ode.max_steps == 16384 and isinstance(settings.ode.max_steps, int)
    defaults = LogMapSettings()
    optional = ("corrector", "fallback", "stage_max_steps", "first_stage", "min_stage", "batch_size")
    assert all(getattr(settings, key) == getattr(defaults, key) for key in optional)
    assert defaults.corrector == "chord"
    changed = from_mapping(
        LogMapSettings, {**CONFIG, "corrector": "newton", "stage_max_steps": 6, "first_stage": 1, "batch_size": 0},
        "approximation.log_map",
    )
    chosen = (changed.corrector, changed.stage_max_steps, changed.first_stage, changed.batch_size)
    assert chosen == ("newton", 6, 1.0, 0)


@pytest.mark.parametrize(
    "change, match",
    [
        ({"atol": "tight"}, r"approximation\.log_map\.atol: expected a number"),
        ({"max_steps": 2.5}, r"approximation\.log_map\.max_steps: expected an integer"),
        ({"ode_max_steps": True}, r"approximation\.log_map\.ode_max_steps: expected an integer"),
        ({"tol": 1e-3}, r"approximation\.log_map\.tol: unknown key; did you mean 'rtol'\?"),
        ({"rtol": -1.0}, r"approximation\.log_map: rtol and atol must be > 0"),
        ({"ode_atol": 0.0}, r"approximation\.ode: rtol and atol"),
        ({"first_stage": 2.0}, r"first_stage"),
        ({"batch_size": -1}, r"approximation\.log_map\.batch_size"),
        ({"corrector": "broyden"}, r"approximation\.log_map\.corrector: expected one of chord, newton, got 'broyden'"),
        ({"fallback": "lm"}, r"approximation\.log_map\.fallback: expected one of newton, none, got 'lm'"),
    ],
)
def test_settings_from_config_name_the_bad_key(change, match):
    config = {**CONFIG, **change}
    config = {k: v for k, v in config.items() if v is not None}
    with pytest.raises(ValueError, match=match):
        from_mapping(LogMapSettings, config, "approximation.log_map")
