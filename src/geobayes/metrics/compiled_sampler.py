"""A batched sampler made ready to time: compiled ahead of time, not warmed up by a whole run.

Timing ``approximation.sample(key, n)`` needs its program compiled first. Running one untimed
call compiles it but also executes the whole batch once more, which for a geodesic sampler is as
long as a timed call: half of a job's batched seconds at one timed repeat (the quick run's 46
``time_sampling`` and ``time_bnn_scalability`` jobs, rerun alone: 1,343 s of job time before, 841 s
after; ``benchmarks/README.md``). A jitted
sampler is instead lowered and compiled without running (JAX's ahead-of-time path,
``lower(...).compile()``), and the timed calls run that executable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple

import jax

__all__ = ["ReadySampler", "ready_sampler"]


class ReadySampler(NamedTuple):
    """A sampler whose program for one batch size is compiled.

    Attributes
    ----------
    sample : callable
        ``sample(key, n)`` at the batch size it was made ready for: the compiled executable
        where ``compiled_ahead``, else the approximation's own ``sample``.
    compile_s : float
        Seconds to trace and compile (``compiled_ahead``), or of the untimed first call
        (compilation plus one execution) for a sampler that cannot be lowered.
    compiled_ahead : bool
        Whether the program was compiled without being run.
    """

    sample: Callable[[jax.Array, int], Any]
    compile_s: float
    compiled_ahead: bool


def _jitted(sample: Any) -> tuple[Any, tuple] | None:
    """The jitted function behind ``sample`` and the arguments bound to it, or None.

    A bound ``eqx.filter_jit`` method is an ``equinox`` ``Partial`` of the jitted function and
    the module; a ``jax.jit`` function has ``lower`` itself.
    """
    if callable(getattr(sample, "lower", None)):
        return sample, ()
    func = getattr(sample, "func", None)
    if callable(getattr(func, "lower", None)):
        return func, tuple(getattr(sample, "args", ()))
    return None


def ready_sampler(sample: Callable[[jax.Array, int], Any], key: jax.Array, n: int) -> ReadySampler:
    """Compile ``sample(key, n)`` ahead of time, or warm it up by running it where it cannot be.

    Parameters
    ----------
    sample : callable
        An approximation's ``sample(key, n)``: a bound ``eqx.filter_jit`` method (every sampler
        of :mod:`geobayes.methods` whose ``sample`` is one program), a ``jax.jit`` function, or
        any Python callable (e.g. one calling several programs), which is run once instead.
    key : jax.Array
        A PRNG key of the shape the timed calls use (its value is not used by a compile).
    n : int
        The batch size (static: one program per ``n``).

    Returns
    -------
    ReadySampler
        The executable to time, the seconds it took, and whether it was compiled without a run.
    """
    jitted = _jitted(sample)
    start = time.perf_counter()
    if jitted is None:
        jax.block_until_ready(sample(key, n))
        return ReadySampler(sample, time.perf_counter() - start, False)
    function, bound = jitted
    executable = function.lower(*bound, key, n).compile()
    return ReadySampler(lambda k, count: executable(*bound, k, count), time.perf_counter() - start, True)
