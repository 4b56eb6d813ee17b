"""RSVGD: Riemannian SVGD in coordinates with the Fisher metric (Liu & Zhu 2018, Eq. 6) as a leaderboard method."""

from __future__ import annotations

import dataclasses
import functools

import jax

from geobayes.methods.base import FitResult, checked_mode
from geobayes.methods.config import MethodConfig, require_config
from geobayes.methods.particles import ParticleSettings, fit_particles
from geobayes.svgd import metric_quantities, rsvgd_field

NAME = "rsvgd"

#: ``T`` counts iterations: one score (RSVGD: and one metric) evaluation per particle each.
EVALUATIONS_PER_STEP = 1


@dataclasses.dataclass(frozen=True)
class RsvgdConfig(MethodConfig):
    """RSVGD: its particle settings (``approximation.rsvgd``; plain flow steps, the paper's density convention)."""

    rsvgd: ParticleSettings = ParticleSettings(optimizer="gd", step_size=0.1)


Config = RsvgdConfig


def fit(posterior, config: RsvgdConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Run RSVGD with the posterior's Fisher metric (``posterior.fisher``; ``G^{-1}``, ``grad log|G|`` and the
    divergence of ``G^{-1}`` by autodiff) from the Laplace approximation at ``mode``.

    Parameters
    ----------
    posterior
        The target (its ``grad`` and ``fisher``).
    config
        :class:`RsvgdConfig`.
    key
        Draws the initial particles.
    mode
        The MAP, where the initial Laplace approximation sits.
    """
    config = require_config(config, RsvgdConfig, NAME)
    mode = checked_mode(posterior, mode)
    settings = config.rsvgd
    field = rsvgd_field(posterior.grad, functools.partial(metric_quantities, posterior.fisher), settings.bandwidth_spec,
                        settings.density_convention)
    approximation, _ = fit_particles(posterior, mode, config.precision, settings, key, field)
    return FitResult(approximation, {"method": NAME, "n_nonfinite_particles": int(approximation.n_nonfinite)})
