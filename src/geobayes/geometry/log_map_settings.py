"""Settings of RLA-BLog's shooting log map (:func:`geobayes.geometry.logarithmic_map.logarithmic_map`)."""

from __future__ import annotations

import equinox as eqx

from geobayes.geometry.exponential_map import OdeSettings

#: Exp-map settings of the shots: two orders of magnitude below the default residual
#: tolerance, so that the shots' own error does not set the floor of the residual.
SHOT_ODE = OdeSettings(solver="dopri5", rtol=1e-8, atol=1e-10, max_steps=4096)

#: Correctors of a continuation stage (``LogMapSettings.corrector``).
CORRECTORS = ("chord", "newton")
#: Fallbacks for the targets the chord corrector leaves unsolved (``LogMapSettings.fallback``).
FALLBACKS = ("newton", "none")
#: Newton iterations of a stage in the fallback (the cap Yu et al.'s networks were solved with).
NEWTON_STAGE_MAX_STEPS = 10


class LogMapSettings(eqx.Module):
    """Settings of the shooting solve of ``Log_base(target)`` (see :func:`~geobayes.geometry.logarithmic_map.logarithmic_map`).

    Yu et al. (2024) solved this boundary value problem with SciPy ``solve_bvp`` at its
    default tolerance ``1e-3`` (notes Sec. 1.5). The defaults here are tight: endpoint
    residual ``|F(v)|_max < atol = 1e-8`` and shots at ``rtol = 1e-8``, ``atol = 1e-10``. A
    residual of ``1e-3`` would put an error into the RLA-BLog samples far above that of the
    Exp map they feed; the shots are two orders tighter than the residual so that their
    discretisation noise (the step sequence changes with the velocity) does not stall Newton.

    Parameters
    ----------
    corrector
        How a continuation stage corrects its predicted velocity onto the branch:

        * ``"chord"`` (default): the chord method, ``v <- v - J^{-1} F(v)`` with the LU factors
          of the shot's Jacobian ``J`` at the last accepted velocity, the Jacobian the
          branch tangent needs anyway. One Jacobian (the shot with its ``D`` Jacobi fields,
          :func:`~geobayes.geometry.geodesic_jacobian.exponential_map_jacobian`) per accepted
          stage; each iteration costs one shot. Converges linearly, so a stage takes more
          iterations than Newton's, each ~10x cheaper at D = 31 (~40x with the forward-mode
          Jacobian of earlier releases).
        * ``"newton"``: Newton's method, a fresh Jacobian every iteration (the corrector of
          earlier releases, then ``optimistix.Newton``; now the same loop as the chord's with
          the Jacobian refreshed, same iterations on the networks' targets).

        Both reach the same velocity where the branch is unique; see the Notes of
        :func:`~geobayes.geometry.logarithmic_map.logarithmic_map` for where they differ.
    fallback
        With the chord corrector, ``"newton"`` (default) solves the targets it left unsolved
        again, from the start, with Newton's corrector (:data:`NEWTON_STAGE_MAX_STEPS`
        iterations a stage, the same budget), and only those (``LogMapResult.fallback``);
        ``"none"`` keeps them as failures. Next to a conjugate point the chord's kept Jacobian
        can fail at any stage length where Newton's fresh ones converge (3 of 8 targets on a
        raw-input Snelson network). Ignored with Newton's corrector.
    rtol, atol
        Tolerances of each corrector solve: it stops once ``|F(v)|_max < atol`` and its last
        step is below ``atol + rtol |v|`` componentwise. The returned velocity must also
        satisfy ``|F(v)|_max < atol``.
    max_steps
        Budget of corrector iterations per target over all continuation stages, rejected
        ones included; a stage starts only while budget is left.
    stage_max_steps
        Corrector iterations of one stage (capped at ``max_steps``). From a good predictor
        Newton converges in a few and the chord method in tens; a stage that needs more is
        retried with half the step.
    first_stage
        Length of the first continuation step, as a fraction of the way to the target
        (``1`` = plain shooting from the paper's linear guess first).
    min_stage
        Shortest continuation step before the target is given up.
    batch_size
        Targets solved in lock-step under ``vmap`` (``jax.lax.map`` semantics): ``1`` solves
        them one after another, ``0`` all at once, ``k`` in chunks of ``k``. Under ``vmap``
        every loop runs until its slowest member is done: on CPU one at a time was 2-7x
        faster (Notes of :func:`~geobayes.geometry.logarithmic_map.logarithmic_map`); on an accelerator batches should pay.
        Under ``vmap`` the conditional Jacobians (the chord's kept one, Newton's refresh, the
        fallback pass) become selects that compute both branches, so a batch pays a Jacobian
        every iteration, as Newton's corrector does (not measured).
    ode_rtol, ode_atol, ode_max_steps
        Dopri5 settings of each shot (:attr:`ode`).

    Built from the ``approximation.log_map`` config slice by
    :func:`geobayes.settings.from_mapping`; an absent key keeps its default.
    """

    corrector: str = eqx.field(default="chord", static=True)
    fallback: str = eqx.field(default="newton", static=True)
    rtol: float = eqx.field(default=1e-6, static=True)
    atol: float = eqx.field(default=1e-8, static=True)
    max_steps: int = eqx.field(default=1024, static=True)
    stage_max_steps: int = eqx.field(default=32, static=True)
    first_stage: float = eqx.field(default=0.25, static=True)
    min_stage: float = eqx.field(default=1.0 / 1024, static=True)
    batch_size: int = eqx.field(default=1, static=True)
    ode_rtol: float = eqx.field(default=SHOT_ODE.rtol, static=True)
    ode_atol: float = eqx.field(default=SHOT_ODE.atol, static=True)
    ode_max_steps: int = eqx.field(default=SHOT_ODE.max_steps, static=True)

    @property
    def has_fallback(self) -> bool:
        """Whether targets the chord corrector leaves unsolved are solved again by Newton's."""
        return self.corrector == "chord" and self.fallback == "newton"

    @property
    def ode(self) -> OdeSettings:
        """Exp-map solver settings of each shot (Dopri5)."""
        return OdeSettings(solver="dopri5", rtol=self.ode_rtol, atol=self.ode_atol, max_steps=self.ode_max_steps)

    def __check_init__(self):
        self.ode  # noqa: B018 - raises naming approximation.ode where the shot settings are bad
        if self.corrector not in CORRECTORS:
            raise ValueError(
                f"approximation.log_map.corrector: expected one of {', '.join(CORRECTORS)}, "
                f"got {self.corrector!r}"
            )
        if self.fallback not in FALLBACKS:
            raise ValueError(
                f"approximation.log_map.fallback: expected one of {', '.join(FALLBACKS)}, "
                f"got {self.fallback!r}"
            )
        if not (self.rtol > 0 and self.atol > 0):
            raise ValueError(
                "approximation.log_map: rtol and atol must be > 0, got "
                f"rtol={self.rtol}, atol={self.atol}"
            )
        if not (self.max_steps >= 1 and self.stage_max_steps >= 1):
            raise ValueError(
                "approximation.log_map: max_steps and stage_max_steps must be >= 1, got "
                f"max_steps={self.max_steps}, stage_max_steps={self.stage_max_steps}"
            )
        if not (isinstance(self.batch_size, int) and self.batch_size >= 0):
            raise ValueError(
                "approximation.log_map.batch_size: must be an integer >= 0, got "
                f"{self.batch_size!r}"
            )
        if not 0 < self.min_stage <= self.first_stage <= 1:
            raise ValueError(
                "approximation.log_map: need 0 < min_stage <= first_stage <= 1, got "
                f"min_stage={self.min_stage}, first_stage={self.first_stage}"
            )
