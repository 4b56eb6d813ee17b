"""Seconds per sample of approximations and of NUTS at one sample count, in one process.

Hartmann et al. (2026) claim the closed-form wrapped Gaussian is "orders of magnitude faster"
than ODE-based wrapped Gaussians (Riemannian Laplace) but time it only against NUTS, on
unstated hardware (notes Sec. 4, claim 1). :func:`time_approximations` and :func:`time_nuts`
measure all of them on the same posterior, machine and process, drawing the same number of
samples, so the ratios are free of the hardware; the approximations' calls are interleaved, so
that the machine's load and the order of the calls fall on every method alike.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import jax
import numpy as np

from geobayes.metrics.compiled_sampler import ready_sampler
from geobayes.samplers.nuts import NutsConfig, run_nuts
from geobayes.whitened_target import whitened

__all__ = ["InterleavedTimings", "time_approximations", "time_nuts"]


def _timed(fn):
    start = time.perf_counter()
    out = jax.block_until_ready(fn())
    return time.perf_counter() - start, out


class InterleavedTimings(NamedTuple):
    """What :func:`time_approximations` measured.

    Attributes
    ----------
    records : dict
        Label -> the method's timing record (see :func:`time_approximations`).
    draws : dict
        Label -> the draws of the method's last timed call.
    """

    records: dict[str, dict[str, Any]]
    draws: dict[str, Any]


def time_approximations(fits: Mapping[str, Callable[[], Any]], key: jax.Array, n: int,
                        repeats: int) -> InterleavedTimings:
    """Fit and compile every method, then time their batched calls interleaved.

    Each method is fitted (``fits[label]()``, timed) and its sampler compiled ahead of time
    (:func:`~geobayes.metrics.compiled_sampler.ready_sampler`). Then come ``repeats`` rounds of
    one call of ``sample(key, n)`` per method, round-robin, the order rotated by one each round.
    A burst of load on a shared machine thus hits every method alike, and no method always runs
    first after compilation or right after the longest call (timed in per-method blocks on this
    machine kind, whichever method ran first was 1.2-2.6x slower: ``benchmarks/README.md``,
    ``bench_wg_sampling.py``).

    Parameters
    ----------
    fits
        Label -> zero-argument function returning the method's fit (a
        :class:`~geobayes.methods.base.FitResult`), e.g. ``lambda: fit(posterior, config, key,
        mode=mode)``.
    key
        The key every timed call draws with (the same draws each round).
    n
        Samples per call.
    repeats
        Timed calls per method.

    Returns
    -------
    InterleavedTimings
        Per label a record: ``fit_s``, ``compile_s`` (tracing and compilation; for a sampler that
        cannot be lowered, its first call), ``compiled_ahead``, ``calls_s`` (every timed call,
        in round order), ``sample_s`` (median call), ``min_sample_s`` (fastest call),
        ``per_sample_s`` (= ``sample_s / n``), ``min_per_sample_s``, ``n_failed`` (last call),
        ``repeats`` and, where the draws carry a fallback flag (the wrapped Gaussian),
        ``n_fallback``: the samples the fallback solver solved again. Beside them, each
        method's last draws.
    """
    if n < 1 or repeats < 1:
        raise ValueError(f"need n >= 1 and repeats >= 1, got n={n}, repeats={repeats}")
    if not fits:
        raise ValueError("time_approximations: no method to time (fits is empty)")
    ready, records, draws = {}, {}, {}
    for label, fit in fits.items():
        fit_s, fitted = _timed(fit)
        ready[label] = ready_sampler(fitted.approximation.sample, key, n)
        records[label] = {"fit_s": fit_s, "compile_s": ready[label].compile_s,
                          "compiled_ahead": ready[label].compiled_ahead, "calls_s": []}
    labels = list(ready)
    for round_ in range(repeats):
        shift = round_ % len(labels)
        for label in labels[shift:] + labels[:shift]:
            seconds, draws[label] = _timed(lambda: ready[label].sample(key, n))
            records[label]["calls_s"].append(seconds)
    for label, record in records.items():
        out = draws[label]
        record.update(sample_s=statistics.median(record["calls_s"]), min_sample_s=min(record["calls_s"]),
                      n_failed=int(np.sum(~np.asarray(out.successful))), repeats=repeats)
        record.update(per_sample_s=record["sample_s"] / n, min_per_sample_s=record["min_sample_s"] / n)
        if out.fallback is not None:
            record["n_fallback"] = int(np.sum(np.asarray(out.fallback)))
    return InterleavedTimings(records, draws)


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
