"""SVGD: Stein variational gradient descent (Liu & Wang 2016) as a leaderboard method."""

from __future__ import annotations

import dataclasses

import jax

from geobayes.methods.base import FitResult, checked_mode
from geobayes.methods.config import MethodConfig, require_config
from geobayes.methods.particles import ParticleSettings, fit_particles
from geobayes.svgd import svgd_field

NAME = "svgd"

#: ``T`` counts iterations: one score (RSVGD: and one metric) evaluation per particle each.
EVALUATIONS_PER_STEP = 1


@dataclasses.dataclass(frozen=True)
class SvgdConfig(MethodConfig):
    """SVGD: its particle settings (``approximation.svgd``; the SVGD code's AdaGrad with momentum and median
    trick by default)."""

    svgd: ParticleSettings = ParticleSettings()


Config = SvgdConfig


def fit(posterior, config: SvgdConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Run SVGD (Liu & Wang 2016, Alg. 1) on ``posterior.grad`` from the Laplace approximation at ``mode``.

    Parameters
    ----------
    posterior
        The target (its ``grad``).
    config
        :class:`SvgdConfig`.
    key
        Draws the initial particles.
    mode
        The MAP, where the initial Laplace approximation sits.
    """
    config = require_config(config, SvgdConfig, NAME)
    mode = checked_mode(posterior, mode)
    settings = config.svgd
    approximation, _ = fit_particles(posterior, mode, config.precision, settings, key,
                                     svgd_field(posterior.grad, settings.bandwidth_spec))
    return FitResult(approximation, {"method": NAME, "n_nonfinite_particles": int(approximation.n_nonfinite)})
