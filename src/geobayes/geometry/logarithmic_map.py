"""Batched logarithmic maps: the geodesic boundary value problem solved by shooting."""

from __future__ import annotations

from typing import NamedTuple

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import optimistix as optx

from geobayes.geometry.exponential_map import solve_geodesic
from geobayes.geometry.geodesic_jacobian import exponential_map_jacobian
from geobayes.geometry.log_map_settings import (  # noqa: F401 - re-exported: the settings' historical home
    CORRECTORS,
    FALLBACKS,
    NEWTON_STAGE_MAX_STEPS,
    SHOT_ODE,
    LogMapSettings,
)
from geobayes.geometry.metric import Metric

_SUCCESS = optx.RESULTS.successful._value
_MAX_STEPS_REACHED = optx.RESULTS.nonlinear_max_steps_reached._value
_DIVERGED = optx.RESULTS.nonlinear_divergence._value
_NONFINITE = optx.RESULTS.nonfinite._value

class LogMapResult(NamedTuple):
    """Initial velocities ``Log_base(target)`` of a batch of targets, with per-target outcome.

    Attributes
    ----------
    velocities
        Initial velocities, shape (n, D). Where the solve failed this is the last accepted
        continuation iterate: mask it with ``successful``.
    successful
        True where the continuation reached the target with a finite velocity whose endpoint
        residual is below ``atol`` (max norm), shape (n,); then ``result_code`` is 0.
    result_code
        Optimistix result code (``optimistix.RESULTS``), shape (n,): 0 = success;
        7 (``nonlinear_max_steps_reached``) = the Newton budget was spent, or the last
        stage ran out of iterations when the step could shrink no further; 6 or 9 = non-finite
        values in the last stage (as when a shot failed); 8 (``nonlinear_divergence``) = the
        step fell below ``min_stage`` after stages that converged off the branch, or the final
        residual check failed.
    num_steps
        Corrector iterations over all continuation stages, rejected ones included, shape (n,).
    residual
        ``|Exp_base(v) - target|_2`` at the returned velocity, shape (n,); NaN where that
        shot failed.
    fallback
        True where the chord corrector left the target unsolved and Newton's solved it again
        (``LogMapSettings.fallback``; then ``num_steps`` sums both), shape (n,).
    """

    velocities: jax.Array
    successful: jax.Array
    result_code: jax.Array
    num_steps: jax.Array
    residual: jax.Array
    fallback: jax.Array


def _shot_residual(velocity, args):
    """``F(v) = Exp_base(v) - target``: one geodesic IVP (its Jacobian: :func:`_shot_jacobian`).

    NaN where the shot itself failed, so that Newton stops with a non-finite result instead
    of chasing an endpoint the solver never reached.
    """
    metric, posterior, base_point, target, ode = args
    # ForwardMode: a plain while_loop (the shot is never differentiated in reverse mode).
    solution = solve_geodesic(metric, posterior, base_point, velocity, ode, adjoint=diffrax.ForwardMode())
    shot_ok = solution.result == diffrax.RESULTS.successful
    return jnp.where(shot_ok, solution.ys[0][-1] - target, jnp.nan)


def _shot_jacobian(velocity, args):
    """``dF/dv = d Exp_base(v) / d v`` by the geodesic's variational equations along the shot's
    own steps (:func:`~geobayes.geometry.geodesic_jacobian.exponential_map_jacobian`); NaN where
    that solve failed."""
    metric, posterior, base_point, _, ode = args
    return exponential_map_jacobian(metric, posterior, base_point, velocity, ode)[0]


class _Continuation(NamedTuple):
    """State of the continuation from ``base`` (s = 0) to ``target`` (s = 1)."""

    s: jax.Array  # last stage reached
    velocity: jax.Array  # Log_base(base + s (target - base))
    tangent: jax.Array  # d velocity / d s at s
    jacobian_lu: tuple  # LU factors of the shot's Jacobian at velocity (the chord's matrix)
    step: jax.Array  # next stage length
    num_steps: jax.Array  # corrector iterations so far
    code: jax.Array  # result code, meaningful once done
    done: jax.Array


class _Corrected(NamedTuple):
    """Outcome of one stage's corrector."""

    velocity: jax.Array
    code: jax.Array  # Optimistix result code
    num_steps: jax.Array


