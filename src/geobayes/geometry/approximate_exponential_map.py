"""The approximate exponential map: invert the approximate log map by least squares.

Hartmann et al. (2026), Eq. (14): ``Exp(V) = argmin_theta |V - Log(theta)|^2``. Solved per
tangent vector with Optimistix, batched by ``vmap``, never raising: every sample keeps its
result code, iteration count and residual. The samples the first solver leaves unsolved (an
undamped Newton or quasi-Newton iteration that cycles far from the MAP) are solved again by a damped fallback
(Levenberg-Marquardt), and only those: each sample records whether it needed the fallback.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Callable, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
import lineax as lx
import optimistix as optx

from geobayes.batching import Schedule, scheduled_map
from geobayes.geometry.approximate_log_map import ApproximateLogMap
from geobayes.optimize.broyden import Broyden
from geobayes.settings import enum_converter

#: Result code of a solve that converged to a point whose residual exceeds the tolerance: a
#: stationary point of the least-squares problem that is not a preimage (possible only where
#: the map is not injective, e.g. neural-network embeddings). Optimistix codes are below it.
RESIDUAL_FAILURE = 100


class LeastSquaresSolver(str, Enum):
    """Solver of the inversion (config ``approximation.wrapped_gaussian.solver``; see :class:`ExpMapSettings`)."""

    AUTO = "auto"
    LEVENBERG_MARQUARDT = "levenberg_marquardt"
    LEVENBERG_MARQUARDT_LSMR = "levenberg_marquardt_lsmr"
    NEWTON = "newton"
    FIXED_POINT = "fixed_point"
    BROYDEN = "broyden"
    BFGS = "bfgs"

    def __str__(self) -> str:
        return self.value


SOLVERS = tuple(solver.value for solver in LeastSquaresSolver)


class FallbackSolver(str, Enum):
    """Solver of the samples the first solver leaves unsolved (config
    ``approximation.wrapped_gaussian.fallback``; see :class:`ExpMapSettings`)."""

    NONE = "none"
    LEVENBERG_MARQUARDT = "levenberg_marquardt"
    LEVENBERG_MARQUARDT_LSMR = "levenberg_marquardt_lsmr"
    BFGS = "bfgs"

    def __str__(self) -> str:
        return self.value


class ExpMapSettings(eqx.Module):
    """Settings of the least-squares inversion (config ``approximation.wrapped_gaussian``).

    Parameters
    ----------
    solver
        ``levenberg_marquardt`` (any embedding), ``newton`` (root find of ``Log(theta) = V``),
        ``broyden`` (the same root find by Broyden's quasi-Newton method, from ``H_0 = I``),
        ``fixed_point`` (``theta <- theta - (Log(theta) - V)``) or ``auto`` (where the target's
        embedding is affine: ``fixed_point`` from ``fixed_point_from_dim`` parameters on,
        ``broyden`` below; Levenberg-Marquardt otherwise; resolved by :meth:`resolve`). For an
        affine embedding of an exponential family with a Gaussian prior,
        ``Log(theta) - V = M grad Phi(theta)`` with a constant invertible ``M`` and ``Phi``
        strongly convex (Corollary 1, the ``u o h + v`` of App. B), so the Newton root find takes
        exactly the Newton steps of minimising ``Phi``.
        ``broyden`` (:class:`geobayes.optimize.broyden.Broyden`, Broyden 1965) uses that
        ``D Log(theta*) = I`` (Hartmann et al. 2026, Eq. (15): the contrast's mixed second
        derivative at the base is ``-2 I_Theta``) as its first inverse Jacobian and corrects it by
        a rank-one update a step: one ``Log`` evaluation and O(D^2) arithmetic a step (more only
        where its backtracking line search halves a step that would overshoot), where a Newton
        step builds the D-column Jacobian (D forward passes) and factorises it (O(D^3)).
        Superlinear convergence: about twice Newton's steps (median 6-10 against 3-4 on Table 1's
        regressions), 1.9-5.3x faster a sample than Newton at D = 8-25 (about even at D = 3), the
        same preimages to 1e-8, and none of Newton's cycling far from the MAP
        (benchmarks/bench_wg_sampling.py, ``results/wg_table1_broyden.json``).
        ``bfgs`` minimises ``|Log(theta) - V|^2 / 2`` with gradients only, as Hartmann et al.
        (2026), Sec. 5.3.2 do for the 142-parameter network, where a D-column Jacobian per
        Levenberg-Marquardt step costs ~30x more (and did not converge in 2,000 steps).
        ``levenberg_marquardt_lsmr`` is Levenberg-Marquardt without a Jacobian: each damped
        Gauss-Newton step is solved by at most ``inner_max_steps`` LSMR iterations, each one
        Jacobian-vector and one vector-Jacobian product of the residual (:class:`TruncatedSolve`).
        On the networks it does not beat ``bfgs``: there ``Log`` is not onto, a minimiser with a
        non-zero residual has a singular Jacobian, and Gauss-Newton steps crawl there
        (benchmarks/bench_wg_network.py).
        ``fixed_point`` uses ``D Log(theta*) = I`` too: near ``theta*`` the iteration contracts at
        the rate ``|I - D Log(theta)|``, each step one evaluation of ``Log`` and no linear algebra.
        On Table 1's latent GPs (D = 100) it is 18-39x faster than Newton per sample and about 4x
        faster than ``broyden`` (whose D x D update costs more than a ``Log`` there), with no
        failure; on the regressions (D = 3-25) it contracts too slowly or not at all far from
        ``theta*`` (benchmarks/bench_wg_sampling.py). Where a sample does not contract, the
        fallback solves it.
    rtol, atol
        Optimistix tolerances.
    max_steps
        Iteration cap per sample.
    residual_tol
        A converged sample counts as successful only if ``|Log(theta) - V|_inf`` is below it.
    inner_max_steps
        LSMR iterations per step of ``levenberg_marquardt_lsmr`` (ignored by the other solvers).
    fallback
        Solver of the samples that ``solver`` leaves unsolved (any non-zero result code), from
        the same start ``theta* + V``, capped at ``max_steps``; ``none`` keeps them as failures.
        Newton's root find takes undamped steps: far from the MAP it can cycle without
        converging (17 of 500 samples on Australian Bernoulli regression at the 256-step cap),
        where Levenberg-Marquardt's damped steps converge in at most 23. Ignored where it is
        ``solver`` itself (:attr:`has_fallback`).
    fallback_after
        With a fallback, the first solver stops after this many steps (Newton converges
        quadratically, in at most 6 steps on Table 1's posteriors, or not at all). Under
        ``vmap`` a batch runs until its slowest sample stops, so one cycling sample would
        otherwise hold every sample of its batch for ``max_steps`` steps.
    fallback_chunk_size
        The unsolved samples are solved again this many at a time under ``vmap`` (a
        ``while_loop`` over chunks that stops after the last unsolved one): their cost scales
        with their count, not with the batch.
    fixed_point_from_dim
        ``auto`` takes ``fixed_point`` for affine embeddings with at least this many parameters.
    fixed_point_steps
        With a fallback, the step cap of ``fixed_point`` (in place of ``fallback_after``: it
        converges linearly, in more but far cheaper steps than Newton).
    broyden_steps
        With a fallback, the step cap of ``broyden`` (in place of ``fallback_after``: its cheap
        steps are about twice Newton's; with its line search the slowest draw of Table 1's
        regressions took 20, of 2,000 a posterior, and so did the quick run's German Bernoulli
        regression's, of 500).
    chunk_size
        At most this many samples are inverted together under ``vmap`` by the first solver (the
        schedule's ``chunk_size`` where that is smaller; ``0``: the schedule's alone). A batch of
        200 per-sample Broyden states (a D x D inverse Jacobian each) and residuals outgrows a
        CPU core's cache: on Table 1's posteriors chunks of 100 were 0.87-1.54x as fast as one
        batch of 200 at D >= 10 over two runs (medians 1.09x and 1.29x; Australian Bernoulli
        regression 1.45-1.54x, the latent GPs 1.01-1.43x) and 0.91-1.62x on the small regressions
        (D <= 8), where chunks of 25 cost up to 28 % (``benchmarks/results/wg_chunks.json``); on
        the quick run's German Bernoulli regression, a harder subset, chunks of 25 were 1.6x faster.
        The draws do not depend on it beyond round-off (2.1e-15 there). On a GPU, where one large
        batch fills the device, 0.

    Built from a config slice by :func:`geobayes.settings.from_mapping`.
    """

    solver: LeastSquaresSolver = eqx.field(
        default=LeastSquaresSolver.AUTO, static=True,
        converter=enum_converter(LeastSquaresSolver, "approximation.wrapped_gaussian.solver"))
    rtol: float = eqx.field(default=1e-8, static=True)
    atol: float = eqx.field(default=1e-8, static=True)
    max_steps: int = eqx.field(default=256, static=True)
    residual_tol: float = eqx.field(default=1e-6, static=True)
    inner_max_steps: int = eqx.field(default=20, static=True)
    fallback: FallbackSolver = eqx.field(
        default=FallbackSolver.LEVENBERG_MARQUARDT, static=True,
        converter=enum_converter(FallbackSolver, "approximation.wrapped_gaussian.fallback"))
    fallback_after: int = eqx.field(default=16, static=True)
    fallback_chunk_size: int = eqx.field(default=32, static=True)
    fixed_point_from_dim: int = eqx.field(default=50, static=True)
    fixed_point_steps: int = eqx.field(default=64, static=True)
    broyden_steps: int = eqx.field(default=64, static=True)
    chunk_size: int = eqx.field(default=100, static=True)

    def __check_init__(self):
        for name in ("rtol", "atol", "residual_tol"):
            if not getattr(self, name) > 0:
                raise ValueError(f"approximation.wrapped_gaussian.{name} must be > 0, got {getattr(self, name)}")
        for name in ("max_steps", "inner_max_steps", "fallback_after", "fallback_chunk_size", "fixed_point_from_dim",
                     "fixed_point_steps", "broyden_steps"):
            value = getattr(self, name)
            if not (isinstance(value, int) and value >= 1):
                raise ValueError(f"approximation.wrapped_gaussian.{name} must be an integer >= 1, got {value!r}")
        if isinstance(self.chunk_size, bool) or not isinstance(self.chunk_size, int) or self.chunk_size < 0:
            raise ValueError("approximation.wrapped_gaussian.chunk_size must be an integer >= 0 (0: the schedule's "
                             f"chunk_size alone), got {self.chunk_size!r}")

    def resolve(self, target) -> ExpMapSettings:
        """These settings with ``auto`` replaced: if ``target.affine_embedding``, by
        ``fixed_point`` where ``target.dim >= fixed_point_from_dim`` and by ``broyden`` below;
        by ``levenberg_marquardt`` otherwise."""
        if self.solver != "auto":
            return self
        if not getattr(target, "affine_embedding", False):
            solver = "levenberg_marquardt"
        else:
            solver = "fixed_point" if target.dim >= self.fixed_point_from_dim else "broyden"
        return dataclasses.replace(self, solver=solver)

    @property
    def first_solver_steps(self) -> int:
        """Step cap of ``solver``: ``max_steps``, or with a fallback at most ``fixed_point_steps``
        (``fixed_point``), ``broyden_steps`` (``broyden``) or ``fallback_after`` (any other solver)."""
        if not self.has_fallback:
            return self.max_steps
        own = {"fixed_point": self.fixed_point_steps, "broyden": self.broyden_steps}
        return min(self.max_steps, own.get(str(self.solver), self.fallback_after))

    def first_schedule(self, schedule: Schedule) -> Schedule:
        """``schedule`` with its chunk size capped at :attr:`chunk_size` (the first solver's grouping)."""
        if not self.chunk_size or (schedule.chunk_size is not None and schedule.chunk_size <= self.chunk_size):
            return schedule
        return dataclasses.replace(schedule, chunk_size=self.chunk_size)

    @property
    def has_fallback(self) -> bool:
        """Whether unsolved samples go to a fallback solver (one other than ``solver`` itself)."""
        return self.fallback != "none" and self.fallback.value != str(self.solver)


class TruncatedSolve(lx.AbstractLinearSolver):
    """An iterative Lineax solver whose stop at its step cap (or condition-number limit) is a
    truncated step, not a failure: inexact Gauss-Newton. Levenberg-Marquardt's trust region
    accepts or rejects the step on the decrease it gives, so an inexact step is safe; without
    this, one capped inner solve would end the whole least-squares solve with a failure code.
    Other failures (breakdown, non-finite values) pass through.
    """

    inner: lx.AbstractLinearSolver

    def init(self, operator, options):
        return self.inner.init(operator, options)

    def compute(self, state, vector, options):
        solution, result, stats = self.inner.compute(state, vector, options)
        truncated = (result == lx.RESULTS.max_steps_reached) | (result == lx.RESULTS.conlim)
        return solution, lx.RESULTS.where(truncated, lx.RESULTS.successful, result), stats

    def transpose(self, state, options):
        return self.inner.transpose(state, options)

    def conj(self, state, options):
        return self.inner.conj(state, options)

    def assume_full_rank(self):
        return self.inner.assume_full_rank()


class ExpMapResult(NamedTuple):
    """Per-sample outcome of the inversion (shapes (n, D) and (n,)); ``fallback`` says which
    samples the fallback solver solved again (all False without one)."""

    points: jax.Array
    successful: jax.Array
    result_code: jax.Array
    num_steps: jax.Array
    residual: jax.Array
    fallback: jax.Array


def _optimistix_solver(name: str, settings: ExpMapSettings):
    """The Optimistix solver called ``name`` with the tolerances of ``settings``."""
    if name == "newton":
        return optx.Newton(rtol=settings.rtol, atol=settings.atol)
    if name == "bfgs":
        return optx.BFGS(rtol=settings.rtol, atol=settings.atol)
    if name == "fixed_point":
        return optx.FixedPointIteration(rtol=settings.rtol, atol=settings.atol)
    if name == "broyden":
        return Broyden(rtol=settings.rtol, atol=settings.atol)
    if name == "levenberg_marquardt_lsmr":
        # Matrix-free: Optimistix linearises the residual (jax.linearize), LSMR solves the damped
        # least-squares step [J; sqrt(lambda) I] d = [r; 0] with products J u and J^T w only.
        inner = lx.LSMR(rtol=settings.rtol, atol=settings.atol, max_steps=settings.inner_max_steps)
        return optx.LevenbergMarquardt(rtol=settings.rtol, atol=settings.atol, linear_solver=TruncatedSolve(inner))
    if name == "levenberg_marquardt":
        return optx.LevenbergMarquardt(rtol=settings.rtol, atol=settings.atol)
    raise ValueError(f"approximation.wrapped_gaussian.solver: {name!r} is not one of "
                     f"{', '.join(s for s in SOLVERS if s != 'auto')} (resolve 'auto' against the target first: "
                     "ExpMapSettings.resolve)")


def _per_sample_solve(log_map: ApproximateLogMap, name: str, settings: ExpMapSettings, max_steps: int) -> Callable:
    """``v -> (theta, successful, code, steps, residual)``: one inversion of Eq. (14) by solver
    ``name`` from ``theta* + v``, at most ``max_steps`` steps."""
    solver = _optimistix_solver(name, settings)

    def residual_fn(theta, v):
        return log_map(theta) - v

    def half_squared_residual(theta, v):
        r = residual_fn(theta, v)
        return 0.5 * jnp.dot(r, r)

    def one(v):
        y0 = log_map.base + v
        if name in ("newton", "broyden"):
            sol = optx.root_find(residual_fn, solver, y0, args=v, max_steps=max_steps, throw=False)
        elif name == "fixed_point":
            # D Log(theta*) = I (the tangent spaces coincide at the base), so theta - (Log(theta) - v)
            # contracts near theta*: one Log evaluation a step, no Jacobian, no linear solve.
            sol = optx.fixed_point(lambda theta, v: theta - residual_fn(theta, v), solver, y0, args=v,
                                   max_steps=max_steps, throw=False)
        elif name == "bfgs":
            # Hartmann et al. (2026), Sec. 5.3.2: BFGS on the least-squares objective (gradients
            # only, one reverse pass per step instead of a D-column Jacobian).
            sol = optx.minimise(half_squared_residual, solver, y0, args=v, max_steps=max_steps, throw=False)
        else:
            sol = optx.least_squares(residual_fn, solver, y0, args=v, max_steps=max_steps, throw=False)
        theta = sol.value
        residual = jnp.max(jnp.abs(residual_fn(theta, v)))
        code = sol.result._value
        small = jnp.isfinite(residual) & (residual <= settings.residual_tol)
        code = jnp.where((code == 0) & ~small, RESIDUAL_FAILURE, code)
        return theta, code == 0, code, sol.stats["num_steps"], residual

    return one


def solve_unsolved(solve: Callable, velocities: jax.Array, unsolved: jax.Array, chunk_size: int):
    """``solve`` (per sample, as :func:`_per_sample_solve` returns) on the rows of ``velocities``
    where ``unsolved`` is True, ``chunk_size`` of them at a time under ``vmap``.

    The unsolved rows are moved to the front (stable order) and solved chunk by chunk in a
    ``while_loop`` that stops after the chunk holding the last of them, so the cost grows with
    their count: none unsolved, no solve. Returns the per-sample outputs in the order of
    ``velocities``; rows that were not unsolved hold values to be discarded.
    """
    n = velocities.shape[0]
    chunk = min(chunk_size, n)
    chunks = -(-n // chunk)
    order = jnp.argsort(~unsolved, stable=True)
    padded = velocities[order]
    if chunks * chunk > n:
        padded = jnp.concatenate([padded, jnp.repeat(padded[-1:], chunks * chunk - n, axis=0)])
    count = jnp.sum(unsolved)
    shapes = jax.eval_shape(jax.vmap(solve), padded[:chunk])
    out = jax.tree_util.tree_map(lambda s: jnp.zeros((chunks * chunk, *s.shape[1:]), s.dtype), shapes)

    def more(state):
        i, _ = state
        return i * chunk < count

    def next_chunk(state):
        i, out = state
        result = jax.vmap(solve)(jax.lax.dynamic_slice_in_dim(padded, i * chunk, chunk))
        return i + 1, jax.tree_util.tree_map(lambda o, r: jax.lax.dynamic_update_slice_in_dim(o, r, i * chunk, 0),
                                             out, result)

    _, out = jax.lax.while_loop(more, next_chunk, (jnp.asarray(0), out))
    inverse = jnp.argsort(order)
    return jax.tree_util.tree_map(lambda y: y[:n][inverse], out)


def first_solve(log_map: ApproximateLogMap, velocities: jax.Array, settings: ExpMapSettings,
                schedule: Schedule = Schedule()) -> ExpMapResult:
    """Eq. (14) for every row of ``velocities`` by ``settings.solver`` alone, capped at
    :attr:`ExpMapSettings.first_solver_steps`, chunked by :meth:`ExpMapSettings.first_schedule`
    (``fallback`` all False: see :func:`approximate_exponential_map`)."""
    if settings.solver == "auto":
        raise ValueError("resolve the 'auto' solver against the target first (ExpMapSettings.resolve)")
    first = _per_sample_solve(log_map, str(settings.solver), settings, settings.first_solver_steps)
    points, ok, codes, steps, residuals = scheduled_map(first, velocities, settings.first_schedule(schedule))
    return ExpMapResult(points, ok, codes, steps, residuals, jnp.zeros_like(ok))


def with_fallback(log_map: ApproximateLogMap, velocities: jax.Array, first: ExpMapResult,
                  settings: ExpMapSettings) -> ExpMapResult:
    """``first`` (the outcome of :func:`first_solve` on ``velocities``) with the samples it left
    unsolved solved again by ``settings.fallback`` from the same start, ``settings.fallback_chunk_size``
    at a time (:func:`solve_unsolved`): their code and residual are the fallback's, their steps the
    sum of both solves', and ``fallback`` marks them."""
    unsolved = ~first.successful
    second = _per_sample_solve(log_map, str(settings.fallback), settings, settings.max_steps)
    points2, ok2, codes2, steps2, residuals2 = solve_unsolved(second, velocities, unsolved,
                                                              settings.fallback_chunk_size)
    return ExpMapResult(jnp.where(unsolved[:, None], points2, first.points), jnp.where(unsolved, ok2, first.successful),
                        jnp.where(unsolved, codes2, first.result_code),
                        jnp.where(unsolved, first.num_steps + steps2, first.num_steps),
                        jnp.where(unsolved, residuals2, first.residual), unsolved)


#: :func:`first_solve` and :func:`with_fallback` as programs of their own (inline in a caller's ``jit``).
_first_solve_program = eqx.filter_jit(first_solve)
_with_fallback_program = eqx.filter_jit(with_fallback)


def approximate_exponential_map(
    log_map: ApproximateLogMap, velocities: jax.Array, settings: ExpMapSettings,
    schedule: Schedule = Schedule(),
) -> ExpMapResult:
    """Solve Eq. (14) for every row of ``velocities`` (shape (n, D)), starting at ``theta* + V``.

    Returns the solutions with their Optimistix result codes (0 = success;
    :data:`RESIDUAL_FAILURE` when the solver stopped at a non-zero residual), steps and the
    max-norm residual ``|Log(theta) - V|``. With a fallback (``settings.fallback``) the first
    solver stops after ``settings.first_solver_steps`` steps and the samples it left unsolved are
    solved again by the fallback from the same start (:func:`with_fallback`): their code and
    residual are the fallback's, their steps the sum of both solves', and ``fallback`` marks them.
    Failures are reported, never raised or replaced. ``schedule`` chunks the first solve, in
    chunks of at most ``settings.chunk_size`` (:meth:`ExpMapSettings.first_schedule`;
    :class:`~geobayes.batching.Schedule`; no difficulty predictor, so it is never sorted); the
    outputs do not depend on it beyond round-off.

    Called eagerly, the fallback is its own program, compiled and run only when a batch leaves a
    sample unsolved: on Table 1's posteriors none does, and compiling Levenberg-Marquardt into
    every batch's program took about half of it (``benchmarks/README.md``). Traced inside a
    caller's ``jit``, both solvers are in the caller's program, as the values cannot be inspected.
    """
    first = _first_solve_program(log_map, velocities, settings, schedule)
    return finish_with_fallback(log_map, velocities, first, settings)


def finish_with_fallback(log_map: ApproximateLogMap, velocities: jax.Array, first: ExpMapResult,
                         settings: ExpMapSettings) -> ExpMapResult:
    """``first`` as it is where nothing is left unsolved (or there is no fallback), else
    :func:`with_fallback`: its own program when ``first`` holds values, inline when traced."""
    if not settings.has_fallback:
        return first
    if isinstance(first.successful, jax.core.Tracer):
        return with_fallback(log_map, velocities, first, settings)
    if bool(jnp.all(first.successful)):
        return first
    return _with_fallback_program(log_map, velocities, first, settings)
