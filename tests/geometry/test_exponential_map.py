"""Exponential maps: straight lines for G = I, conserved energy, reported failures, batching."""

from __future__ import annotations

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.dataset import Dataset
from geobayes.geometry import Euclidean, Fisher, Monge, OdeSettings, exponential_map
from geobayes.geometry.exponential_map import result_message
from geobayes.geometry.speed_drift import speed_drift
from geobayes.models import GaussianPrior, LogisticRegression
from geobayes.posterior import Posterior
from geobayes.settings import from_mapping

TIGHT = OdeSettings(rtol=1e-11, atol=1e-12, max_steps=100_000)
#: One batch size throughout, so each (metric, settings) pair compiles once per worker.
BATCH = 4


def _logistic(seed=0, n=40, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-X @ rng.normal(size=d)))).astype(float)
    return Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(5.0)), Dataset(X, y))


POSTERIOR = _logistic()


def _mode(posterior, iterations=30):
    """MAP by Newton's method (the log posterior is strictly concave)."""
    step = jax.jit(lambda p, th: th - jnp.linalg.solve(p.hessian(th), p.grad(th)))
    theta = jnp.zeros(posterior.dim)
    for _ in range(iterations):
        theta = step(posterior, theta)
    return theta


@eqx.filter_jit
def _reference_geodesic(metric, posterior, theta0, v0):
    """Own Diffrax solve of [theta, v]' = [v, -Gamma(v, v)], returning theta(1) and v(1)."""

    def field(t, state, args):
        theta, v = state
        return v, -metric.christoffel(posterior, theta, v)

    sol = diffrax.diffeqsolve(
        diffrax.ODETerm(field),
        diffrax.Tsit5(),
        t0=0.0,
        t1=1.0,
        dt0=None,
        y0=(theta0, v0),
        stepsize_controller=diffrax.PIDController(rtol=1e-12, atol=1e-13),
        saveat=diffrax.SaveAt(t1=True),
        max_steps=200_000,
    )
    return sol.ys[0][-1], sol.ys[1][-1]


@eqx.filter_jit
def _energy(metric, posterior, theta, v):
    return metric.squared_speed(posterior, theta, v)


def test_euclidean_exponential_map_is_straight_line():
    rng = np.random.default_rng(1)
    base = jnp.asarray(rng.normal(size=POSTERIOR.dim))
    velocities = jnp.asarray(rng.normal(scale=3.0, size=(BATCH, POSTERIOR.dim)))
    end = exponential_map(Euclidean(), POSTERIOR, base, velocities, OdeSettings())
    np.testing.assert_allclose(end.points, base + velocities, rtol=1e-13, atol=1e-13)
    assert end.points.shape == velocities.shape
    assert bool(jnp.all(end.successful))
    np.testing.assert_array_equal(end.result_code, 0)
    assert bool(jnp.all(end.num_steps >= 1))


@pytest.mark.parametrize("metric", [Monge(alpha2=1.0), Fisher()], ids=["monge", "fisher"])
def test_geodesic_conserves_metric_norm_of_velocity(metric):
    """``|v(t)|^2_{G(theta(t))}`` is constant along a geodesic (Yu et al. 2024, Supp. 11)."""
    rng = np.random.default_rng(2)
    for _ in range(3):
        theta0 = jnp.asarray(rng.normal(scale=0.5, size=POSTERIOR.dim))
        v0 = jnp.asarray(rng.normal(scale=1.0, size=POSTERIOR.dim))
        theta1, v1 = _reference_geodesic(metric, POSTERIOR, theta0, v0)
        e0 = float(_energy(metric, POSTERIOR, theta0, v0))
        e1 = float(_energy(metric, POSTERIOR, theta1, v1))
        # The geodesic actually moved somewhere curved.
        assert float(jnp.linalg.norm(theta1 - theta0 - v0)) > 1e-3
        assert abs(e1 - e0) <= 1e-8 * e0, (e0, e1)


def test_monge_squared_speed_is_the_quadratic_form_of_its_tensor():
    """The closed form (one gradient) equals ``v^T G v`` with the D x D tensor."""
    rng = np.random.default_rng(7)
    metric = Monge(alpha2=0.7)
    for _ in range(3):
        theta = jnp.asarray(rng.normal(size=POSTERIOR.dim))
        v = jnp.asarray(rng.normal(scale=2.0, size=POSTERIOR.dim))
        generic = v @ metric.tensor(POSTERIOR, theta) @ v
        assert float(generic) > float(v @ v)  # the gradient term is present
        np.testing.assert_allclose(metric.squared_speed(POSTERIOR, theta, v), generic, rtol=1e-12)