def _correct(predicted, jacobian_lu, args, settings: LogMapSettings, max_steps, newton) -> _Corrected:
    """Newton-type iteration ``v <- v - J^{-1} F(v)`` from ``predicted``.

    With ``newton`` False this is the chord method: ``J`` (as its LU factors) stays the shot's
    Jacobian at the last accepted velocity of the continuation. With ``newton`` True, ``J`` is
    formed anew at every iterate (Newton's method). ``newton`` and ``max_steps`` are traced, so
    both correctors are one compiled loop. Stops once ``|F(v)|_max < atol`` and the last step
    is below ``atol + rtol |v|`` componentwise, on non-finite values, or after ``max_steps``
    iterations.
    """

    def iterate(state):
        velocity, lu, count, _, _ = state
        lu = jax.lax.cond(
            newton, lambda v: jsl.lu_factor(_shot_jacobian(v, args)), lambda v: lu, velocity
        )
        residual = _shot_residual(velocity, args)
        update = jsl.lu_solve(lu, residual)
        velocity = velocity - update
        converged = (jnp.max(jnp.abs(residual)) < settings.atol) & jnp.all(
            jnp.abs(update) <= settings.atol + settings.rtol * jnp.abs(velocity)
        )
        return velocity, lu, count + 1, converged, ~jnp.all(jnp.isfinite(velocity))

    def running(state):
        *_, count, converged, nonfinite = state
        return (count < max_steps) & ~converged & ~nonfinite

    start = (predicted, jacobian_lu, jnp.asarray(0), jnp.asarray(False), jnp.asarray(False))
    velocity, _, count, converged, nonfinite = jax.lax.while_loop(running, iterate, start)
    code = jnp.where(converged, _SUCCESS, jnp.where(nonfinite, _NONFINITE, _MAX_STEPS_REACHED))
    return _Corrected(velocity, code, count)


def _continuation(metric, posterior, base_point, target, settings: LogMapSettings, newton, stage_max_steps):
    """``Log_base(target)`` by shooting with continuation along the straight line to it, each
    stage corrected by Newton's method (``newton`` True) or the chord method in at most
    ``stage_max_steps`` iterations (both traced)."""
    offset = target - base_point
    stage_max_steps = jnp.minimum(stage_max_steps, settings.max_steps)

    def branch(velocity, args):
        """Tangent ``dv/ds = J(v)^{-1} offset`` and the LU factors of ``J = dExp(v)``."""
        jacobian_lu = jsl.lu_factor(_shot_jacobian(velocity, args))
        return jsl.lu_solve(jacobian_lu, offset), jacobian_lu

    def attempt(state: _Continuation) -> _Continuation:
        s_next = jnp.minimum(state.s + state.step, 1.0)
        predicted = state.velocity + (s_next - state.s) * state.tangent
        args = (metric, posterior, base_point, base_point + s_next * offset, settings.ode)
        corrected = _correct(predicted, state.jacobian_lu, args, settings, stage_max_steps, newton)
        converged = (corrected.code == _SUCCESS) & jnp.all(jnp.isfinite(corrected.velocity))
        # Stay on the branch through v = 0: the corrector must move less than the predictor.
        on_branch = jnp.linalg.norm(corrected.velocity - predicted) <= jnp.linalg.norm(
            predicted - state.velocity
        )
        accept = converged & on_branch
        reached = accept & (s_next >= 1.0)
        num_steps = state.num_steps + corrected.num_steps
        step = jnp.where(accept, jnp.minimum(2.0 * state.step, 1.0), 0.5 * state.step)
        exhausted = num_steps >= settings.max_steps
        underflow = step < settings.min_stage
        code = jnp.where(
            reached,
            _SUCCESS,
            jnp.where(
                corrected.code != _SUCCESS,
                corrected.code,
                jnp.where(exhausted, _MAX_STEPS_REACHED, _DIVERGED),
            ),
        )
        # A new Jacobian only where the continuation goes on from a new velocity.
        tangent, jacobian_lu = jax.lax.cond(
            accept & ~reached,
            branch,
            lambda velocity, args: (state.tangent, state.jacobian_lu),
            corrected.velocity,
            args,
        )
        return _Continuation(
            s=jnp.where(accept, s_next, state.s),
            velocity=jnp.where(accept, corrected.velocity, state.velocity),
            tangent=tangent,
            jacobian_lu=jacobian_lu,
            step=step,
            num_steps=num_steps,
            code=code,
            done=reached | exhausted | underflow,
        )

    start = _Continuation(
        s=jnp.asarray(0.0, offset.dtype),
        velocity=jnp.zeros_like(offset),
        # At s = 0 the metric's Jacobian of Exp is the identity: d v / d s = offset.
        tangent=offset,
        jacobian_lu=jsl.lu_factor(jnp.eye(offset.shape[0], dtype=offset.dtype)),
        step=jnp.asarray(settings.first_stage, offset.dtype),
        num_steps=jnp.asarray(0),
        code=jnp.asarray(_SUCCESS),
        done=jnp.asarray(False),
    )
    final = jax.lax.while_loop(lambda state: ~state.done, attempt, start)
    residual_vector = _shot_residual(
        final.velocity, (metric, posterior, base_point, target, settings.ode)
    )
    successful = (
        (final.code == _SUCCESS)
        & jnp.all(jnp.isfinite(final.velocity))
        & jnp.all(jnp.abs(residual_vector) < settings.atol)
    )
    code = jnp.where((final.code == _SUCCESS) & ~successful, _DIVERGED, final.code)
    return final.velocity, successful, code, final.num_steps, jnp.linalg.norm(residual_vector)


