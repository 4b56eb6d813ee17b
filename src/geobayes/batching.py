"""Sample schedules of the batched solvers: chunked ``vmap`` and difficulty-sorted chunks.

Every batched method solves one independent problem per sample (a geodesic IVP, a shooting
boundary value problem, a least-squares inversion). Under ``jax.vmap`` an adaptive solve's
``while_loop`` runs until the *slowest* member of the batch is done, and every live sample
keeps the intermediates of one step in memory. A :class:`Schedule` says how the ``n`` samples
are grouped:

* ``chunk_size``: solve them in consecutive chunks of that many (``jax.lax.map`` over chunks of
  a ``vmap``), so that memory is bounded by one chunk and each chunk stops at its own slowest
  sample rather than the whole batch's;
* ``sort_by_difficulty``: before chunking, order the samples by a cheap difficulty predictor
  supplied by the caller (for geodesics the length ``|v|_G`` of the initial velocity under the
  metric at the base point), so that hard samples share chunks, then restore the original
  order. Each sample's solve does not depend on the others', so the draws, result codes and
  step counts are bitwise those of the unsorted chunks, in the same order (tested).

Different chunk sizes compile ``vmap`` kernels of different widths, whose floating-point
reductions may associate differently: the draws agree to ~1e-13 where the solves are short
(tested on Ripley), but on ill-conditioned posteriors whose solves take thousands of adaptive
steps (raw-input Heart) the round-off can flip a step-size decision and the draws then differ
at the level of the ODE tolerance (measured in ``benchmarks/bench_lockstep.py``). The chunk size
is therefore part of the config that fixes the numbers; sorting is not.

Why ``lax.map`` over ``vmap``-ed chunks rather than a Python loop over jitted chunks: it stays
one compiled program, so it works inside the methods' ``eqx.filter_jit``-ed ``sample`` and on
any device without host round trips. The last chunk is padded to full width with copies of its
own last sample, whose outputs are dropped: a copy takes exactly the steps of its original, so
the chunk's lock-step length and every real sample's result are unchanged, and every sample goes
through the one kernel of width ``chunk_size`` (one compile; with a separate remainder ``vmap``
a sample's round-off would depend on whether the sort moved it into the remainder).
"""

from __future__ import annotations

from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


def _none_if_zero(chunk_size):
    """The config's ``0`` (all samples at once) as ``None``."""
    zero = isinstance(chunk_size, int) and not isinstance(chunk_size, bool) and chunk_size == 0
    return None if zero else chunk_size


class Schedule(eqx.Module):
    """How a batch of independent per-sample solves is grouped (config ``approximation.schedule``,
    read by :func:`geobayes.settings.from_mapping`).

    Parameters
    ----------
    chunk_size
        Samples solved together under ``vmap``; ``None`` (or ``0``, as the config writes it) =
        all at once.
    sort_by_difficulty
        Order the samples by the caller's difficulty predictor before chunking (no effect
        without a ``chunk_size`` smaller than the batch, or where the caller has no predictor).
    refill
        Geodesic exponential maps only: ``chunk_size`` lanes step together and a lane whose
        solve ends takes the next sample (:mod:`geobayes.geometry.refilled_lanes`), instead of
        a chunk waiting for its slowest sample; with ``sort_by_difficulty`` the longest
        geodesics enter first. The other batched solves chunk as without it.
    """

    chunk_size: int | None = eqx.field(default=None, static=True, converter=_none_if_zero)
    sort_by_difficulty: bool = eqx.field(default=False, static=True)
    refill: bool = eqx.field(default=False, static=True)

    def __check_init__(self):
        if self.chunk_size is not None and (
            isinstance(self.chunk_size, bool) or not isinstance(self.chunk_size, int) or self.chunk_size < 1
        ):
            raise ValueError(
                "approximation.schedule.chunk_size: expected null, 0 or a positive integer, "
                f"got {self.chunk_size!r}"
            )
        for name in ("sort_by_difficulty", "refill"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"approximation.schedule.{name}: expected true or false, got {getattr(self, name)!r}")

    def chunk_for(self, n: int) -> int | None:
        """The chunk size to use for ``n`` samples: ``None`` where one batch holds them all."""
        return None if self.chunk_size is None or self.chunk_size >= n else self.chunk_size


