"""Several local MAP estimates of one posterior, one per random initialisation.

Hartmann et al. (2026), App. D (Figs. 6-7): "we randomly initialise 5 sets of parameters
(a)-(e) (NN weights) and train them until convergence"; each optimum then anchors its own
Laplace and wrapped-Gaussian approximation. Unlike :func:`geobayes.optimize.find_map`, which
keeps the best of its restarts, every run is kept here, with its own convergence record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.optimize.map_estimate import find_map
from geobayes.random import derive_key

__all__ = ["LocalOptimum", "optimum_starts", "find_local_optima"]


@dataclass(frozen=True)
class LocalOptimum:
    """One BFGS run of :func:`find_local_optima`.

    Attributes
    ----------
    start, position
        Initialisation and end point, shape (D,).
    objective
        Objective (log posterior) at ``position``.
    converged
        The run ended successfully *and* its gradient norm is below ``grad_tol``.
    grad_norm
        Euclidean norm of the objective's gradient at ``position``.
    result_code, num_steps
        Optimistix result code (0: success) and BFGS steps.
    """

    start: np.ndarray
    position: np.ndarray
    objective: float
    converged: bool
    grad_norm: float
    result_code: int
    num_steps: int

    def summary(self) -> dict:
        """JSON-ready record (the position and start as lists)."""
        return {"position": self.position.tolist(), "start": self.start.tolist(), "logdensity": self.objective,
                "converged": self.converged, "grad_norm": self.grad_norm, "result_code": self.result_code,
                "num_steps": self.num_steps}


def optimum_starts(seed: int, posterior_name: str, count: int, dim: int, init_std: float) -> np.ndarray:
    """Random initialisations ``theta_k ~ N(0, init_std^2 I)``, ``k = 0 .. count - 1``.

    The key of start ``k`` is ``derive_key(seed, "map_optimum", posterior_name, k)``, so a start
    does not depend on ``count`` (five optima extend three). Hartmann et al. (2026), App. D, do
    not state their initialisation; ``init_std = 1`` draws the weights from their N(0, I) prior.

    Parameters
    ----------
    seed
        Configured base seed.
    posterior_name
        Name of the posterior (part of the key).
    count, dim
        Number of starts and dimension D.
    init_std
        Standard deviation of each coordinate (> 0).

    Returns
    -------
    numpy.ndarray, shape (count, dim)
        The starts (float64).

    Raises
    ------
    ValueError
        If ``count`` or ``dim`` is below 1 or ``init_std`` is not a finite number > 0.
    """
    if count < 1 or dim < 1:
        raise ValueError(f"need at least one start of dimension >= 1; got count={count}, dim={dim}")
    if not (np.isfinite(init_std) and init_std > 0):
        raise ValueError(f"init_std must be a finite number > 0; got {init_std!r}")
    keys = [derive_key(seed, "map_optimum", posterior_name, k) for k in range(count)]
    return np.stack([init_std * np.asarray(jax.random.normal(key, (dim,), dtype=jnp.float64)) for key in keys])


def find_local_optima(
    objective: Callable[[jax.Array, object], jax.Array],
    args,
    starts: np.ndarray,
    *,
    max_steps: int = 10_000,
    rtol: float = 1e-10,
    atol: float = 1e-10,
    grad_tol: float = 1e-4,
) -> list[LocalOptimum]:
    """Maximise ``objective(theta, args)`` by BFGS from each start; keep every run.

    Each run is :func:`geobayes.optimize.find_map` from its one start (same solver, tolerances
    and convergence test as the MAP stage; compiled once), and none is discarded: run ``k`` is
    optimum ``k``. The runs are *not* batched: under ``vmap`` the floating-point summation order
    depends on the batch size, and on a non-convex posterior BFGS amplifies those last-bit
    differences into a different optimum (measured: the first optimum of the 142-parameter
    network changed between batches of 2 and 3), so optimum ``k`` would depend on how many are
    found.

    Parameters
    ----------
    objective
        Log density ``(theta, args) -> ()`` (e.g. :func:`geobayes.optimize.anchors.euclidean_objective`).
    args
        Pytree passed to ``objective`` (the posterior).
    starts
        Initialisations, shape (K, D) (e.g. :func:`optimum_starts`).
    max_steps, rtol, atol
        BFGS settings (config ``map``).
    grad_tol
        Gradient-norm threshold of ``converged``.

    Returns
    -------
    list of LocalOptimum
        One per start, in order. A run that ends at a non-finite point is returned with a NaN
        position and objective, ``converged=False`` and ``result_code=-1`` (the caller counts it).

    Raises
    ------
    RuntimeError
        If no run reaches a finite objective (as :func:`geobayes.optimize.find_map`).
    """
    starts = np.atleast_2d(np.asarray(starts, dtype=np.float64))
    optima = []
    for start in starts:
        try:
            runs = find_map(objective, args, starts.shape[1], jax.random.PRNGKey(0), max_steps=max_steps, rtol=rtol,
                            atol=atol, grad_tol=grad_tol, starts=start[None]).restarts
        except RuntimeError:  # this run ended at a non-finite objective: kept, not converged
            optima.append(LocalOptimum(start=start, position=np.full_like(start, np.nan), objective=float("nan"),
                                       converged=False, grad_norm=float("nan"), result_code=-1, num_steps=max_steps))
            continue
        position = np.asarray(runs["end"][0])
        value, grad_norm = float(runs["objective"][0]), float(runs["grad_norm"][0])
        optima.append(LocalOptimum(
            start=np.asarray(start), position=position, objective=value,
            converged=int(runs["result_code"][0]) == 0 and grad_norm < grad_tol,
            grad_norm=grad_norm, result_code=int(runs["result_code"][0]), num_steps=int(runs["num_steps"][0]),
        ))
    if all(not np.isfinite(o.objective) for o in optima):
        raise RuntimeError(f"none of the {len(optima)} optimisation runs reached a finite log density")
    return optima
