"""Every batched method gives the same draws for every sample schedule (chunk size, sorting).

Real posteriors (Ripley logistic regression, the pinned data file), real solves. Sorting is a
pure reordering and every chunk (the padded last one too) runs the same kernel: at one chunk
size the sorted and unsorted draws are bitwise equal. Across chunk
sizes the draws are compared to 1e-12 relative, not bitwise: XLA compiles a ``vmap`` of 3
samples and one of 8 into different kernels, whose floating-point reductions may associate
differently (measured differences up to ~4e-13 relative to |theta|); the solver trajectories
are the same here (result codes, step counts and success flags compared exactly, in order).
On ill-conditioned posteriors whose solves take thousands of adaptive steps (raw-input Heart)
such round-off can flip a step-size decision, and draws of different chunk sizes then differ
at the level of the ODE tolerance (``benchmarks/bench_lockstep.py`` records it): the chunk size
is part of the config that fixes the numbers.
"""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.batching import Schedule, lockstep_waste, map_in_chunks, refill_waste
from geobayes.data.logreg import load_logreg_raw, prepare_logreg
from geobayes.dataset import Dataset
from geobayes.geometry.exponential_map import OdeSettings, exponential_map, metric_speeds
from geobayes.geometry.monge import Monge
from geobayes.methods import get_method, method_config
from geobayes.models import LogisticRegression
from geobayes.optimize import find_map
from geobayes.posterior import Posterior
from geobayes.settings import from_mapping

RIPLEY = "logreg/ripley.npy"  # in the data mirror (tests/data_mirror.py)
N = 8
#: Each schedule is a compile of the whole sampler: the methods are checked on the two that
#: differ most (one vmap; sorted chunks with a remainder), the Exp map on every chunk size below.
SCHEDULES = [Schedule(None), Schedule(3, sort_by_difficulty=True)]


def _ripley(standardise: bool):
    features, labels = load_logreg_raw(mirror_file(RIPLEY))
    prepared = prepare_logreg(features, labels, standardise=standardise)
    name = "ripley-logreg" if standardise else "ripley_raw-logreg"
    posterior = Posterior(name, LogisticRegression(), Dataset(prepared.X, prepared.y))
    estimate = find_map(lambda th, p: p.logdensity(th), posterior, posterior.dim, jax.random.PRNGKey(0),
                        restarts=2)
    return posterior, jnp.asarray(estimate.position)


@pytest.fixture(scope="module")
def raw_ripley():
    return _ripley(standardise=False)


@pytest.fixture(scope="module")
def ripley():
    return _ripley(standardise=True)


def assert_same_draws(reference, draws):
    for name, expected in reference.arrays().items():
        got = np.asarray(getattr(draws, name))
        expected = np.asarray(expected)
        if expected.dtype.kind == "f":
            scale = np.nanmax(np.abs(expected))
            np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12 * max(scale, 1.0), err_msg=name)
        else:
            np.testing.assert_array_equal(got, expected, err_msg=name)


@pytest.mark.parametrize(
    ("method", "config", "which"),
    [
        ("rla_b", {}, "raw"),  # geodesic Exp map (RLA-F, RLA-EF, lin-RLA-B share it)
        ("rla_b_batched", {"minibatch": {"size": 50}}, "raw"),  # per-sample mini-batched metric
        ("wg", {}, "raw"),  # least-squares inversion
        # Log map run all at once, so that schedule.chunk_size chunks it too.
        ("rla_blog", {"log_map": {"rtol": 1e-6, "atol": 1e-8, "max_steps": 128, "ode_rtol": 1e-8,
                                  "ode_atol": 1e-10, "ode_max_steps": 4096, "batch_size": 0}}, "std"),
    ],
)
def test_draws_do_not_depend_on_the_schedule(method, config, which, raw_ripley, ripley):
    posterior, mode = raw_ripley if which == "raw" else ripley
    key = jax.random.PRNGKey(7)
    n = 4 if method == "rla_blog" else N  # lock-step log maps are the costly part: one chunk + remainder
    reference = None
    for schedule in SCHEDULES:
        options = {**config, "schedule": {"chunk_size": schedule.chunk_size or 0,
                                          "sort_by_difficulty": schedule.sort_by_difficulty}}
        approximation = get_method(method).fit(posterior, method_config(method, options), key, mode=mode).approximation
        assert approximation.schedule == schedule
        if method == "rla_blog":
            assert approximation.log_map.batch_size == (schedule.chunk_size or 0)
        draws = approximation.sample(key, n)
        if reference is None:
            reference = draws
            assert np.asarray(draws.successful).any()
        else:
            assert_same_draws(reference, draws)
    # The public call without a schedule still works (the fitted one is used).
    fitted = get_method(method).fit(posterior, method_config(method, config), key, mode=mode)
    assert_same_draws(reference, fitted.approximation.sample(key, n))


