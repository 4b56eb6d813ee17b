"""Batched exponential maps: the geodesic IVP solved with Diffrax, failures kept as data."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.batching import Schedule, scheduled_map
from geobayes.geometry.metric import Metric
from geobayes.geometry.refilled_lanes import refilled_solves
from geobayes.settings import enum_converter


class OdeSolver(str, Enum):
    """Explicit Runge-Kutta solver of the geodesic IVP (config ``approximation.ode.solver``).

    ``dopri5`` (Dormand-Prince 5(4), SciPy's ``RK45``) is the papers' (Yu et al. 2024, Sec. 5;
    Bergamin et al. 2023). ``bosh3`` (Bogacki-Shampine 3(2)) spends 3 new vector-field evaluations
    a step against Dopri5's and Tsit5's 6. Where a geodesic's step size is capped by the explicit
    solver's stability rather than its accuracy (raw-input logistic regression, the networks: a
    thousand steps a geodesic at ``rtol = 1e-3``) it takes about as many steps and so costs about
    half, and ends nearer a tight solve; on smooth geodesics it takes more, smaller steps
    (``benchmarks/bench_ode_solver.py``).
    """

    DOPRI5 = "dopri5"
    TSIT5 = "tsit5"
    BOSH3 = "bosh3"

    def __str__(self) -> str:
        return self.value

    @property
    def evaluations_per_step(self) -> int:
        """New vector-field evaluations per attempted step (first-same-as-last: the stages but one)."""
        return 3 if self is OdeSolver.BOSH3 else 6


_SOLVERS = {OdeSolver.DOPRI5: diffrax.Dopri5, OdeSolver.TSIT5: diffrax.Tsit5, OdeSolver.BOSH3: diffrax.Bosh3}


class OdeSettings(eqx.Module):
    """Solver settings of the geodesic IVP.

    Defaults follow Yu et al. (2024), Sec. 5 / notes Sec. 2.0: Dopri5 with a PID controller
    at ``rtol = 1e-3``, ``atol = 1e-6`` (SciPy ``solve_ivp`` defaults), automatic initial step,
    ``max_steps = 4096`` (Diffrax default). Built from the ``approximation.ode`` config slice
    by :func:`geobayes.settings.from_mapping`.

    ``initial_step`` is the first step's size on the unit interval of ``Exp``. ``None`` (the
    default) is Diffrax's automatic choice. Diffrax 0.7.2 starts every geodesic at 0.01: its
    heuristic (Hairer, Norsett & Wanner 1993, Sec. II.4) returns 0.01 unless the term is a plain
    ``ODETerm``, and ``diffeqsolve`` wraps every term (``WrapTerm``) before asking; the heuristic
    itself, which the authors' Diffrax 0.4 ran, gives 0.084 on standardised Ripley, and their
    runs started at 0.11-0.13 (two steps a solve: T = 12-14 in the paper against our 18). A number tries that step first; the
    controller rejects and shrinks it where the error estimate demands, so the draws agree to the
    ODE tolerance. ``1.0`` (the whole interval) suits the near-Gaussian posteriors, whose
    geodesics are nearly straight: one accepted step on standardised Ripley instead of three
    (``benchmarks/bench_initial_step.py``).
    """

    solver: OdeSolver = eqx.field(default=OdeSolver.DOPRI5, static=True,
                                  converter=enum_converter(OdeSolver, "approximation.ode.solver"))
    rtol: float = eqx.field(default=1e-3, static=True)
    atol: float = eqx.field(default=1e-6, static=True)
    max_steps: int = eqx.field(default=4096, static=True)
    initial_step: float | None = eqx.field(default=None, static=True)

    def __check_init__(self):
        if not (self.rtol > 0 and self.atol > 0 and self.max_steps >= 1):
            raise ValueError(
                "approximation.ode: rtol and atol must be > 0 and max_steps >= 1, got "
                f"rtol={self.rtol}, atol={self.atol}, max_steps={self.max_steps}"
            )
        if self.initial_step is not None and not 0.0 < self.initial_step <= 1.0:
            raise ValueError(
                "approximation.ode.initial_step must be null (automatic) or in (0, 1], the "
                f"fraction of Exp's unit interval; got {self.initial_step!r}"
            )


class GeodesicEndpoints(NamedTuple):
    """Endpoints ``Exp_theta(v)`` of a batch of geodesics, with per-sample solver outcome.

    Attributes
    ----------
    points
        ``theta(1)`` for each velocity, shape (n, D). Where a solve failed this is wherever the
        solver stopped: mask it with ``successful``.
    successful
        True where Diffrax reported success and the endpoint is finite, shape (n,).
    result_code
        Diffrax result code (0 = success, 1 = max steps reached, ...), shape (n,).
    num_steps
        Accepted + rejected solver steps, shape (n,); ``max_steps`` for a capped solve.
    velocities
        ``theta'(1)``, shape (n, D): with ``points`` the state whose metric speed an exact
        geodesic keeps (:func:`~geobayes.geometry.speed_drift.speed_drift`).
    """

    points: jax.Array
    successful: jax.Array
    result_code: jax.Array
    num_steps: jax.Array
    velocities: jax.Array


def _geodesic_vector_field(t, state, args):
    """``d/dt [theta, v] = [v, -Gamma_theta(v, v)]`` (Yu et al. 2024, Eq. (1), Supp. 12)."""
    metric, posterior = args
    theta, v = state
    return v, -metric.christoffel(posterior, theta, v)


def solve_geodesic(metric, posterior, base_point, velocity, ode: OdeSettings,
                   adjoint: diffrax.AbstractAdjoint | None = None,
                   saveat: diffrax.SaveAt | None = None, span: tuple[float, float] = (0.0, 1.0)) -> diffrax.Solution:
    """One geodesic IVP from ``t = 0`` to ``1`` (Yu et al. 2024, Supp. 12), ``throw=False``.

    ``adjoint`` selects how the solve is differentiated (e.g. ``diffrax.ForwardMode()`` for the
    Jacobians of the shooting log map); Diffrax's default otherwise. ``saveat`` defaults to the
    endpoint of the span (a path: :func:`~geobayes.geometry.geodesic_paths.geodesic_paths`).
    ``span`` integrates a piece ``[t0, t1]`` of the geodesic instead, from the state
    ``(base_point, velocity)`` at ``t0`` (``benchmarks/geodesic_segments.py``).
    """
    extra = {} if adjoint is None else {"adjoint": adjoint}
    return diffrax.diffeqsolve(
        diffrax.ODETerm(_geodesic_vector_field),
        _SOLVERS[ode.solver](),
        t0=span[0],
        t1=span[1],
        dt0=ode.initial_step,
        y0=(base_point, velocity),
        args=(metric, posterior),
        stepsize_controller=diffrax.PIDController(rtol=ode.rtol, atol=ode.atol),
        saveat=diffrax.SaveAt(t1=True) if saveat is None else saveat,
        max_steps=ode.max_steps,
        throw=False,
        **extra,
    )


def _solve_one(metric, posterior, base_point, velocity, ode: OdeSettings):
    solution = solve_geodesic(metric, posterior, base_point, velocity, ode)
    point = solution.ys[0][-1]
    code = solution.result._value
    successful = (code == 0) & jnp.all(jnp.isfinite(point))
    return point, successful, code, solution.stats["num_steps"], solution.ys[1][-1]


def metric_speeds(metric: Metric, posterior, base_point: jax.Array, velocities: jax.Array) -> jax.Array:
    """``|v|_G = sqrt(v^T G(base_point) v)`` for every row ``v``: the geodesic's length.

    A geodesic has constant speed, so ``|v|_G`` is the length of the curve ``Exp`` follows from
    ``t = 0`` to ``1``; it is the difficulty predictor of the sorted schedule (measured rank
    correlation with the Diffrax step count 0.75-0.86 for RLA-B on raw Pima and Heart, see
    ``benchmarks/bench_lockstep.py``). One metric tensor at the base point, ``O(n D^2)``.
    """
    tensor = metric.tensor(posterior, base_point)
    return jnp.sqrt(jnp.abs(jnp.einsum("nd,de,ne->n", velocities, tensor, velocities)))


@eqx.filter_jit
def exponential_map(
    metric: Metric,
    posterior,
    base_point: jax.Array,
    velocities: jax.Array,
    ode: OdeSettings = OdeSettings(),
    schedule: Schedule = Schedule(),
) -> GeodesicEndpoints:
    """``Exp_{base_point}(v)`` for every row ``v`` of ``velocities``.

    The IVP of Yu et al. (2024), Supp. 12, solved from ``t = 0`` to ``1`` with ``throw=False``
    under ``vmap``: one compiled solve serves every sample (the posterior and metric travel in
    Diffrax's ``args``), and a failed solve is reported, never raised or dropped.

    Parameters
    ----------
    metric
        The Riemannian metric (e.g. :class:`~geobayes.geometry.Monge`).
    posterior
        Passed to the metric's Christoffel contraction.
    base_point
        Start of every geodesic (the MAP), shape (D,).
    velocities
        Initial velocities, shape (n, D).
    ode
        Solver settings.
    schedule
        Chunking of the ``vmap`` (:class:`~geobayes.batching.Schedule`); with
        ``sort_by_difficulty`` the chunks are formed in order of :func:`metric_speeds`. With
        ``refill``, ``chunk_size`` lanes step together and each takes the next sample when its
        solve ends (:func:`~geobayes.geometry.refilled_lanes.refilled_solves`; sorted: longest
        first). The outputs are the same, in the same order, for every schedule (to rounding
        across kernel widths).
    """
    lanes = schedule.chunk_for(velocities.shape[0])
    if schedule.refill and lanes is not None:
        order = None
        if schedule.sort_by_difficulty:
            order = jnp.argsort(-metric_speeds(metric, posterior, base_point, velocities), stable=True)
        return GeodesicEndpoints(*refilled_solves(
            _geodesic_vector_field, _SOLVERS[ode.solver](), ode, (metric, posterior), base_point, velocities,
            lanes, order))
    return GeodesicEndpoints(*scheduled_map(
        lambda v: _solve_one(metric, posterior, base_point, v, ode),
        velocities,
        schedule,
        difficulty=lambda v: metric_speeds(metric, posterior, base_point, v),
    ))


def result_message(code: int) -> str:
    """Human-readable Diffrax message for an integer result code ('' for success)."""
    messages = diffrax.RESULTS._index_to_message
    if 0 <= code < len(messages):
        return messages[code].splitlines()[0] if messages[code] else "successful"
    return f"unknown result code {code}"
