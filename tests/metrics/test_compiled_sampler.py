"""ready_sampler: a batched sampler compiled ahead of time (no untimed run), and the WG timing that uses it,
its calls interleaved across methods."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from counting_sampler import CountingSampler, PythonSampler

from geobayes.methods.base import FitResult
from geobayes.metrics.compiled_sampler import ready_sampler
from geobayes.metrics.equal_count_timing import time_approximations


def test_a_jitted_sampler_is_compiled_without_running_and_draws_as_the_plain_call():
    sampler = CountingSampler(runs={})
    key = jax.random.PRNGKey(4)
    ready = ready_sampler(sampler.sample, key, 6)
    jax.effects_barrier()
    assert ready.compiled_ahead and ready.compile_s > 0
    assert sampler.runs == {}  # compiled, never run
    ahead = ready.sample(key, 6)
    plain = sampler.sample(key, 6)
    np.testing.assert_array_equal(ahead.theta, plain.theta)  # the same program, the same draws


def test_a_python_sampler_is_warmed_up_by_one_run():
    inner = CountingSampler(runs={})
    ready = ready_sampler(PythonSampler(inner).sample, jax.random.PRNGKey(0), 3)
    jax.effects_barrier()
    assert not ready.compiled_ahead
    assert inner.runs == {3: 1}


def test_wg_timing_runs_the_batch_only_when_timed():
    # time_approximations (Hartmann timing table): `repeats` runs of the batch, no warm-up run.
    sampler = CountingSampler(runs={})
    record = time_approximations({"wg": lambda: FitResult(sampler, {})}, jax.random.PRNGKey(0), 8, 3).records["wg"]
    jax.effects_barrier()
    assert record["compiled_ahead"] and sampler.runs == {8: 3}
    assert record["per_sample_s"] == record["sample_s"] / 8 and record["n_failed"] == 0
    assert len(record["calls_s"]) == 3 and record["min_sample_s"] == min(record["calls_s"]) <= record["sample_s"]


class _LoggedSampler:
    """A Python sampler (warmed up by one run) that logs its label at every call."""

    def __init__(self, label, log):
        self.label, self.log, self.inner = label, log, CountingSampler(runs={})

    def sample(self, key, n):
        self.log.append(self.label)
        return self.inner.sample(key, n)


def test_the_timed_calls_go_round_robin_with_the_order_rotated_each_round():
    # In per-method blocks the first-compiled method ran 1.2-2.6x slower on this machine kind: every
    # method must meet each position of a round, and the rounds must alternate between methods.
    log = []
    fits = {label: (lambda label: lambda: FitResult(_LoggedSampler(label, log), {}))(label) for label in "abc"}
    timings = time_approximations(fits, jax.random.PRNGKey(0), 4, 3)
    assert log == list("abc") + list("abc") + list("bca") + list("cab")  # three warm-ups, then three rounds
    assert list(timings.records) == list("abc") and all(len(r["calls_s"]) == 3 for r in timings.records.values())
    np.testing.assert_array_equal(timings.draws["a"].theta, CountingSampler(runs={}).sample(jax.random.PRNGKey(0), 4).theta)


@pytest.mark.parametrize("fits, n, repeats, message", [
    ({}, 4, 1, "no method to time"),
    ({"a": None}, 0, 1, "n=0"),
    ({"a": None}, 4, 0, "repeats=0"),
])
def test_time_approximations_refuses_nothing_to_time(fits, n, repeats, message):
    with pytest.raises(ValueError, match=message):
        time_approximations(fits, jax.random.PRNGKey(0), n, repeats)