def _log_one(metric, posterior, base_point, target, settings: LogMapSettings):
    """``Log_base(target)``: the continuation with ``settings.corrector``, and with the chord
    corrector and a Newton fallback, again with Newton's where the chord's failed.

    The passes run in one ``while_loop`` over a traced corrector flag, so the continuation is
    compiled once for both correctors (a second traced copy doubled RLA-BLog's compilation).
    """
    passes = 2 if settings.has_fallback else 1
    first_newton = settings.corrector == "newton"

    def solve_pass(state):
        index, _, _, _, steps, _ = state
        fallback = index > 0
        newton = jnp.asarray(first_newton) | fallback
        stage_max_steps = jnp.where(fallback, NEWTON_STAGE_MAX_STEPS, settings.stage_max_steps)
        velocity, successful, code, num_steps, residual = _continuation(
            metric, posterior, base_point, target, settings, newton, stage_max_steps
        )
        return index + 1, velocity, successful, code, steps + num_steps, residual

    def more(state):
        index, _, successful, *_ = state
        return (index < passes) & ~successful

    zero = jnp.zeros_like(target)
    start = (jnp.asarray(0), zero, jnp.asarray(False), jnp.asarray(_SUCCESS), jnp.asarray(0),
             jnp.asarray(jnp.nan, target.dtype))
    index, velocity, successful, code, steps, residual = jax.lax.while_loop(more, solve_pass, start)
    return velocity, successful, code, steps, residual, index > 1