def test_library_endpoints_match_tighter_reference_solve():
    """Library Exp map at tight tolerance == an independent Tsit5 solve at tighter tolerance."""
    rng = np.random.default_rng(3)
    base = jnp.asarray(rng.normal(scale=0.5, size=POSTERIOR.dim))
    velocities = jnp.asarray(rng.normal(size=(BATCH, POSTERIOR.dim)))
    tight = exponential_map(Monge(), POSTERIOR, base, velocities, TIGHT)
    assert bool(jnp.all(tight.successful))
    np.testing.assert_array_equal(tight.result_code, 0)
    for i in range(BATCH):
        reference, _ = _reference_geodesic(Monge(), POSTERIOR, base, velocities[i])
        assert float(jnp.linalg.norm(reference - base - velocities[i])) > 1e-2  # curved
        np.testing.assert_allclose(tight.points[i], reference, rtol=1e-8, atol=1e-9)


def test_bosh3_solves_the_geodesic_to_its_tolerance_with_steps_of_its_own():
    """``ode.solver: bosh3`` reaches Diffrax's Bogacki-Shampine 3(2): at a tight tolerance its end
    points are the independent reference's, and its lower order takes more steps than Dopri5's."""
    rng = np.random.default_rng(3)
    base = jnp.asarray(rng.normal(scale=0.5, size=POSTERIOR.dim))
    velocities = jnp.asarray(rng.normal(size=(BATCH, POSTERIOR.dim)))
    ode = {solver: OdeSettings(solver=solver, rtol=1e-9, atol=1e-10, max_steps=100_000) for solver in ("dopri5", "bosh3")}
    ends = {solver: exponential_map(Monge(), POSTERIOR, base, velocities, settings) for solver, settings in ode.items()}
    assert bool(jnp.all(ends["bosh3"].successful))
    assert bool(jnp.all(ends["bosh3"].num_steps > 2 * ends["dopri5"].num_steps))
    for i in range(BATCH):
        reference, _ = _reference_geodesic(Monge(), POSTERIOR, base, velocities[i])
        np.testing.assert_allclose(ends["bosh3"].points[i], reference, rtol=1e-7, atol=1e-8)


