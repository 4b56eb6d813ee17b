"""Particle approximations (SVGD, RSVGD) as methods of the leaderboard: settings, the fitted particle set.

A particle method's approximation is the empirical measure of its ``N`` particles after ``T``
iterations (Liu & Wang 2016; Liu & Zhu 2018). The particles start from the Laplace approximation at
the mode (the leaderboard's posteriors have no common proper prior to start from, as Liu & Zhu's
``N(0, alpha I)``), and ``sample(key, n)`` returns them in a random order, drawing with
replacement where ``n > N``: a W to the reference then measures the particle set itself.
"""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.methods.base import ApproximateDraws, sample_count
from geobayes.methods.tangent_gaussian import TangentGaussian
from geobayes.settings import SettingsError
from geobayes.svgd import BANDWIDTH_NAMES, ParticleRun, bandwidth_from_name, build_optimizer, run_particles

__all__ = ["ParticleApproximation", "ParticleSettings", "fit_particles"]


@dataclasses.dataclass(frozen=True)
class ParticleSettings:
    """Settings of one particle method (config ``approximation.svgd`` / ``approximation.rsvgd``).

    Parameters
    ----------
    particles
        ``N``.
    iterations
        ``T``.
    step_size
        ``epsilon`` of the optimizer.
    optimizer
        ``gd`` (RSVGD's plain flow steps) or ``adagrad_momentum`` (the SVGD code's).
    bandwidth
        ``median`` (the median trick) or ``summed`` (Liu & Zhu's list of nine bandwidths).
    density_convention
        RSVGD only: ``paper`` (the posterior is the fixed point) or ``code`` (notes 5.4 A).
    """

    particles: int = 100
    iterations: int = 500
    step_size: float = 0.05
    optimizer: str = "adagrad_momentum"
    bandwidth: str = "median"
    density_convention: str = "paper"

    def __post_init__(self):
        if self.particles < 2 or self.iterations < 1:
            raise SettingsError(f"particles must be >= 2 and iterations >= 1, got {self.particles} and {self.iterations}")
        if self.bandwidth not in BANDWIDTH_NAMES:
            raise SettingsError(f"bandwidth: expected one of {list(BANDWIDTH_NAMES)}, got {self.bandwidth!r}")
        try:
            build_optimizer(self.optimizer, self.step_size)
        except ValueError as error:
            raise SettingsError(str(error)) from None

    @property
    def bandwidth_spec(self):
        """The kernel's bandwidth as :mod:`geobayes.svgd.gaussian_kernel` takes it."""
        return bandwidth_from_name(self.bandwidth)


class ParticleApproximation(eqx.Module):
    """The empirical measure of a particle set (shape (N, D)); ``n_nonfinite`` particles are not finite.

    Each draw reports ``iterations`` steps: a particle took one score (and, for RSVGD, one metric) evaluation per
    iteration, so the cost ``T`` of Yu et al. (2024) counts them.
    """

    particles: jax.Array
    n_nonfinite: jax.Array
    iterations: int = eqx.field(static=True, default=0)

    def sample(self, key: jax.Array, n: int) -> ApproximateDraws:
        """``n`` particles in a random order (with replacement where ``n > N``); a non-finite particle is a
        failed draw, counted."""
        n = sample_count(n)
        count = self.particles.shape[0]
        index = (jax.random.permutation(key, count)[:n] if n <= count
                 else jax.random.choice(key, count, (n,), replace=True))
        theta = self.particles[index]
        ok = jnp.all(jnp.isfinite(theta), axis=1)
        steps = jnp.full(n, self.iterations, dtype=jnp.int32)
        return ApproximateDraws(theta, ok, jnp.where(ok, 0, 1).astype(jnp.int32), steps)


def fit_particles(posterior, mode: jax.Array, precision, settings: ParticleSettings, key: jax.Array,
                  direction_fn) -> tuple[ParticleApproximation, ParticleRun]:
    """Run ``direction_fn`` from ``N`` draws of the Laplace approximation at ``mode`` for ``T`` iterations."""
    tangent = TangentGaussian.at_mode(posterior, mode, precision)
    start = mode + tangent.sample_velocities(key, settings.particles)
    optimizer = build_optimizer(settings.optimizer, settings.step_size)
    run = run_particles(direction_fn, optimizer, start, settings.iterations, settings.iterations,
                        record_fn=lambda x: jnp.zeros(()))
    nonfinite = jnp.sum(~jnp.all(jnp.isfinite(run.particles), axis=1))
    return ParticleApproximation(run.particles, nonfinite, settings.iterations), run
