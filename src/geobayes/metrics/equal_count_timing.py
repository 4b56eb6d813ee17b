"""Seconds per sample of approximations and of NUTS at one sample count, in one process.

Hartmann et al. (2026) claim the closed-form wrapped Gaussian is "orders of magnitude faster"
than ODE-based wrapped Gaussians (Riemannian Laplace) but time it only against NUTS, on
unstated hardware (notes Sec. 4, claim 1). :func:`time_approximation` and :func:`time_nuts`
measure all of them on the same posterior, machine and process, drawing the same number of
samples, so the ratios are free of the hardware.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import jax
import numpy as np

from geobayes.metrics.compiled_sampler import ready_sampler
from geobayes.samplers.nuts import NutsConfig, run_nuts
from geobayes.whitened_target import whitened

__all__ = ["time_approximation", "time_nuts"]


def _timed(fn):
    start = time.perf_counter()
    out = jax.block_until_ready(fn())
    return time.perf_counter() - start, out


def time_approximation(fit, posterior, mode, config, key: jax.Array, n: int, repeats: int) -> dict[str, Any]:
    """Fit one method and time drawing ``n`` samples in one batched call.

    Parameters
    ----------
    fit
        The method's ``fit`` function (``geobayes.methods.<name>.fit``).
    posterior, mode, config, key
        As for ``fit`` (``config`` the method's typed ``Config``); the same key draws the samples.
    n
        Samples per call.
    repeats
        Timed calls of the program compiled ahead of time (no untimed run:
        :func:`~geobayes.metrics.compiled_sampler.ready_sampler`); the median is reported.

    Returns
    -------
    dict
        ``fit_s``, ``compile_s`` (tracing and compilation; for a sampler that cannot be
        lowered, its first call), ``compiled_ahead``, ``sample_s``
        (median call), ``per_sample_s`` (= ``sample_s / n``), ``n_failed`` (last call) and,
        where the draws carry a fallback flag (the wrapped Gaussian), ``n_fallback``: the samples
        the fallback solver solved again.
    """
    if n < 1 or repeats < 1:
        raise ValueError(f"need n >= 1 and repeats >= 1, got n={n}, repeats={repeats}")
    fit_s, fitted = _timed(lambda: fit(posterior, config, key, mode=mode))
    ready = ready_sampler(fitted.approximation.sample, key, n)
    calls = []
    for _ in range(repeats):
        seconds, draws = _timed(lambda: ready.sample(key, n))
        calls.append(seconds)
    sample_s = statistics.median(calls)
    fallback = {} if draws.fallback is None else {"n_fallback": int(np.sum(np.asarray(draws.fallback)))}
    return {"fit_s": fit_s, "compile_s": ready.compile_s, "compiled_ahead": ready.compiled_ahead, "sample_s": sample_s,
            "per_sample_s": sample_s / n, "n_failed": int(np.sum(~np.asarray(draws.successful))), **fallback,
            "repeats": repeats}


def time_nuts(posterior, start, key: jax.Array, *, warmup: int, samples: int, target_accept: float,
              max_tree_depth: int, dense_mass: bool) -> dict[str, Any]:
    """Time one NUTS chain of ``warmup`` + ``samples`` iterations (compilation included, as a
    user running NUTS for this many draws pays it), in whitened coordinates where the target
    asks for them (latent GPs), exactly as the reference is computed.

    Returns
    -------
    dict
        ``seconds``, ``per_sample_s`` (= ``seconds / samples``), ``warmup``, ``samples``,
        ``divergences``.
    """
    white = whitened(posterior)
    config = NutsConfig(chains=1, warmup=int(warmup), samples=int(samples), thin=1,
                        target_accept=float(target_accept), max_tree_depth=int(max_tree_depth),
                        dense_mass=bool(dense_mass))
    target = posterior if white is None else white
    init = start if white is None else white.to_z(start)
    seconds, reference = _timed(lambda: run_nuts(target, config, key, init))
    return {"seconds": seconds, "per_sample_s": seconds / samples, "warmup": int(warmup), "samples": int(samples),
            "divergences": int(reference.diagnostics["divergences"])}
