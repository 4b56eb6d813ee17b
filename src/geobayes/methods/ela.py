"""ELA: the Euclidean Laplace approximation ``N(theta_hat, (-Hess l)^{-1})``."""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.methods.base import ApproximateDraws, FitResult, checked_mode, sample_count
from geobayes.methods.config import MethodConfig, require_config
from geobayes.methods.tangent_gaussian import TangentGaussian

NAME = "ela"


@dataclasses.dataclass(frozen=True)
class LaplaceConfig(MethodConfig):
    """ELA and lin-LA: the tangent Gaussian alone (``precision``)."""


Config = LaplaceConfig


class LaplaceApproximation(eqx.Module):
    """Gaussian ``N(mode, P^{-1})`` (Yu et al. 2024, Sec. 2: RLA with ``G = I``)."""

    tangent: TangentGaussian

    @eqx.filter_jit
    def sample(self, key: jax.Array, n: int) -> ApproximateDraws:
        """``n`` exact draws (no solver: all successful, zero steps)."""
        n = sample_count(n)
        theta = self.tangent.mode + self.tangent.sample_velocities(key, n)
        zeros = jnp.zeros(n, dtype=jnp.int32)
        return ApproximateDraws(theta, jnp.ones(n, dtype=bool), zeros, zeros)

    def log_prob(self, theta: jax.Array) -> jax.Array:
        """Gaussian log density at ``theta`` (shape (D,))."""
        return self.tangent.log_prob_velocity(theta - self.tangent.mode)


def fit(posterior, config: LaplaceConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Fit ELA at ``mode`` with the tangent precision ``config.precision`` (default Hessian).

    Parameters
    ----------
    posterior
        The target.
    config
        The settings (:class:`~geobayes.methods.config.LaplaceConfig`).
    key
        Unused (the fit is deterministic); part of the common ``fit`` protocol.
    mode
        The MAP, shape ``(posterior.dim,)``, finite (else ValueError).
    """
    config = require_config(config, LaplaceConfig, NAME)
    tangent = TangentGaussian.at_mode(posterior, checked_mode(posterior, mode), config.precision)
    return FitResult(LaplaceApproximation(tangent), {"method": NAME})
