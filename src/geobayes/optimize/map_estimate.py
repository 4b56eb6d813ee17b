"""MAP by BFGS from random restarts, best by log posterior, with a convergence record."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optimistix as optx


@dataclass(frozen=True)
class MapEstimate:
    """Result of :func:`find_map`.

    Attributes
    ----------
    position
        Best restart's optimum, shape (D,).
    logdensity
        Objective there.
    converged
        The best restart ended successfully *and* its gradient norm is below ``grad_tol``.
    restarts
        Per restart: start, end, objective, result code, steps and gradient norm.
    """

    position: np.ndarray
    logdensity: float
    converged: bool
    grad_norm: float
    restarts: dict

    def summary(self) -> dict:
        """JSON-ready summary (no arrays except the position)."""
        return {
            "position": self.position.tolist(),
            "logdensity": self.logdensity,
            "converged": self.converged,
            "grad_norm": self.grad_norm,
            "n_restarts": len(self.restarts["objective"]),
            "n_restarts_successful": int(np.sum(np.asarray(self.restarts["result_code"]) == 0)),
            "restarts": {k: np.asarray(v).tolist() for k, v in self.restarts.items()},
        }


def find_map(
    objective: Callable[[jax.Array, object], jax.Array],
    args,
    dim: int,
    key: jax.Array,
    *,
    restarts: int = 20,
    max_steps: int = 10_000,
    rtol: float = 1e-10,
    atol: float = 1e-10,
    grad_tol: float = 1e-4,
    starts: jax.Array | None = None,
) -> MapEstimate:
    """Maximise ``objective(theta, args)`` by BFGS from ``restarts`` random starts.

    Yu et al. (2024), notes Sec. 2.0: 20 BFGS runs from ``randn(D) / D``, the one with the best
    log posterior wins. Restarts run batched (``vmap``) with ``throw=False``; non-finite
    endpoints are never chosen.

    Parameters
    ----------
    objective
        Positive log density (log posterior, or the Hausdorff objective) ``(theta, args) -> ()``.
    args
        Pytree passed to ``objective`` (e.g. the posterior).
    dim
        Dimension D.
    key
        Key for the starting points.
    restarts, max_steps, rtol, atol
        Optimiser settings (config ``map``).
    grad_tol
        Gradient-norm threshold of the ``converged`` flag.
    starts
        Given starting points, shape (R, D), instead of ``restarts`` random ones (e.g. a trained
        network's weights, which BFGS then polishes into a mode).

    Raises
    ------
    RuntimeError
        If no restart ends at a finite objective.
    """
    if starts is None:
        starts = jax.random.normal(key, (restarts, dim), dtype=jnp.float64) / dim
    else:
        starts = jnp.atleast_2d(jnp.asarray(starts, dtype=jnp.float64))
        if starts.shape[1] != dim:
            raise ValueError(f"MAP starts have {starts.shape[1]} coordinates, the target has D = {dim}")
        restarts = starts.shape[0]
    ends, codes, steps, values, grad_norms = _minimise_batch(objective, args, starts, max_steps, rtol, atol)
    values = np.asarray(values)
    finite = np.isfinite(values) & np.all(np.isfinite(np.asarray(ends)), axis=1)
    if not finite.any():
        raise RuntimeError(f"MAP: none of the {restarts} restarts reached a finite log density")
    best = int(np.argmax(np.where(finite, values, -np.inf)))
    grad_norms = np.asarray(grad_norms)
    return MapEstimate(
        position=np.asarray(ends[best]),
        logdensity=float(values[best]),
        converged=bool(int(codes[best]) == 0 and grad_norms[best] < grad_tol),
        grad_norm=float(grad_norms[best]),
        restarts={
            "start": np.asarray(starts),
            "end": np.asarray(ends),
            "objective": values,
            "result_code": np.asarray(codes),
            "num_steps": np.asarray(steps),
            "grad_norm": grad_norms,
        },
    )


@eqx.filter_jit
def _minimise_batch(objective, args, starts, max_steps, rtol, atol):
    solver = optx.BFGS(rtol=rtol, atol=atol)

    def one(y0):
        solution = optx.minimise(
            lambda th, a: -objective(th, a),
            solver,
            y0,
            args=args,
            max_steps=max_steps,
            throw=False,
        )
        return solution.value, solution.result._value, solution.stats["num_steps"]

    ends, codes, steps = jax.vmap(one)(starts)
    # The objective and its gradient norm at each end, in the same program: evaluated outside
    # it, op by op, they compiled some twenty one-operation programs (about 1 s of a MAP job).
    values = jax.vmap(lambda th: objective(th, args))(ends)
    grad_norms = jax.vmap(lambda th: jnp.linalg.norm(jax.grad(objective)(th, args)))(ends)
    return ends, codes, steps, values, grad_norms


def anchor_as_given(objective: Callable[[jax.Array, object], jax.Array], args, position, *,
                    grad_tol: float = 1e-4) -> MapEstimate:
    """The anchor taken as given, without a search: the trained weights of Bergamin et al.'s code
    (2023, Sec. 5.2, App. D; notes Sec. 5.1), whose prior precision differs from the training's, so
    that ``grad L(theta*) != 0`` slightly (the paper keeps it; ``converged`` records whether the
    gradient norm is below ``grad_tol``).

    Returns
    -------
    MapEstimate
        ``position``, the objective and its gradient norm there; one "restart" that starts and
        ends at ``position`` with result code 0 and no steps.

    Raises
    ------
    ValueError
        If ``position`` is not a finite vector.
    """
    position = np.asarray(position, dtype=np.float64)
    if position.ndim != 1 or not np.all(np.isfinite(position)):
        raise ValueError(f"the anchor must be a finite vector; got shape {position.shape} with "
                         f"{int(np.sum(~np.isfinite(position)))} non-finite entries")
    value, grad = jax.jit(jax.value_and_grad(lambda th: objective(th, args)))(jnp.asarray(position))
    norm = float(jnp.linalg.norm(grad))
    return MapEstimate(position=position, logdensity=float(value), converged=norm < grad_tol, grad_norm=norm,
                       restarts={"start": position[None], "end": position[None], "objective": np.array([float(value)]),
                                 "result_code": np.array([0]), "num_steps": np.array([0]), "grad_norm": np.array([norm])})