@eqx.filter_jit
def logarithmic_map(
    metric: Metric,
    posterior,
    base_point: jax.Array,
    targets: jax.Array,
    settings: LogMapSettings = LogMapSettings(),
) -> LogMapResult:
    """``Log_{base_point}(x)`` for every row ``x`` of ``targets``, by shooting.

    The two-point boundary value problem ``theta(0) = base_point``, ``theta(1) = x`` on the
    geodesic ODE (Yu et al. 2024, Algorithm 2 and Supp. 12) is solved for the initial
    velocity ``v`` by a root find on the endpoint residual ``F(v) = Exp_{base_point}(v) - x``,
    each ``F`` one Diffrax solve; where a Jacobian is needed it is integrated with the shot, by
    the geodesic's variational equations
    (:func:`~geobayes.geometry.geodesic_jacobian.exponential_map_jacobian`).

    Single shooting from the paper's straight-line guess ``v0 = x - base_point`` is not
    robust on strongly curved metrics: the Monge metric of a concentrated Gaussian is that
    of the graph of a steep paraboloid, whose geodesics from the vertex reach conjugate
    points at typical sample distances, and Newton then cycles or lands on a geodesic that
    winds around the paraboloid. So the target is approached by natural-parameter
    continuation along the straight line ``x(s) = base_point + s (x - base_point)``,
    following the branch through ``v(0) = 0``. Each stage predicts ``v(s)`` along the branch
    tangent ``dv/ds = J(v)^{-1} (x - base_point)``, ``J`` the Jacobian of the shot (one
    Jacobian per accepted stage; at ``s = 0`` it is the identity), and corrects
    it by ``settings.corrector``: the chord method with that same Jacobian (default), or
    Newton's method (a new Jacobian every iteration). A stage is
    accepted if the corrector converges and moves ``v`` less than the predictor did (it
    stayed on the branch); the next step then doubles, otherwise the step halves and the
    stage is retried. The first stage is ``settings.first_stage`` long.

    Targets are solved independently, one after another or in lock-step ``vmap`` batches
    (``settings.batch_size``), with ``throw=False``: a failed log map is reported in the
    result, never raised, dropped or replaced.

    Parameters
    ----------
    metric
        The Riemannian metric (e.g. :class:`~geobayes.geometry.gaussian_monge.GaussianMonge`).
    posterior
        Passed to the metric's Christoffel contraction (may be None where the metric
        ignores it).
    base_point
        Base point of the map, shape (D,).
    targets
        End points, shape (n, D).
    settings
        Corrector, continuation and shot settings.

    Returns
    -------
    LogMapResult
        Velocities and per-target outcome.

    Raises
    ------
    ValueError
        If the shapes of ``base_point`` and ``targets`` do not match.

    Notes
    -----
    Measured with Newton's corrector (then the only one; 128 iterations, 5 a stage) on the
    Gaussian-Monge metrics of RLA-BLog (2 shared CPU cores; P with eigenvalues log-uniform
    in the given range, targets ``N(m, P^{-1})``):

    ==========================  =============  ==============  =================
    case                        one at a time  one vmap batch  Newton iterations
    ==========================  =============  ==============  =================
    D = 3, eig(P) in [0.3, 30]  4 ms/target    16 ms/target    12.5 (max 36)
    D = 3, eig(P) in [10, 200]  7 ms/target    15 ms/target    16.4 (max 30)
    D = 14, [0.3, 30]           160 ms/target  1100 ms/target  27 (max 105)
    D = 14, standardised Heart  150 ms/target  320 ms/target   31 (max 55)
    ==========================  =============  ==============  =================

    All targets were reached; single shooting from the linear guess (32 iterations) failed
    on 2-9 % of them at D = 3 and on 30-65 % at D = 14, and where the two found different
    geodesics the continuation's was the shorter one in most cases. Raw-input Heart
    (eig(P) up to 3e6) is beyond these defaults: all of six targets failed (code 7).

    The chord corrector (``benchmarks/bench_log_map.py``, ``benchmarks/results/log_map_*.json``,
    the pipeline's own targets, one process): a chord iteration is one shot, a Newton
    iteration ``D + 1`` (at D = 31 a Jacobian took 40x a shot's 1.2 ms). On the banana,
    Gaussians and standardised logistic regressions (D = 2-25) chord took 1.1-4.5x less time
    in 3-7x the iterations (median 33-260, max 544: hence its budget of 1024) and reached the
    same velocities, except on 2 of 20 German targets. On the Snelson networks (D = 31, eig(P)
    up to 4e5) it was 30-32x faster on standardised inputs (0.47-0.80 s a target against
    15-24) and 1.6x and 9.5x on raw ones, where the fallback solved 3 of 8 targets again at
    Newton's price. Where the two differed, both velocities solved the problem and had the
    same length to 1e-4 (|v| ~ 20): near-mirror geodesics that climb the paraboloid's
    steepest direction on either side, a log map near a conjugate point; chord's was the
    shorter in every such case but one, longer by 2e-6.
    """
    base_point = jnp.asarray(base_point)
    targets = jnp.asarray(targets)
    if base_point.ndim != 1 or targets.ndim != 2 or targets.shape[1] != base_point.shape[0]:
        raise ValueError(
            "logarithmic_map: base_point must have shape (D,) and targets shape (n, D); got "
            f"{base_point.shape} and {targets.shape}"
        )
    solve = lambda x: _log_one(metric, posterior, base_point, x, settings)  # noqa: E731
    if settings.batch_size == 1:
        outputs = jax.lax.map(solve, targets)
    else:
        outputs = jax.lax.map(solve, targets, batch_size=settings.batch_size)
    return LogMapResult(*outputs)
