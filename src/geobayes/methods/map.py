"""MAP: the point mass at the anchor, the tables' "map" row (Bergamin et al. 2023, Tables 1-10).

Its "samples" are ``n`` copies of the mode, so every predictive and distance of the pipeline treats
the point estimate like any approximation: the predictive of the MAP network ``f_{theta*}``
(Bergamin et al. 2023, Sec. 5; notes Sec. 1.6 step 7), and, on a posterior with a reference, the
Wasserstein distance of a Dirac at the mode (a baseline every spread-out method should beat).
"""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.methods.base import ApproximateDraws, FitResult, checked_mode, sample_count
from geobayes.methods.config import MethodConfig, require_config

NAME = "map"


@dataclasses.dataclass(frozen=True)
class PointMassConfig(MethodConfig):
    """No settings of its own (the shared ``precision`` is unused)."""


Config = PointMassConfig


class PointMass(eqx.Module):
    """The Dirac measure at ``mode``."""

    mode: jax.Array

    @eqx.filter_jit
    def sample(self, key: jax.Array, n: int) -> ApproximateDraws:
        """``n`` copies of the mode (all successful, no solver steps); ``key`` is unused."""
        n = sample_count(n)
        zeros = jnp.zeros(n, dtype=jnp.int32)
        return ApproximateDraws(jnp.broadcast_to(self.mode, (n, self.mode.shape[0])), jnp.ones(n, dtype=bool),
                                zeros, zeros)


def fit(posterior, config: PointMassConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """The point mass at ``mode`` (shape ``(posterior.dim,)``, finite, else ValueError)."""
    config = require_config(config, PointMassConfig, NAME)
    return FitResult(PointMass(jnp.asarray(checked_mode(posterior, mode), dtype=jnp.float64)), {"method": NAME})
