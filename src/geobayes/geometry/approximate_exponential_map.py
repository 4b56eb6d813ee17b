"""The approximate exponential map: invert the approximate log map by least squares.

Hartmann et al. (2026), Eq. (14): ``Exp(V) = argmin_theta |V - Log(theta)|^2``. Solved per
tangent vector with Optimistix, batched by ``vmap``, never raising: every sample keeps its
result code, iteration count and residual.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
import lineax as lx
import optimistix as optx

from geobayes.batching import Schedule, scheduled_map
from geobayes.geometry.approximate_log_map import ApproximateLogMap
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
    BFGS = "bfgs"

    def __str__(self) -> str:
        return self.value


SOLVERS = tuple(solver.value for solver in LeastSquaresSolver)


class ExpMapSettings(eqx.Module):
    """Settings of the least-squares inversion (config ``approximation.wrapped_gaussian``).

    Parameters
    ----------
    solver
        ``levenberg_marquardt`` (any embedding), ``newton`` (root find of ``Log(theta) = V``)
        or ``auto`` (Newton where the target's embedding is affine, Levenberg-Marquardt
        otherwise; resolved by :meth:`resolve`). For an affine embedding of an exponential
        family with a Gaussian prior, ``Log(theta) - V = M grad Phi(theta)`` with a constant
        invertible ``M`` and ``Phi`` strongly convex (Corollary 1, the ``u o h + v`` of App. B),
        so the Newton root find takes exactly the Newton steps of minimising ``Phi``.
        ``bfgs`` minimises ``|Log(theta) - V|^2 / 2`` with gradients only, as Hartmann et al.
        (2026), Sec. 5.3.2 do for the 142-parameter network, where a D-column Jacobian per
        Levenberg-Marquardt step costs ~30x more (and did not converge in 2,000 steps).
        ``levenberg_marquardt_lsmr`` is Levenberg-Marquardt without a Jacobian: each damped
        Gauss-Newton step is solved by at most ``inner_max_steps`` LSMR iterations, each one
        Jacobian-vector and one vector-Jacobian product of the residual (:class:`TruncatedSolve`).
        On the networks it does not beat ``bfgs``: there ``Log`` is not onto, a minimiser with a
        non-zero residual has a singular Jacobian, and Gauss-Newton steps crawl there
        (benchmarks/bench_wg_network.py).
    rtol, atol
        Optimistix tolerances.
    max_steps
        Iteration cap per sample.
    residual_tol
        A converged sample counts as successful only if ``|Log(theta) - V|_inf`` is below it.
    inner_max_steps
        LSMR iterations per step of ``levenberg_marquardt_lsmr`` (ignored by the other solvers).

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

    def __check_init__(self):
        for name in ("rtol", "atol", "residual_tol"):
            if not getattr(self, name) > 0:
                raise ValueError(f"approximation.wrapped_gaussian.{name} must be > 0, got {getattr(self, name)}")
        for name in ("max_steps", "inner_max_steps"):
            value = getattr(self, name)
            if not (isinstance(value, int) and value >= 1):
                raise ValueError(f"approximation.wrapped_gaussian.{name} must be an integer >= 1, got {value!r}")

    def resolve(self, target) -> ExpMapSettings:
        """These settings with ``auto`` replaced by ``newton`` if ``target.affine_embedding``
        and by ``levenberg_marquardt`` otherwise."""
        if self.solver != "auto":
            return self
        solver = "newton" if getattr(target, "affine_embedding", False) else "levenberg_marquardt"
        return ExpMapSettings(solver=solver, rtol=self.rtol, atol=self.atol, max_steps=self.max_steps,
                              residual_tol=self.residual_tol, inner_max_steps=self.inner_max_steps)


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
    """Per-sample outcome of the inversion (shapes (n, D) and (n,))."""

    points: jax.Array
    successful: jax.Array
    result_code: jax.Array
    num_steps: jax.Array
    residual: jax.Array


def approximate_exponential_map(
    log_map: ApproximateLogMap, velocities: jax.Array, settings: ExpMapSettings,
    schedule: Schedule = Schedule(),
) -> ExpMapResult:
    """Solve Eq. (14) for every row of ``velocities`` (shape (n, D)), starting at ``theta* + V``.

    Returns the solutions with their Optimistix result codes (0 = success;
    :data:`RESIDUAL_FAILURE` when the solver stopped at a non-zero residual), steps and the
    max-norm residual ``|Log(theta) - V|``. Failures are reported, never raised or replaced.
    ``schedule`` chunks the batch (:class:`~geobayes.batching.Schedule`; no difficulty
    predictor, so it is never sorted); the outputs do not depend on it.
    """

    def residual_fn(theta, v):
        return log_map(theta) - v

    if settings.solver == "auto":
        raise ValueError("resolve the 'auto' solver against the target first (ExpMapSettings.resolve)")
    if settings.solver == "newton":
        solver = optx.Newton(rtol=settings.rtol, atol=settings.atol)
    elif settings.solver == "bfgs":
        solver = optx.BFGS(rtol=settings.rtol, atol=settings.atol)
    elif settings.solver == "levenberg_marquardt_lsmr":
        # Matrix-free: Optimistix linearises the residual (jax.linearize), LSMR solves the damped
        # least-squares step [J; sqrt(lambda) I] d = [r; 0] with products J u and J^T w only.
        inner = lx.LSMR(rtol=settings.rtol, atol=settings.atol, max_steps=settings.inner_max_steps)
        solver = optx.LevenbergMarquardt(rtol=settings.rtol, atol=settings.atol, linear_solver=TruncatedSolve(inner))
    else:
        solver = optx.LevenbergMarquardt(rtol=settings.rtol, atol=settings.atol)

    def half_squared_residual(theta, v):
        r = residual_fn(theta, v)
        return 0.5 * jnp.dot(r, r)

    def one(v):
        y0 = log_map.base + v
        if settings.solver == "newton":
            sol = optx.root_find(residual_fn, solver, y0, args=v, max_steps=settings.max_steps, throw=False)
        elif settings.solver == "bfgs":
            # Hartmann et al. (2026), Sec. 5.3.2: BFGS on the least-squares objective (gradients
            # only, one reverse pass per step instead of a D-column Jacobian).
            sol = optx.minimise(half_squared_residual, solver, y0, args=v, max_steps=settings.max_steps, throw=False)
        else:
            sol = optx.least_squares(residual_fn, solver, y0, args=v, max_steps=settings.max_steps, throw=False)
        theta = sol.value
        residual = jnp.max(jnp.abs(residual_fn(theta, v)))
        code = sol.result._value
        small = jnp.isfinite(residual) & (residual <= settings.residual_tol)
        code = jnp.where((code == 0) & ~small, RESIDUAL_FAILURE, code)
        return theta, code == 0, code, sol.stats["num_steps"], residual

    points, ok, codes, steps, residuals = scheduled_map(one, velocities, schedule)
    return ExpMapResult(points, ok, codes, steps, residuals)
