"""ready_sampler: a batched sampler compiled ahead of time (no untimed run), and the WG timing that uses it."""

from __future__ import annotations

import jax
import numpy as np

from counting_sampler import CountingSampler, PythonSampler

from geobayes.methods.base import FitResult
from geobayes.metrics.compiled_sampler import ready_sampler
from geobayes.metrics.equal_count_timing import time_approximation


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
    # time_approximation (Hartmann timing table): `repeats` runs of the batch, no warm-up run.
    sampler = CountingSampler(runs={})

    def fit(posterior, config, key, *, mode):
        return FitResult(sampler, {})

    record = time_approximation(fit, None, None, None, jax.random.PRNGKey(0), 8, 3)
    jax.effects_barrier()
    assert record["compiled_ahead"] and sampler.runs == {8: 3}
    assert record["per_sample_s"] == record["sample_s"] / 8 and record["n_failed"] == 0
