"""Batched logarithmic maps: the geodesic boundary value problem solved by shooting."""

from __future__ import annotations

from typing import NamedTuple

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import optimistix as optx

from geobayes.geometry.exponential_map import _SOLVERS, OdeSettings, _geodesic_vector_field
from geobayes.geometry.metric import Metric

#: Exp-map settings of the inner shots: tight, so that the endpoint residual can get far
#: below the root-finding tolerance (the shots' own error sets the floor of the residual).
TIGHT_SHOT_ODE = OdeSettings(solver="dopri5", rtol=1e-8, atol=1e-10, max_steps=4096)

_CONFIG_KEYS = ("rtol", "atol", "max_steps", "ode_rtol", "ode_atol", "ode_max_steps")


class LogMapSettings(eqx.Module):
    """Settings of the shooting solve of ``Log_base(target)``.

    Yu et al. (2024) solved this boundary value problem with SciPy ``solve_bvp`` at its
    default tolerance ``1e-3`` (notes Sec. 1.5). Shooting is used here instead: Newton's
    method on the initial velocity, each residual one Exp-map solve. A tolerance of ``1e-3``
    would leave an error in the RLA-BLog samples far above that of the Exp map they feed, so
    the defaults are tight: endpoint residual ``<= atol + rtol |target - base|`` with
    ``atol = 1e-8``, ``rtol = 1e-6``, and inner shots at ``rtol = 1e-8``, ``atol = 1e-10``
    (two orders below the residual tolerance, so that the discretisation noise of the shots
    -- their step sequence changes with the velocity -- does not stall Newton).

    Parameters
    ----------
    rtol, atol
        Tolerances of the root find: Optimistix's Newton stops once ``|F(v)|_max < atol``
        and its step is below ``atol + rtol |v|``; the returned velocity must then also
        satisfy ``|F(v)|_2 <= atol + rtol |target - base|_2``.
    max_steps
        Maximum number of Newton iterations.
    ode
        Exp-map solver settings of each shot.
    """

    rtol: float = eqx.field(default=1e-6, static=True)
    atol: float = eqx.field(default=1e-8, static=True)
    max_steps: int = eqx.field(default=32, static=True)
    ode: OdeSettings = TIGHT_SHOT_ODE

    def __check_init__(self):
        if not (self.rtol > 0 and self.atol > 0 and self.max_steps >= 1):
            raise ValueError(
                "approximation.log_map: rtol and atol must be > 0 and max_steps >= 1, got "
                f"rtol={self.rtol}, atol={self.atol}, max_steps={self.max_steps}"
            )

    @classmethod
    def from_config(cls, config: dict) -> LogMapSettings:
        """Build from the ``approximation.log_map`` config slice.

        Keys ``rtol, atol, max_steps`` (root find) and ``ode_rtol, ode_atol, ode_max_steps``
        (the shots, Dopri5).

        Raises
        ------
        ValueError
            Naming the missing or malformed key.
        """
        if not isinstance(config, dict):
            raise ValueError(
                f"approximation.log_map: expected a mapping, got {type(config).__name__}"
            )
        values = {}
        for key in _CONFIG_KEYS:
            if key not in config:
                raise ValueError(f"approximation.log_map.{key}: missing (required: {_CONFIG_KEYS})")
            convert = int if key.endswith("max_steps") else float
            raw = config[key]
            try:
                if isinstance(raw, bool):
                    raise TypeError
                values[key] = convert(raw)
                if convert is int and values[key] != float(raw):
                    raise ValueError
            except (TypeError, ValueError):
                raise ValueError(
                    f"approximation.log_map.{key}: expected a {convert.__name__}, got {raw!r}"
                ) from None
        unknown = sorted(set(config) - set(_CONFIG_KEYS))
        if unknown:
            raise ValueError(f"approximation.log_map: unknown keys {unknown}")
        ode = OdeSettings(
            solver="dopri5",
            rtol=values["ode_rtol"],
            atol=values["ode_atol"],
            max_steps=values["ode_max_steps"],
        )
        return cls(
            rtol=values["rtol"], atol=values["atol"], max_steps=values["max_steps"], ode=ode
        )


