"""How hard XLA optimises the programs of a job: ``optimised`` (XLA's default) or ``fast``.

Most of a small job's time is XLA compiling its programs, not running them: drawing 500 samples
of RLA-B on the 5-D Gaussian compiles for 2.8 s and runs for 0.06 s. ``fast`` compiles with
LLVM's optimisation level 0 and without its expensive passes (JAX's
``jax_disable_most_optimizations``) and with XLA's older CPU fusion code generator
(``--xla_cpu_use_fusion_emitters=false``). Measured on one CPU (``benchmarks/bench_compile_effort.py``,
jobs of a quick run): that RLA-B compiled in 0.8 s, Neal's funnel's RLA-F in 0.9 instead of
3.0 s, WG on the squiggle in 1.4 instead of 3.5 s; but the programs run slower, up to about three
times on long solves (RLA-B on raw Heart: 11.0 s of draws became 33.9 s). So ``fast`` is for jobs
whose programs are cheap to run, chosen per experiment, rule and method (config key
``fast_compile``). The draws differ from ``optimised`` ones at round-off (other machine code), and
are the same from run to run at either effort. JAX's persistent compilation cache keys both
settings (the compile options and ``XLA_FLAGS``), so the two kinds of program never mix.
"""

from __future__ import annotations

import os

import jax

#: The efforts a job may ask for.
EFFORTS = ("optimised", "fast")
#: XLA flags ``fast`` adds to the process's ``XLA_FLAGS`` (read when the first backend starts).
FAST_XLA_FLAGS = ("--xla_cpu_use_fusion_emitters=false",)


def use_compile_effort(effort: str) -> str:
    """Make the programs this process compiles from now on ``optimised`` or ``fast`` ones.

    Must be called before the first JAX computation of the process (before
    :func:`geobayes.pipeline.device.use_device`): XLA reads its flags when its backend starts.
    ``optimised`` changes nothing.

    Parameters
    ----------
    effort
        ``optimised`` or ``fast`` (config key ``fast_compile`` chooses it per experiment, rule
        and method).

    Returns
    -------
    str
        ``effort``, for the job's record.

    Raises
    ------
    ValueError
        If ``effort`` is not one of :data:`EFFORTS`.
    RuntimeError
        If ``fast`` is asked for after a JAX backend has started.
    """
    if effort not in EFFORTS:
        raise ValueError(f"compile effort {effort!r} is not one of {', '.join(EFFORTS)}")
    if effort == "optimised":
        return effort
    from jax._src import xla_bridge

    if xla_bridge.backends_are_initialized():
        raise RuntimeError("compile effort 'fast' must be chosen before the process's first JAX computation "
                           "(XLA has read its flags already)")
    jax.config.update("jax_disable_most_optimizations", True)
    flags = os.environ.get("XLA_FLAGS", "").split()
    os.environ["XLA_FLAGS"] = " ".join([*flags, *(flag for flag in FAST_XLA_FLAGS if flag not in flags)])
    return effort
