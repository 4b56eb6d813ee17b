"""Wall-clock time per sample of an approximation, one at a time and batched.

Yu et al. (2024), Supp. 16.4 and Table 4 (file ``../shared/papers/yu2024-rla-fisher-metric.txt``,
lines 989-998) report the "time to obtain a single sample" of the logistic-regression
approximations: SciPy ``solve_ivp`` one sample at a time, averaged over 2,500 samples on
two cores. A vectorised JAX sampler is timed very differently one sample at a time (Python
dispatch and a batch of one per call) and in a batch (``vmap``: all samples step together,
so a batch waits for its slowest solve). :func:`time_sampling` measures both on the same
machine, in one process and on the same approximation, so their ratio is free of the
hardware; absolute seconds are not comparable with the paper's (different CPU, integrator
and language; see the reproduction notes, section 6.3, item 15).

The batched program is compiled ahead of time, not warmed up by running a whole batch
(:func:`geobayes.metrics.compiled_sampler.ready_sampler`).
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from geobayes.metrics.compiled_sampler import ready_sampler

__all__ = ["SamplingTime", "time_sampling"]


@dataclasses.dataclass(frozen=True)
class SamplingTime:
    """Seconds per sample of one approximation, one at a time and batched.

    Attributes
    ----------
    per_sample_s : float
        One sample at a time: mean over ``n_sequential`` timed calls ``sample(k, 1)`` of
        the seconds per call (the protocol of Yu et al. (2024), Table 4).
    per_sample_median_s : float
        Median of the same ``n_sequential`` call times (robust to a stray slow call).
    batched_s_per_sample : float
        Batched: median over ``repeats`` timed calls ``sample(key, n_batched)`` of the call
        time, divided by ``n_batched``.
    ratio : float
        ``per_sample_s / batched_s_per_sample``: how many times faster a sample is when
        drawn in a batch.
    compile_sequential_s : float
        Seconds of the untimed first call ``sample(key, 1)``: tracing and compilation plus one
        execution (near zero if an executable of the same shapes was compiled earlier).
    compile_batched_s : float
        Seconds to trace and compile ``sample(key, n_batched)`` ahead of time, without
        executing it (``compiled_ahead``); for a sampler that cannot be lowered, seconds of an
        untimed first call (compilation plus one execution).
    n_sequential, n_batched, repeats : int
        The arguments of :func:`time_sampling`.
    failed_sequential : int
        Unsuccessful samples (e.g. the solver hit its step cap) among the ``n_sequential``
        one-at-a-time samples. Their time is included: a failure costs the full step cap.
    failed_batched : int
        Unsuccessful samples among the ``n_batched`` samples of the last timed batch (every
        timed batch uses the same key and so draws the same samples).
    mean_steps_sequential, mean_steps_batched : float
        Mean solver steps per sample over the same samples (0 for closed-form samplers;
        failed samples count at the cap).
    compiled_ahead : bool
        Whether the batched calls ran an executable compiled ahead of time (no warm-up batch).
    """

    per_sample_s: float
    per_sample_median_s: float
    batched_s_per_sample: float
    ratio: float
    compile_sequential_s: float
    compile_batched_s: float
    n_sequential: int
    n_batched: int
    repeats: int
    failed_sequential: int
    failed_batched: int
    mean_steps_sequential: float
    mean_steps_batched: float
    compiled_ahead: bool

    def to_dict(self) -> dict[str, float | int]:
        """The fields as a plain ``dict`` of Python numbers (for JSON and CSV rows)."""
        return dataclasses.asdict(self)


def _check_count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1; got {value!r}")
    return int(value)


def _draw(sample: Callable[[jax.Array, int], Any], key: jax.Array, n: int) -> tuple[float, Any]:
    """Seconds of one ``sample(key, n)`` call, waited for, and its draws."""
    start = time.perf_counter()
    draws = jax.block_until_ready(sample(key, n))
    seconds = time.perf_counter() - start
    rows = np.shape(draws.successful)[0] if np.ndim(draws.successful) else None
    if rows != n:
        raise ValueError(f"approximation.sample(key, {n}) returned {rows} samples instead of {n}")
    return seconds, draws


def _failed(draws: Any) -> int:
    ok = np.asarray(draws.successful, dtype=bool)
    return int(ok.size - ok.sum())


def time_sampling(
    approximation: Any, key: jax.Array, *, n_sequential: int, n_batched: int, repeats: int = 3
) -> SamplingTime:
    """Time ``approximation.sample`` one sample at a time and in one batch.

    (a) One at a time, as Yu et al. (2024), Table 4 (there with SciPy): one untimed call
    ``sample(key, 1)`` compiles; then for ``i = 0 .. n_sequential - 1`` the call
    ``sample(jax.random.fold_in(key, i), 1)`` is timed on its own with
    :func:`time.perf_counter` and :func:`jax.block_until_ready`. Seconds per sample = mean
    (and median) of the call times.

    (b) Batched: ``sample(key, n_batched)`` is compiled ahead of time, untimed (or, for a
    sampler that cannot be lowered, run once untimed); then ``repeats`` timed calls of the
    same executable; seconds per sample = median call time / ``n_batched``.

    Parameters
    ----------
    approximation
        A fitted approximation whose ``sample(key, n)`` returns
        :class:`geobayes.methods.base.ApproximateDraws` (fields ``theta, successful,
        result_code, num_steps``), e.g. ``get_method("rla_f").fit(...).approximation``.
    key : jax.Array
        PRNG key of the samples.
    n_sequential : int
        Number of one-at-a-time samples timed (the paper averaged 2,500).
    n_batched : int
        Batch size of the batched calls.
    repeats : int, optional
        Number of timed batched calls (default 3).

    Returns
    -------
    SamplingTime

    Raises
    ------
    ValueError
        If ``n_sequential``, ``n_batched`` or ``repeats`` is not an integer >= 1, or
        ``sample(key, n)`` returns a number of samples other than ``n``.
    TypeError
        If ``approximation`` has no callable ``sample``.
    """
    n_sequential = _check_count("n_sequential", n_sequential)
    n_batched = _check_count("n_batched", n_batched)
    repeats = _check_count("repeats", repeats)
    if not callable(getattr(approximation, "sample", None)):
        raise TypeError(f"approximation must have a method sample(key, n); got {type(approximation).__name__}")

    keys = [jax.random.fold_in(key, i) for i in range(n_sequential)]
    jax.block_until_ready(keys)
    compile_sequential, _ = _draw(approximation.sample, key, 1)
    call_times, failed_sequential, steps_sequential = [], 0, 0.0
    for k in keys:
        seconds, draws = _draw(approximation.sample, k, 1)
        call_times.append(seconds)
        failed_sequential += _failed(draws)
        steps_sequential += float(np.sum(np.asarray(draws.num_steps, dtype=np.float64)))

    batched = ready_sampler(approximation.sample, key, n_batched)
    batch_times, batch = [], None
    for _ in range(repeats):
        seconds, batch = _draw(batched.sample, key, n_batched)
        batch_times.append(seconds)

    per_sample = statistics.fmean(call_times)
    batched_s = statistics.median(batch_times) / n_batched
    return SamplingTime(
        per_sample_s=per_sample,
        per_sample_median_s=statistics.median(call_times),
        batched_s_per_sample=batched_s,
        ratio=per_sample / batched_s if batched_s > 0 else math.inf,
        compile_sequential_s=compile_sequential,
        compile_batched_s=batched.compile_s,
        n_sequential=n_sequential,
        n_batched=n_batched,
        repeats=repeats,
        failed_sequential=failed_sequential,
        failed_batched=_failed(batch),
        mean_steps_sequential=steps_sequential / n_sequential,
        mean_steps_batched=float(np.mean(np.asarray(batch.num_steps, dtype=np.float64))),
        compiled_ahead=batched.compiled_ahead,
    )
