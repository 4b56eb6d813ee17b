"""A ``lax.scan`` driver running SVGD or RSVGD particles for T iterations (Liu & Zhu 2018, Sec. 5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.svgd.particle_optimizers import ParticleOptimizer

__all__ = ["ParticleRun", "run_particles"]


class ParticleRun(NamedTuple):
    """What :func:`run_particles` produced.

    Attributes
    ----------
    particles
        Final particles, shape (N, m).
    records
        ``record_fn(particles)`` at each iteration of ``record_iterations``, stacked on a
        leading axis (a pytree when ``record_fn`` returns one).
    record_iterations
        Iterations recorded: ``0, record_every, ..., num_iterations`` (0 is the initial state).
    nonfinite_counts
        Particles with a non-finite coordinate at each recorded iteration, shape (R,).
    first_nonfinite_iteration
        The first iteration (1-based, after its update) with a non-finite particle, or -1.
        The kernel couples all particles, so after it the others follow soon; nothing is dropped.
    """

    particles: Any
    records: Any
    record_iterations: np.ndarray
    nonfinite_counts: Any
    first_nonfinite_iteration: Any

    @property
    def num_nonfinite(self) -> int:
        """Particles with a non-finite coordinate at the end."""
        return int(self.nonfinite_counts[-1])


def _count_nonfinite(particles):
    return jnp.sum(~jnp.all(jnp.isfinite(particles), axis=1)).astype(jnp.int32)


def run_particles(direction_fn: Callable[[jnp.ndarray], jnp.ndarray], optimizer: ParticleOptimizer,
                  initial_particles: jnp.ndarray, num_iterations: int, record_every: int,
                  record_fn: Callable[[jnp.ndarray], Any] | None = None) -> ParticleRun:
    """Run ``x <- optimizer(x, direction_fn(x))`` for ``num_iterations`` steps in ``lax.scan``.

    Liu & Wang (2016), Alg. 1 (SVGD) and Liu & Zhu (2018), Sec. 5 (RSVGD, first-order flow
    approximation ``x(t + eps) = x(t) + eps X(x(t))``). Deterministic: initialisation (from a
    key) is the caller's. Non-finite particles are counted (:class:`ParticleRun`), not dropped.

    Parameters
    ----------
    direction_fn
        ``particles (N, m) -> direction (N, m)``, e.g. :func:`~geobayes.svgd.svgd_field` or
        :func:`~geobayes.svgd.rsvgd_field`.
    optimizer
        A :class:`~geobayes.svgd.ParticleOptimizer` (``gd`` for RSVGD as in the paper).
    initial_particles
        Shape (N, m).
    num_iterations
        ``T >= 0``, a multiple of ``record_every``.
    record_every
        Record every this many iterations (``>= 1``).
    record_fn
        ``particles -> pytree`` recorded (e.g. test accuracy); the particles themselves when
        omitted.

    Raises
    ------
    ValueError
        One line, on bad ``num_iterations``/``record_every`` or particles that are not (N, m).
    """
    if isinstance(record_every, bool) or not isinstance(record_every, int) or record_every < 1:
        raise ValueError(f"run_particles: record_every must be an integer >= 1, got {record_every!r}")
    if (isinstance(num_iterations, bool) or not isinstance(num_iterations, int) or num_iterations < 0
            or num_iterations % record_every):
        raise ValueError(f"run_particles: num_iterations must be an integer >= 0 and a multiple of "
                         f"record_every={record_every}, got {num_iterations!r}")
    initial_particles = jnp.asarray(initial_particles)
    if initial_particles.ndim != 2:
        raise ValueError(f"run_particles: initial_particles must have shape (N, m), got {initial_particles.shape}")
    record_fn = (lambda x: x) if record_fn is None else record_fn
    num_records = num_iterations // record_every

    def step(carry, _):
        particles, state, iteration, first_bad = carry
        particles, state = optimizer.update(state, particles, direction_fn(particles))
        iteration = iteration + 1
        bad = _count_nonfinite(particles) > 0
        first_bad = jnp.where((first_bad < 0) & bad, iteration, first_bad)
        return (particles, state, iteration, first_bad), None

    def block(carry, _):
        carry, _ = jax.lax.scan(step, carry, None, length=record_every)
        return carry, (record_fn(carry[0]), _count_nonfinite(carry[0]))

    @jax.jit
    def run(x0):
        carry = (x0, optimizer.init(x0), jnp.zeros((), jnp.int32), -jnp.ones((), jnp.int32))
        first = (record_fn(x0), _count_nonfinite(x0))
        carry, (records, counts) = jax.lax.scan(block, carry, None, length=num_records)
        records = jax.tree.map(lambda a, b: jnp.concatenate([a[None], b]), first[0], records)
        counts = jnp.concatenate([first[1][None], counts])
        return carry[0], records, counts, carry[3]

    particles, records, counts, first_bad = run(initial_particles)
    return ParticleRun(particles, records, np.arange(num_records + 1) * record_every, counts, first_bad)
