"""Particle update rules of the SVGD/RSVGD codes: plain GD and "AdaGrad with momentum".

Liu & Wang (2016), Sec. 5 (the SVGD code's ``svgd.py``) and Liu & Zhu (2018), Sec. 5 / notes
Sec. 2.1. Each optimizer is a pair of pure functions with a NamedTuple state, so a step can run
inside ``jax.lax.scan``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import jax.numpy as jnp

__all__ = [
    "AdagradMomentumState", "GDState", "OPTIMIZERS", "ParticleOptimizer", "adagrad_momentum",
    "build_optimizer", "gd",
]


class ParticleOptimizer(NamedTuple):
    """An update rule ``x <- x + step(phi)``.

    Attributes
    ----------
    name
        Registry name.
    init
        ``init(particles) -> state``.
    update
        ``update(state, particles, direction) -> (new_particles, new_state)``; ``direction``
        is the ascent direction ``phi`` (SVGD's or RSVGD's field at the particles).
    """

    name: str
    init: Callable[[jnp.ndarray], Any]
    update: Callable[[Any, jnp.ndarray, jnp.ndarray], tuple[jnp.ndarray, Any]]


class GDState(NamedTuple):
    """``step``: number of updates done."""

    step: jnp.ndarray


class AdagradMomentumState(NamedTuple):
    """``historical_grad``: the EMA ``H`` of ``phi^2`` (N, m); ``step``: updates done."""

    historical_grad: jnp.ndarray
    step: jnp.ndarray


def _check_positive(name: str, key: str, value: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"optimizer {name!r}: {key} must be a finite number > 0, got {value!r}")
    return number


def gd(step_size: float) -> ParticleOptimizer:
    """Vanilla gradient steps ``x <- x + eps * phi`` (Liu & Zhu 2018, Sec. 5: RSVGD's
    "first-order flow approximation", ``x(t + eps) = x(t) + eps X(x(t))``)."""
    eps = _check_positive("gd", "step_size", step_size)

    def init(particles):
        return GDState(jnp.zeros((), dtype=jnp.int32))

    def update(state, particles, direction):
        return particles + eps * direction, GDState(state.step + 1)

    return ParticleOptimizer("gd", init, update)


def adagrad_momentum(step_size: float, alpha: float = 0.9, fudge_factor: float = 1e-6) -> ParticleOptimizer:
    """SVGD code's "AdaGrad with momentum" (RMSprop-like; notes Sec. 2.1).

    ``H_0 = phi_0^2``, ``H_t = alpha H_{t-1} + (1 - alpha) phi_t^2`` and
    ``x <- x + eps * phi_t / (fudge + sqrt(H_t))`` element-wise, with ``alpha = 0.9`` and
    ``fudge = 1e-6`` as in the code (Liu & Wang 2016 ``svgd.py``; Liu & Zhu 2018, Sec. 5).
    """
    eps = _check_positive("adagrad_momentum", "step_size", step_size)
    if not (isinstance(alpha, (int, float)) and 0.0 <= alpha < 1.0):
        raise ValueError(f"optimizer 'adagrad_momentum': alpha must be in [0, 1), got {alpha!r}")
    fudge = _check_positive("adagrad_momentum", "fudge_factor", fudge_factor)

    def init(particles):
        return AdagradMomentumState(jnp.zeros_like(particles), jnp.zeros((), dtype=jnp.int32))

    def update(state, particles, direction):
        sq = direction * direction
        hist = jnp.where(state.step == 0, sq, alpha * state.historical_grad + (1.0 - alpha) * sq)
        new = particles + eps * direction / (fudge + jnp.sqrt(hist))
        return new, AdagradMomentumState(hist, state.step + 1)

    return ParticleOptimizer("adagrad_momentum", init, update)


#: Optimizer builders by name.
OPTIMIZERS: dict[str, Callable[..., ParticleOptimizer]] = {"gd": gd, "adagrad_momentum": adagrad_momentum}


def build_optimizer(name: str, step_size: float, **options: Any) -> ParticleOptimizer:
    """The optimizer ``name`` (a key of :data:`OPTIMIZERS`) with ``step_size`` and options.

    Raises
    ------
    ValueError
        On an unknown name; the one-line message lists the known names.
    """
    if name not in OPTIMIZERS:
        raise ValueError(f"unknown particle optimizer {name!r}; known: {', '.join(sorted(OPTIMIZERS))}")
    return OPTIMIZERS[name](step_size, **options)