def map_in_chunks(fn: Callable, xs, chunk_size: int | None):
    """``jax.vmap(fn)(xs)``, evaluated ``chunk_size`` samples at a time.

    Parameters
    ----------
    fn
        Per-sample function of one slice of ``xs`` (a pytree whose leaves share the leading
        axis ``n``), returning a pytree.
    xs
        The per-sample inputs.
    chunk_size
        ``None`` = one ``vmap`` over all samples; else a ``jax.lax.map`` over chunks of that
        many, each a ``vmap``; the last chunk is padded with copies of the last sample, whose
        outputs are dropped.
    """
    n = jax.tree_util.tree_leaves(xs)[0].shape[0]
    if chunk_size is None or chunk_size >= n:
        return jax.vmap(fn)(xs)
    chunks = -(-n // chunk_size)
    pad = chunks * chunk_size - n

    def split(x):
        if pad:
            x = jnp.concatenate([x, jnp.repeat(x[-1:], pad, axis=0)])
        return x.reshape(chunks, chunk_size, *x.shape[1:])

    out = jax.lax.map(jax.vmap(fn), jax.tree_util.tree_map(split, xs))
    return jax.tree_util.tree_map(lambda y: y.reshape(chunks * chunk_size, *y.shape[2:])[:n], out)


def scheduled_map(fn: Callable, xs, schedule: Schedule, difficulty: Callable | None = None):
    """``jax.vmap(fn)(xs)`` under ``schedule``; the outputs are in the order of ``xs``.

    Parameters
    ----------
    fn
        Per-sample function (see :func:`map_in_chunks`).
    xs
        Per-sample inputs (pytree, leading axis ``n``).
    schedule
        Chunk size and whether to sort.
    difficulty
        ``xs -> (n,)`` predictor of each sample's cost (larger = harder); used only when the
        schedule sorts and chunks. Samples are chunked in stable ascending order of it and the
        outputs put back in the original order.
    """
    n = jax.tree_util.tree_leaves(xs)[0].shape[0]
    chunk = schedule.chunk_for(n)
    if chunk is None or not schedule.sort_by_difficulty or difficulty is None:
        return map_in_chunks(fn, xs, chunk)
    order = jnp.argsort(difficulty(xs), stable=True)
    sorted_out = map_in_chunks(fn, jax.tree_util.tree_map(lambda x: x[order], xs), chunk)
    inverse = jnp.argsort(order)
    return jax.tree_util.tree_map(lambda y: y[inverse], sorted_out)


def lockstep_waste(num_steps, chunk_size: int | None = None, order=None) -> float:
    """Fraction of lock-step solver work spent on samples that were already done.

    ``1 - sum(num_steps) / sum_c(chunk_size * max_{i in c} num_steps_i)`` over the chunks ``c``
    of ``chunk_size`` consecutive samples (in ``order`` if given, e.g. the difficulty order), the
    last one padded to full width as :func:`map_in_chunks` does; one chunk of all samples when
    ``chunk_size`` is None. 0 = no waste; a plain ``vmap`` batch whose slowest sample needs
    ``k`` times the mean steps wastes ``1 - 1/k``.
    """
    steps = np.asarray(num_steps, dtype=float)
    if order is not None:
        steps = steps[np.asarray(order)]
    size = steps.size if chunk_size is None else min(int(chunk_size), steps.size)
    work = sum(size * chunk.max() for chunk in (steps[i:i + size] for i in range(0, steps.size, size)))
    return float(1.0 - steps.sum() / work) if work > 0 else 0.0


def refill_waste(num_steps, lanes: int, order=None) -> float:
    """Fraction of lane-steps idle when ``lanes`` lanes step together and each lane takes the
    next sample (in ``order`` if given) as soon as its solve ends (``Schedule.refill``).

    ``1 - sum(num_steps) / (lanes * iterations)``, where ``iterations`` is the loop's length: a
    sample of ``k`` steps holds its lane for ``k`` iterations, and a lane is refilled in the
    iteration its solve ends (:func:`geobayes.geometry.refilled_lanes.refilled_solves`). Only the
    last round idles: the waste is at most ``(lanes - 1) max(num_steps) / (lanes * iterations)``.
    """
    steps = np.asarray(num_steps, dtype=np.int64)
    if order is not None:
        steps = steps[np.asarray(order)]
    lanes = max(1, min(int(lanes), steps.size))
    free = np.zeros(lanes, dtype=np.int64)  # the iteration after which each lane is free
    for k in steps:
        lane = int(np.argmin(free))
        free[lane] += max(int(k), 1)
    iterations = int(free.max())
    return float(1.0 - steps.sum() / (lanes * iterations)) if iterations > 0 else 0.0
