"""time_sampling (Yu et al. 2024, Table 4 protocol plus batched throughput) on real approximations.

No speed is asserted: only that the measurements are well-formed and consistent with their
definitions, and that the draw counts are right.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from counting_sampler import CountingSampler, PythonSampler
from toy_posteriors import linear_gaussian_posterior

from geobayes.dataset import Dataset
from geobayes.methods import get_method, method_config
from geobayes.metrics.sampling_time import SamplingTime, time_sampling
from geobayes.models import GaussianPrior, LogisticRegression
from geobayes.posterior import Posterior

CONFIG = {"precision": "hessian", "ode": {"solver": "dopri5", "rtol": 1e-3, "atol": 1e-6, "max_steps": 4096}}


def _logistic_rla_f():
    rng = np.random.default_rng(3)
    X = np.column_stack([rng.normal(size=(40, 2)), np.ones(40)])
    y = (rng.uniform(size=40) < 1 / (1 + np.exp(-X @ np.array([1.0, -0.5, 0.2])))).astype(float)
    posterior = Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(10.0)), Dataset(X, y))
    step = jax.jit(lambda p, th: th - jnp.linalg.solve(p.hessian(th), p.grad(th)))
    mode = jnp.zeros(posterior.dim)
    for _ in range(30):
        mode = step(posterior, mode)
    return get_method("rla_f").fit(posterior, method_config("rla_f", CONFIG), jax.random.PRNGKey(0), mode=mode).approximation


@pytest.fixture(scope="module")
def rla_f():
    return _logistic_rla_f()


@pytest.fixture(scope="module")
def timing(rla_f):
    return time_sampling(rla_f, jax.random.PRNGKey(1), n_sequential=6, n_batched=16, repeats=2)


def test_fields_are_positive_finite_and_counts_right(timing):
    assert isinstance(timing, SamplingTime)
    for name in ("per_sample_s", "per_sample_median_s", "batched_s_per_sample", "ratio",
                 "compile_sequential_s", "compile_batched_s"):
        value = getattr(timing, name)
        assert math.isfinite(value) and value > 0, (name, value)
    assert (timing.n_sequential, timing.n_batched, timing.repeats) == (6, 16, 2)
    assert timing.compiled_ahead  # RLA-F's sample is one eqx.filter_jit program
    assert timing.failed_sequential == 0 and timing.failed_batched == 0
    # RLA-F on a curved posterior integrates a real ODE: a few accepted steps per sample.
    assert timing.mean_steps_sequential >= 1 and timing.mean_steps_batched >= 1


def test_ratio_is_its_definition_and_dict_roundtrips(timing):
    assert timing.ratio == pytest.approx(timing.per_sample_s / timing.batched_s_per_sample, rel=1e-12)
    record = timing.to_dict()
    assert list(record) == [field for field in SamplingTime.__dataclass_fields__]
    assert SamplingTime(**record) == timing
    with pytest.raises(AttributeError):
        timing.ratio = 1.0  # frozen


def test_counts_are_those_of_the_draws_it_times(rla_f):
    # The one-at-a-time samples are sample(fold_in(key, i), 1): their steps give the mean.
    key = jax.random.PRNGKey(5)
    timing = time_sampling(rla_f, key, n_sequential=3, n_batched=4, repeats=1)
    steps = [float(rla_f.sample(jax.random.fold_in(key, i), 1).num_steps[0]) for i in range(3)]
    assert timing.mean_steps_sequential == pytest.approx(np.mean(steps), rel=1e-12)
    batch = rla_f.sample(key, 4)
    assert timing.mean_steps_batched == pytest.approx(float(np.mean(batch.num_steps)), rel=1e-12)


def test_failed_samples_are_counted(rla_f):
    # A step cap of 1 cannot integrate a curved geodesic: every sample fails, and is counted.
    # (n_batched=1 reuses the compiled one-sample executable: the test stays fast.)
    capped = get_method("rla_f").fit(
        rla_f.posterior, method_config("rla_f", {**CONFIG, "ode": {**CONFIG["ode"], "max_steps": 1}}), jax.random.PRNGKey(0),
        mode=rla_f.tangent.mode,
    ).approximation
    timing = time_sampling(capped, jax.random.PRNGKey(2), n_sequential=3, n_batched=1, repeats=2)
    assert timing.failed_sequential == 3 and timing.failed_batched == 1
    assert timing.mean_steps_sequential == 1 and timing.mean_steps_batched == 1


def test_closed_form_sampler_has_zero_steps():
    posterior = linear_gaussian_posterior()
    mode = posterior.model.exact_posterior(posterior.data)[0]
    ela = get_method("ela").fit(posterior, method_config("ela"), jax.random.PRNGKey(0), mode=mode).approximation
    timing = time_sampling(ela, jax.random.PRNGKey(0), n_sequential=2, n_batched=3)
    assert timing.repeats == 3
    assert timing.mean_steps_sequential == 0 and timing.mean_steps_batched == 0
    assert timing.failed_sequential == 0 and timing.failed_batched == 0
    assert timing.per_sample_s > 0 and timing.batched_s_per_sample > 0


@pytest.mark.parametrize("name", ["n_sequential", "n_batched", "repeats"])
@pytest.mark.parametrize("bad", [0, -2, 2.5, True])
def test_bad_counts_are_rejected_naming_the_argument(rla_f, name, bad):
    arguments = {"n_sequential": 1, "n_batched": 1, "repeats": 1, name: bad}
    with pytest.raises(ValueError, match=f"{name} must be an integer >= 1"):
        time_sampling(rla_f, jax.random.PRNGKey(0), **arguments)


def test_object_without_sample_is_rejected():
    with pytest.raises(TypeError, match="sample"):
        time_sampling(object(), jax.random.PRNGKey(0), n_sequential=1, n_batched=1)


def test_the_batch_is_compiled_ahead_and_runs_only_when_timed():
    # An untimed warm-up batch would run the whole batch once more (half of a job's batched seconds
    # at repeats = 1); compiled ahead, the batched program runs exactly `repeats` times.
    sampler = CountingSampler(runs={})
    timing = time_sampling(sampler, jax.random.PRNGKey(0), n_sequential=2, n_batched=7, repeats=3)
    jax.effects_barrier()
    assert timing.compiled_ahead
    assert sampler.runs[7] == 3
    assert sampler.runs[1] == 3  # the one-at-a-time path: one untimed call, then two timed
    assert timing.compile_batched_s > 0


def test_a_sampler_that_cannot_be_lowered_is_warmed_up_by_running_it():
    inner = CountingSampler(runs={})
    timing = time_sampling(PythonSampler(inner), jax.random.PRNGKey(0), n_sequential=1, n_batched=5, repeats=2)
    jax.effects_barrier()
    assert not timing.compiled_ahead
    assert inner.runs[5] == 3  # the warm-up batch and the two timed ones
