"""What every approximation method returns."""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class ApproximateDraws(NamedTuple):
    """Samples of an approximation with their per-sample solver outcome.

    Attributes
    ----------
    theta
        Samples, shape (n, D); rows where ``successful`` is False must not be used.
    successful
        Per-sample success flag, shape (n,).
    result_code
        Per-sample solver result code (0 = success), shape (n,).
    num_steps
        Per-sample solver steps (0 for closed-form samplers), shape (n,).
    residual
        Per-sample residual of an inversion (the closed-form wrapped Gaussian's
        ``|Log(theta) - V|_inf``), shape (n,); None for methods without one.
    fallback
        Per-sample flag of a sample its first solver left unsolved and a fallback solver solved
        again (the wrapped Gaussian's Newton -> Levenberg-Marquardt), shape (n,); None for
        methods without a fallback.
    speed_drift
        Per-sample relative change of the geodesic's metric speed from ``t = 0`` to ``1``
        (:func:`~geobayes.geometry.speed_drift.speed_drift`; zero on an exact geodesic, NaN for
        a failed sample), shape (n,); None for methods without an ODE-solved geodesic.
    """

    theta: jax.Array
    successful: jax.Array
    result_code: jax.Array
    num_steps: jax.Array
    residual: jax.Array | None = None
    fallback: jax.Array | None = None
    speed_drift: jax.Array | None = None

    def arrays(self) -> dict:
        """The fields that are set, as a name -> array dict (for saving)."""
        return {k: v for k, v in self._asdict().items() if v is not None}


class FitResult(NamedTuple):
    """``fit`` output: the immutable approximation and a dict of fit statistics."""

    approximation: Any
    stats: dict


def evaluations_per_step(method, config, configured: int) -> int:
    """Vector-field evaluations a solver step of ``method``, for the cost ``T`` of :func:`summarise_draws`.

    A method module may set its own (``EVALUATIONS_PER_STEP``: one gradient an iteration of the
    particle methods and the wrapped Gaussian's inversion); otherwise ``configured``
    (``approximation.evaluations_per_step``, 6 for Dopri5 as SciPy's ``nfev`` counts them), which
    must agree with the geodesic solver the method's config names (``ode.solver``: Bosh3 evaluates
    3 times a step).

    Raises
    ------
    ValueError
        One line naming both keys when ``configured`` is not the solver's count.
    """
    own = getattr(method, "EVALUATIONS_PER_STEP", None)
    if own is not None:
        return int(own)
    ode = getattr(config, "ode", None)
    if ode is not None and int(configured) != ode.solver.evaluations_per_step:
        raise ValueError(f"approximation.evaluations_per_step is {configured}, but approximation.ode.solver "
                         f"{ode.solver} evaluates the vector field {ode.solver.evaluations_per_step} times a step; "
                         f"set it to {ode.solver.evaluations_per_step}")
    return int(configured)


def summarise_draws(draws: ApproximateDraws, evaluations_per_step: int) -> dict:
    """Counts and cost of a batch of draws.

    ``T`` is ``evaluations_per_step * mean(num_steps)`` over *all* samples, failed ones
    counted at the step cap, as in Yu et al. (2024), Sec. 5 (T = 6 x Diffrax steps for Dopri5).
    Where the draws carry a fallback flag, ``n_fallback`` counts the samples solved again by
    the fallback solver and ``n_fallback_failed`` those it did not solve either. Where they
    carry a speed drift, ``median_speed_drift`` and ``max_speed_drift`` summarise it over the
    successful samples: a solve within its tolerances step by step can still end far from the
    geodesic, and these say how far (None where no sample succeeded).
    """
    steps = np.asarray(draws.num_steps)
    ok = np.asarray(draws.successful)
    codes, counts = np.unique(np.asarray(draws.result_code), return_counts=True)
    residual = {}
    if draws.residual is not None and steps.size:
        r = np.asarray(draws.residual)
        residual = {"median_residual": float(np.median(r)), "max_residual": float(np.max(r))}
    drift = {}
    if draws.speed_drift is not None:
        d = np.asarray(draws.speed_drift)[ok]
        drift = {"median_speed_drift": float(np.median(d)) if d.size else None,
                 "max_speed_drift": float(np.max(d)) if d.size else None}
    fallback = {}
    if draws.fallback is not None:
        again = np.asarray(draws.fallback, dtype=bool)
        fallback = {"n_fallback": int(again.sum()), "n_fallback_failed": int((again & ~ok).sum())}
    return {
        **residual,
        **drift,
        **fallback,
        "n_samples": int(ok.size),
        "n_failed": int(ok.size - ok.sum()),
        "failed_fraction": float(1.0 - ok.mean()) if ok.size else 0.0,
        "mean_steps": float(steps.mean()) if steps.size else 0.0,
        "max_steps_taken": int(steps.max()) if steps.size else 0,
        "T": float(evaluations_per_step * steps.mean()) if steps.size else 0.0,
        "result_codes": {str(int(c)): int(n) for c, n in zip(codes, counts)},
    }


def checked_mode(posterior, mode) -> jax.Array:
    """``mode`` as a float64 array, checked against ``posterior`` before a ``fit`` uses it.

    Raises
    ------
    ValueError
        If its shape is not ``(posterior.dim,)`` or an entry is not finite (a NaN mode would
        give all-NaN draws that the solvers flag as successful).
    """
    mode = jnp.asarray(mode, dtype=jnp.float64)
    if mode.shape != (posterior.dim,):
        raise ValueError(f"{posterior.name}: the mode has shape {mode.shape}, expected ({posterior.dim},) "
                         "(the posterior's dimension)")
    bad = np.flatnonzero(~np.isfinite(np.asarray(mode)))
    if bad.size:
        raise ValueError(f"{posterior.name}: the mode is not finite at {bad.size} of {mode.size} entries "
                         f"(first at index {int(bad[0])}: {float(mode[bad[0]])})")
    return mode


def sample_count(n) -> int:
    """``n`` as the number of draws of ``approximation.sample(key, n)``.

    Raises
    ------
    ValueError
        Unless ``n`` is a positive integer (a bool, a float or a traced value is refused).
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"sample(key, n): n must be a positive integer, got {n!r}")
    return int(n)
