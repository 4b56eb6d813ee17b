"""Batched geodesic solves whose finished lanes take the next sample (no lock-step waste).

Under ``vmap`` an adaptive ``diffeqsolve`` runs until the slowest sample of its batch is done:
the finished samples idle (measured waste 0.54-0.62 of the lane-steps on raw-input Pima and
Heart with one batch, 0.37-0.41 with difficulty-sorted chunks; ``benchmarks/bench_lockstep.py``).
Here the batch is a set of ``lanes`` that step together, one Diffrax solver step per
iteration: when a lane's solve ends (it reached ``t = 1``, failed, or hit ``max_steps``) its
end point, result code and step count are written out and the lane starts the next sample. The
loop ends when every sample is done, so a lane idles only in the last round.

Each lane follows Diffrax's own loop (``diffrax._integrate``, version 0.7.2): the solver's
``step``, the PID controller's ``adapt_step_size``, the clip of the next time to ``t1``, the
kept or rejected state, and the first step from the controller's ``init`` on the wrapped term,
so a sample takes the steps and ends at the point of its solve by ``diffeqsolve`` (to rounding:
a kernel of another width may round differently; tested against one ``vmap`` of all samples).
"""

from __future__ import annotations

from typing import NamedTuple

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from diffrax._term import WrapTerm


_SUCCESSFUL = diffrax.RESULTS.successful._value
_MAX_STEPS_REACHED = diffrax.RESULTS.max_steps_reached._value


def _where_lanes(mask: jax.Array, new, old):
    """Per lane, ``new`` where ``mask`` (shape (lanes,)) holds, else ``old`` (pytrees of lane arrays)."""
    return jax.tree_util.tree_map(lambda a, b: jnp.where(mask.reshape(mask.shape + (1,) * (b.ndim - 1)), a, b),
                                  new, old)


class _Lane(NamedTuple):
    """One lane's solve in progress (every field has the lanes' leading axis)."""

    sample: jax.Array  # index of the sample it solves; -1 when idle
    tprev: jax.Array
    tnext: jax.Array
    y: tuple
    solver_state: object
    controller_state: object
    made_jump: jax.Array
    num_steps: jax.Array
    result: jax.Array


class _Problem(eqx.Module):
    """The geodesic IVP's pieces as ``diffeqsolve`` sets them up, shared by every lane."""

    term: WrapTerm
    solver: diffrax.AbstractAdaptiveSolver
    controller: diffrax.PIDController
    args: tuple
    base_point: jax.Array
    initial_step: float | None = eqx.field(static=True)
    t1_clip_floor: float = eqx.field(static=True)

    def start(self, sample, velocity):
        """A lane at ``t = 0`` on ``(base_point, velocity)`` (``diffeqsolve``'s initialisation)."""
        t0, t1 = jnp.asarray(0.0), jnp.asarray(1.0)
        y0 = (self.base_point, velocity)
        error_order = self.solver.error_order(self.term)
        tnext, controller_state = self.controller.init(self.term, t0, t1, y0, self.initial_step, self.args,
                                                       self.solver.func, error_order)
        tnext = jnp.minimum(tnext, t1)
        solver_state = self.solver.init(self.term, t0, tnext, y0, self.args)
        return _Lane(sample, t0, tnext, y0, solver_state, controller_state, jnp.asarray(False),
                     jnp.asarray(0), jnp.asarray(_SUCCESSFUL))

    def step(self, lane: _Lane) -> _Lane:
        """One step of Diffrax's loop body (``diffrax._integrate``) for one lane."""
        y, y_error, _, solver_state, solver_result = self.solver.step(
            self.term, lane.tprev, lane.tnext, lane.y, self.args, lane.solver_state, lane.made_jump)
        y_error = jax.tree_util.tree_map(lambda x: jnp.where(jnp.isnan(x), jnp.inf, x), y_error)
        keep_step, tprev, tnext, made_jump, controller_state, controller_result = self.controller.adapt_step_size(
            lane.tprev, lane.tnext, lane.y, y, self.args, y_error, self.solver.error_order(self.term),
            lane.controller_state)
        t1 = 1.0
        tprev = jnp.minimum(tprev, t1)
        clip = tnext > self.t1_clip_floor
        tnext = jnp.where(clip, jnp.where(keep_step, t1, tprev + 0.5 * (t1 - tprev)), tnext)
        keep = lambda a, b: jnp.where(keep_step, a, b)  # noqa: E731
        y = jax.tree_util.tree_map(keep, y, lane.y)
        solver_state = jax.tree_util.tree_map(keep, solver_state, lane.solver_state)
        made_jump = jnp.where(keep_step, made_jump, lane.made_jump)
        solver_result = jnp.where(keep_step, solver_result._value, _SUCCESSFUL)
        result = jnp.where(lane.result == _SUCCESSFUL, solver_result, lane.result)
        result = jnp.where(result == _SUCCESSFUL, controller_result._value, result)
        return _Lane(lane.sample, tprev, tnext, y, solver_state, controller_state, made_jump,
                     lane.num_steps + 1, result)


