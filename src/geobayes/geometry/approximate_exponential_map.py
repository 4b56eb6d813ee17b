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
    rtol, atol
        Optimistix tolerances.
    max_steps
        Iteration cap per sample.
    residual_tol
        A converged sample counts as successful only if ``|Log(theta) - V|_inf`` is below it.

    Built from a config slice by :func:`geobayes.settings.from_mapping`.
    """

    solver: LeastSquaresSolver = eqx.field(
        default=LeastSquaresSolver.AUTO, static=True,
        converter=enum_converter(LeastSquaresSolver, "approximation.wrapped_gaussian.solver"))
    rtol: float = eqx.field(default=1e-8, static=True)
    atol: float = eqx.field(default=1e-8, static=True)
    max_steps: int = eqx.field(default=256, static=True)
    residual_tol: float = eqx.field(default=1e-6, static=True)

    def __check_init__(self):
        for name in ("rtol", "atol", "residual_tol"):
            if not getattr(self, name) > 0:
                raise ValueError(f"approximation.wrapped_gaussian.{name} must be > 0, got {getattr(self, name)}")
        if not (isinstance(self.max_steps, int) and self.max_steps >= 1):
            raise ValueError(f"approximation.wrapped_gaussian.max_steps must be an integer >= 1, "
                             f"got {self.max_steps!r}")

    def resolve(self, target) -> ExpMapSettings:
        """These settings with ``auto`` replaced by ``newton`` if ``target.affine_embedding``
        and by ``levenberg_marquardt`` otherwise."""
        if self.solver != "auto":
            return self
        solver = "newton" if getattr(target, "affine_embedding", False) else "levenberg_marquardt"
        return ExpMapSettings(solver=solver, rtol=self.rtol, atol=self.atol, max_steps=self.max_steps,
                              residual_tol=self.residual_tol)


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