def test_exp_map_keeps_failures_and_step_counts_in_order_for_every_chunk_size(raw_ripley):
    # A step cap inside the step-count range: some solves fail (code 1), the rest succeed.
    posterior, mode = raw_ripley
    approximation = get_method("rla_b").fit(posterior, method_config("rla_b"), None, mode=mode).approximation
    n = 12
    velocities = approximation.tangent.sample_velocities(jax.random.PRNGKey(3), n)
    ode = OdeSettings(max_steps=6)
    reference = exponential_map(Monge(), posterior, mode, velocities, ode)
    codes = np.asarray(reference.result_code)
    assert 0 < np.sum(codes != 0) < codes.size, codes
    order = np.argsort(np.asarray(metric_speeds(Monge(), posterior, mode, velocities)), kind="stable")
    assert not np.array_equal(order, np.arange(order.size))  # the sort really permutes
    ends = {}
    # refill: 5 lanes, each taking the next sample when its solve ends (the capped ones included)
    for schedule in (Schedule(1), Schedule(5), Schedule(n), Schedule(5, sort_by_difficulty=True),
                     Schedule(5, refill=True), Schedule(5, sort_by_difficulty=True, refill=True)):
        end = ends[schedule] = exponential_map(Monge(), posterior, mode, velocities, ode, schedule)
        np.testing.assert_array_equal(np.asarray(end.result_code), codes)
        np.testing.assert_array_equal(np.asarray(end.num_steps), np.asarray(reference.num_steps))
        np.testing.assert_array_equal(np.asarray(end.successful), np.asarray(reference.successful))
        np.testing.assert_allclose(np.asarray(end.points), np.asarray(reference.points), rtol=0, atol=1e-12)
    # Same chunk size: sorting only reorders the samples, so the draws are bitwise equal.
    np.testing.assert_array_equal(np.asarray(ends[Schedule(5)].points),
                                  np.asarray(ends[Schedule(5, sort_by_difficulty=True)].points))


@pytest.mark.parametrize("solver", ["dopri5", "bosh3"])
def test_refilled_lanes_give_the_draws_of_one_batch_through_the_method_config(solver, raw_ripley):
    """``approximation.schedule.refill`` reaches RLA-B's Exp map: 3 lanes refilled, longest
    geodesics first, draw what one ``vmap`` of all samples draws (result codes and steps equal),
    with the papers' Dopri5 and with Bosh3 (``approximation.ode.solver``)."""
    posterior, mode = raw_ripley
    key = jax.random.PRNGKey(7)
    draws = {}
    for refill in (False, True):
        schedule = {"chunk_size": 3 if refill else 0, "sort_by_difficulty": refill, "refill": refill}
        options = {"schedule": schedule, "ode": {"solver": solver}}
        approximation = get_method("rla_b").fit(posterior, method_config("rla_b", options), key,
                                                mode=mode).approximation
        assert approximation.ode.solver == solver
        assert approximation.schedule.refill is refill
        draws[refill] = approximation.sample(key, N)
    assert len(set(np.asarray(draws[False].num_steps).tolist())) > 1  # lanes finish at different times
    assert_same_draws(draws[False], draws[True])


@pytest.mark.parametrize(("steps", "lanes", "order", "waste"), [
    ([4, 1, 1, 1, 1], 2, None, 0.0),          # one lane holds the long solve, the other takes the rest
    ([1, 1, 1, 1, 4], 2, None, 1 - 8 / 12),   # the long solve enters last: the other lane idles 4 iterations
    ([1, 1, 1, 1, 4], 2, [4, 0, 1, 2, 3], 0.0),  # longest first
    ([3, 3, 3], 5, None, 0.0),                # more lanes than samples: one lane each
])
def test_refill_waste_counts_the_idle_lane_steps_of_the_last_round(steps, lanes, order, waste):
    assert refill_waste(steps, lanes, order) == pytest.approx(waste)
    assert refill_waste(steps, lanes, order) <= lockstep_waste(steps, lanes, order) + 1e-12


def test_map_in_chunks_pads_the_last_chunk_and_drops_the_padding():
    calls = []

    def one(x):
        calls.append(x.shape)
        return {"double": 2 * x, "sum": jnp.sum(x)}

    xs = jnp.arange(14.0).reshape(7, 2)
    out = map_in_chunks(one, xs, 3)
    np.testing.assert_array_equal(out["double"], 2 * np.arange(14.0).reshape(7, 2))
    np.testing.assert_array_equal(out["sum"], np.arange(14.0).reshape(7, 2).sum(axis=1))
    assert calls == [(2,)]  # one kernel: the last chunk (one sample) is padded to 3


def test_lockstep_waste():
    steps = [1, 1, 1, 5]
    assert lockstep_waste(steps) == pytest.approx(1 - 8 / 20)
    assert lockstep_waste(steps, 2) == pytest.approx(1 - 8 / (2 + 10))
    assert lockstep_waste(steps, 2, order=[0, 3, 1, 2]) == pytest.approx(1 - 8 / (10 + 2))
    assert lockstep_waste(steps, 1) == 0.0
    assert lockstep_waste([1, 1, 1], 2) == pytest.approx(1 - 3 / 4)  # the padded last chunk counts


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"schedule": {"chunk_size": -2}}, "approximation.schedule.chunk_size"),
        ({"schedule": {"chunk_size": 2.5}}, "approximation.schedule.chunk_size"),
        ({"schedule": {"sort_by_difficulty": "yes"}}, "approximation.schedule.sort_by_difficulty"),
        ({"schedule": {"chunks": 3}}, "approximation.schedule.chunks: unknown key; did you mean 'chunk_size'?"),
    ],
)
def test_bad_schedule_names_the_key(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        from_mapping(Schedule, options["schedule"], "approximation.schedule")


def test_schedule_from_config():
    assert from_mapping(Schedule, {}, "approximation.schedule") == Schedule()
    assert from_mapping(Schedule, {"chunk_size": 0}, "approximation.schedule") == Schedule(None)
    assert from_mapping(Schedule, {"chunk_size": 1000, "sort_by_difficulty": True},
                        "approximation.schedule") == Schedule(1000, True)
    assert method_config("rla_b", {"schedule": {"chunk_size": 0}}).schedule == Schedule()
    assert Schedule(1000).chunk_for(10) is None and Schedule(4).chunk_for(10) == 4