def refilled_solves(vector_field, solver: diffrax.AbstractAdaptiveSolver, ode, args, base_point: jax.Array,
                    velocities: jax.Array, lanes: int, order: jax.Array | None = None):
    """The IVPs ``d/dt (theta, v) = vector_field(t, (theta, v), args)`` from ``(base_point, v)``
    over ``[0, 1]``, one for every row ``v`` of ``velocities``, ``lanes`` at a time, each lane
    taking the next sample as soon as its solve ends (used by
    :func:`~geobayes.geometry.exponential_map.exponential_map` with ``schedule.refill``).

    Parameters
    ----------
    vector_field, solver, args
        Diffrax's vector field (``t, y, args -> dy``), adaptive solver and ``args``.
    ode
        :class:`~geobayes.geometry.exponential_map.OdeSettings`: the PID controller's
        tolerances, ``max_steps`` and ``initial_step``.
    base_point, velocities
        Shapes (D,) and (n, D).
    lanes
        Solves stepped together under ``vmap`` (at most the number of samples).
    order
        The order in which samples enter the lanes (a permutation of ``range(n)``; default
        ``0, 1, ...``): longest first shortens the last round. The outputs are in the order of
        ``velocities`` whatever it is.

    Returns
    -------
    tuple
        ``theta(1)`` (n, D), success flags (result 0 and a finite end point), Diffrax result
        codes (``max_steps_reached`` for a solve capped at ``ode.max_steps``), steps
        (accepted + rejected) and ``v(1)`` (n, D), as ``diffeqsolve`` reports them for each sample.
    """
    n, dim = velocities.shape
    lanes = max(1, min(int(lanes), n))
    order = jnp.arange(n) if order is None else jnp.asarray(order)
    time_dtype = np.dtype(jnp.result_type(float))  # float64, or float32 under approximation.dtype float32
    floor = time_dtype.type(1.0)
    for _ in range(100):  # Diffrax's t1 - 100 ULPs, the threshold at which tnext is rounded to t1
        floor = np.nextafter(floor, time_dtype.type(-np.inf))
    problem = _Problem(WrapTerm(diffrax.ODETerm(vector_field), jnp.asarray(1)), solver,
                       diffrax.PIDController(rtol=ode.rtol, atol=ode.atol).wrap(1), args,
                       jnp.asarray(base_point), ode.initial_step, float(floor))
    start = jax.vmap(problem.start)
    step = jax.vmap(problem.step)

    def done(lane):
        return (lane.sample >= 0) & ((lane.tprev >= 1.0) | (lane.result != _SUCCESSFUL)
                                     | (lane.num_steps >= ode.max_steps))

    def write_and_refill(carry):
        lane, queued, out = carry
        finished = done(lane)
        code = jnp.where((lane.result == _SUCCESSFUL) & (lane.tprev < 1.0), _MAX_STEPS_REACHED, lane.result)
        target = jnp.where(finished, lane.sample, n)  # row n is a discard row
        points, codes, steps, ends = out
        out = (points.at[target].set(lane.y[0]), codes.at[target].set(code), steps.at[target].set(lane.num_steps),
               ends.at[target].set(lane.y[1]))
        # the k-th finished lane takes the (queued + k)-th sample of the order, if any is left
        rank = jnp.cumsum(finished) - 1
        position = queued + rank
        has_next = finished & (position < n)
        sample = jnp.where(has_next, order[jnp.minimum(position, n - 1)], -1)
        fresh = start(sample, velocities[jnp.maximum(sample, 0)])
        lane = _where_lanes(finished, fresh, lane)
        return lane, queued + jnp.sum(finished), out

    def running(carry):
        lane, _, _ = carry
        return jnp.any(lane.sample >= 0)

    def iteration(carry):
        lane, queued, out = carry
        active = lane.sample >= 0
        stepped = step(lane)
        lane = _where_lanes(active, stepped, lane)
        return jax.lax.cond(jnp.any(done(lane)), write_and_refill, lambda c: c, (lane, queued, out))

    lane = start(order[:lanes], velocities[order[:lanes]])
    out = (jnp.zeros((n + 1, dim), velocities.dtype), jnp.zeros(n + 1, jnp.int32), jnp.zeros(n + 1, jnp.int32),
           jnp.zeros((n + 1, dim), velocities.dtype))
    lane, _, out = jax.lax.while_loop(running, iteration, (lane, jnp.asarray(lanes), out))
    points, codes, steps, ends = (x[:n] for x in out)
    successful = (codes == _SUCCESSFUL) & jnp.all(jnp.isfinite(points), axis=1)
    return points, successful, codes, steps, ends