class LogMapResult(NamedTuple):
    """Initial velocities ``Log_base(target)`` of a batch of targets, with per-target outcome.

    Attributes
    ----------
    velocities
        Initial velocities, shape (n, D). Where the solve failed this is the last Newton
        iterate: mask it with ``successful``.
    successful
        True where Newton converged, the final endpoint residual is finite and within
        tolerance, shape (n,).
    result_code
        Optimistix result code of the root find (0 = success, 7 = max steps reached, ...),
        shape (n,). A converged root find whose final residual check fails keeps code 0 but
        ``successful`` False.
    num_steps
        Newton iterations, shape (n,).
    residual
        ``|Exp_base(v) - target|_2`` at the returned velocity, shape (n,); NaN where the
        final shot failed.
    """

    velocities: jax.Array
    successful: jax.Array
    result_code: jax.Array
    num_steps: jax.Array
    residual: jax.Array


def _shot_residual(velocity, args):
    """``F(v) = Exp_base(v) - target``: one geodesic IVP, forward-differentiable.

    NaN where the shot itself failed, so Newton stops with a non-finite result instead of
    chasing an endpoint the solver never reached.
    """
    metric, posterior, base_point, target, ode = args
    solution = diffrax.diffeqsolve(
        diffrax.ODETerm(_geodesic_vector_field),
        _SOLVERS[ode.solver](),
        t0=0.0,
        t1=1.0,
        dt0=None,
        y0=(base_point, velocity),
        args=(metric, posterior),
        stepsize_controller=diffrax.PIDController(rtol=ode.rtol, atol=ode.atol),
        saveat=diffrax.SaveAt(t1=True),
        max_steps=ode.max_steps,
        adjoint=diffrax.ForwardMode(),
        throw=False,
    )
    shot_ok = solution.result == diffrax.RESULTS.successful
    return jnp.where(shot_ok, solution.ys[0][-1] - target, jnp.nan)


def _log_one(metric, posterior, base_point, target, settings: LogMapSettings):
    args = (metric, posterior, base_point, target, settings.ode)
    initial_guess = target - base_point
    solution = optx.root_find(
        _shot_residual,
        optx.Newton(rtol=settings.rtol, atol=settings.atol),
        initial_guess,
        args=args,
        max_steps=settings.max_steps,
        throw=False,
    )
    velocity = solution.value
    residual = jnp.linalg.norm(_shot_residual(velocity, args))
    tolerance = settings.atol + settings.rtol * jnp.linalg.norm(initial_guess)
    code = solution.result._value
    successful = (
        (code == 0)
        & jnp.all(jnp.isfinite(velocity))
        & jnp.isfinite(residual)
        & (residual <= tolerance)
    )
    return velocity, successful, code, solution.stats["num_steps"], residual


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
    geodesic ODE (Yu et al. 2024, Supp. 12; Algorithm 2 of Sec. 4.1) is solved for the
    initial velocity ``v`` with Newton's method (``optimistix.root_find``) on
    ``F(v) = Exp_{base_point}(v) - x``; each ``F`` is one Diffrax solve, differentiated in
    forward mode (``diffrax.ForwardMode``). The initial guess is the straight line,
    ``v0 = x - base_point``, as in the paper's ``solve_bvp`` call. Targets are solved
    independently under ``vmap`` with ``throw=False``: a failed log map is reported in the
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
        Root-finding and shot settings.

    Returns
    -------
    LogMapResult
        Velocities and per-target outcome.
    """
    base_point = jnp.asarray(base_point)
    targets = jnp.asarray(targets)
    if base_point.ndim != 1 or targets.ndim != 2 or targets.shape[1] != base_point.shape[0]:
        raise ValueError(
            "logarithmic_map: base_point must have shape (D,) and targets shape (n, D); got "
            f"{base_point.shape} and {targets.shape}"
        )
    velocities, successful, codes, steps, residuals = jax.vmap(
        lambda x: _log_one(metric, posterior, base_point, x, settings)
    )(targets)
    return LogMapResult(velocities, successful, codes, steps, residuals)