def test_a_geodesic_solved_in_two_pieces_ends_where_the_whole_solve_ends():
    """``solve_geodesic(span=...)`` integrates a piece of the same geodesic from its state at the
    piece's start (benchmarks/geodesic_segments.py): [0, 0.4] then [0.4, 1] == [0, 1]."""
    from geobayes.geometry.exponential_map import solve_geodesic

    rng = np.random.default_rng(5)
    base = jnp.asarray(rng.normal(scale=0.5, size=POSTERIOR.dim))
    velocity = jnp.asarray(rng.normal(size=POSTERIOR.dim))
    whole = solve_geodesic(Monge(), POSTERIOR, base, velocity, TIGHT)
    first = solve_geodesic(Monge(), POSTERIOR, base, velocity, TIGHT, span=(0.0, 0.4))
    middle = (first.ys[0][-1], first.ys[1][-1])
    second = solve_geodesic(Monge(), POSTERIOR, *middle, TIGHT, span=(0.4, 1.0))
    assert float(first.ts[-1]) == 0.4 and float(second.ts[-1]) == 1.0
    assert float(jnp.linalg.norm(middle[0] - base - 0.4 * velocity)) > 1e-3  # the piece is curved
    np.testing.assert_allclose(second.ys[0][-1], whole.ys[0][-1], rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(second.ys[1][-1], whole.ys[1][-1], rtol=1e-8, atol=1e-9)


def test_monge_geodesic_from_mode_shrinks_speed():
    """At the MAP G = I, so energy conservation forces |v(1)| <= |v(0)| (RLA-B bias, Sec. 3)."""
    mode = _mode(POSTERIOR)
    rng = np.random.default_rng(4)
    for _ in range(3):
        v0 = jnp.asarray(rng.normal(size=POSTERIOR.dim))
        theta1, v1 = _reference_geodesic(Monge(), POSTERIOR, mode, v0)
        assert float(jnp.linalg.norm(v1)) < float(jnp.linalg.norm(v0))
        assert float(jnp.linalg.norm(theta1 - mode)) < float(jnp.linalg.norm(v0))


def test_step_cap_reports_failure_without_raising():
    rng = np.random.default_rng(5)
    base = jnp.asarray(rng.normal(size=POSTERIOR.dim))
    velocities = jnp.asarray(rng.normal(scale=3.0, size=(BATCH, POSTERIOR.dim)))
    end = exponential_map(Monge(), POSTERIOR, base, velocities, OdeSettings(max_steps=2))
    np.testing.assert_array_equal(end.successful, False)
    np.testing.assert_array_equal(end.result_code, 1)
    np.testing.assert_array_equal(end.num_steps, 2)
    assert "maximum number of solver steps" in result_message(1)
    assert result_message(0) == "successful"


def test_batch_results_independent_of_batch_composition():
    rng = np.random.default_rng(6)
    base = jnp.asarray(rng.normal(scale=0.5, size=POSTERIOR.dim))
    # Very different speeds so the adaptive step sequences differ across the batch.
    speeds = np.array([0.1, 1.0, 3.0, 8.0])[:, None]
    velocities = jnp.asarray(rng.normal(size=(BATCH, POSTERIOR.dim)) * speeds)
    metric = Monge()
    batch = exponential_map(metric, POSTERIOR, base, velocities, OdeSettings())
    assert len(set(np.asarray(batch.num_steps).tolist())) > 1
    for i in range(velocities.shape[0]):
        single = exponential_map(metric, POSTERIOR, base, velocities[i : i + 1], OdeSettings())
        np.testing.assert_allclose(single.points[0], batch.points[i], rtol=0, atol=1e-10)
        assert int(single.num_steps[0]) == int(batch.num_steps[i])
        assert bool(single.successful[0]) == bool(batch.successful[i])
    permutation = np.array([2, 0, 3, 1])
    shuffled = exponential_map(metric, POSTERIOR, base, velocities[permutation], OdeSettings())
    np.testing.assert_allclose(shuffled.points, batch.points[permutation], rtol=0, atol=1e-10)
    np.testing.assert_array_equal(shuffled.num_steps, batch.num_steps[permutation])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"solver": "euler"}, "approximation.ode.solver"),
        ({"rtol": 0.0}, "rtol"),
        ({"atol": -1.0}, "atol"),
        ({"max_steps": 0}, "max_steps"),
    ],
)
def test_ode_settings_reject_bad_values(kwargs, match):
    with pytest.raises(ValueError, match=match):
        OdeSettings(**kwargs)


def test_ode_settings_from_config():
    config = {"solver": "tsit5", "rtol": "1e-5", "atol": 1e-7, "max_steps": 100}
    ode = from_mapping(OdeSettings, config, "approximation.ode")
    assert (ode.solver, ode.rtol, ode.atol, ode.max_steps) == ("tsit5", 1e-5, 1e-7, 100)
    defaults = OdeSettings()
    got = (defaults.solver, defaults.rtol, defaults.atol, defaults.max_steps)
    assert got == ("dopri5", 1e-3, 1e-6, 4096)


@pytest.mark.parametrize("metric", [Monge(alpha2=1.0), Fisher()], ids=["monge", "fisher"])
def test_speed_drift_is_round_off_on_a_tight_solve_and_measures_a_loose_one(metric):
    """``speed_drift`` is zero to round-off where the solve is exact, grows where the
    tolerances are loose, and is NaN for a failed solve."""
    rng = np.random.default_rng(11)
    mode = _mode(POSTERIOR)
    velocities = jnp.asarray(rng.normal(scale=4.0, size=(BATCH, POSTERIOR.dim)))
    drifts = {}
    for name, ode in (("tight", TIGHT), ("loose", OdeSettings(rtol=1e-1, atol=1e-1)), ("capped", OdeSettings(max_steps=1))):
        end = exponential_map(metric, POSTERIOR, mode, velocities, ode)
        drifts[name] = np.asarray(speed_drift(metric, POSTERIOR, mode, velocities, end))
    assert np.all(drifts["tight"] < 1e-9), drifts["tight"]
    assert np.max(drifts["loose"]) > 1e3 * np.max(drifts["tight"]) and np.max(drifts["loose"]) > 1e-6, drifts["loose"]
    assert np.all(np.isnan(drifts["capped"]))
