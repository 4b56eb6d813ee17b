"""Riemannian Laplace approximation: a tangent Gaussian pushed through a geodesic Exp map."""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax

from geobayes.batching import Schedule
from geobayes.geometry.exponential_map import OdeSettings, exponential_map
from geobayes.geometry.metric import Metric
from geobayes.geometry.speed_drift import speed_drift
from geobayes.methods.base import ApproximateDraws, FitResult, checked_mode, sample_count
from geobayes.methods.config import MethodConfig, require_config
from geobayes.methods.tangent_gaussian import TangentGaussian


@dataclasses.dataclass(frozen=True)
class GeodesicConfig(MethodConfig):
    """RLA-B, RLA-F, RLA-EF, lin-riem-LA: a tangent Gaussian pushed through the Exp map.

    Parameters
    ----------
    ode
        Solver of the geodesic IVP (``approximation.ode``).
    schedule
        Chunking of the batched solves (``approximation.schedule``).
    """

    ode: OdeSettings = OdeSettings()
    schedule: Schedule = Schedule()


class GeodesicLaplace(eqx.Module):
    """Wrapped Gaussian ``Exp_{theta_hat}(v)``, ``v ~ N(0, P^{-1})`` (Yu et al. 2024, Alg. 1).

    Parameters
    ----------
    tangent
        The tangent Gaussian at the MAP.
    metric
        Metric whose geodesics carry the samples (Monge for RLA-B, Fisher for RLA-F).
    posterior
        The target (needed by the metric).
    ode
        Solver settings of the exponential map.
    schedule
        Chunking / difficulty sorting of the batched Exp map (same draws for every schedule).
    """

    tangent: TangentGaussian
    metric: Metric
    posterior: eqx.Module
    ode: OdeSettings
    schedule: Schedule = Schedule()

    @eqx.filter_jit
    def sample(self, key: jax.Array, n: int, schedule: Schedule | None = None) -> ApproximateDraws:
        """``n`` samples, each with its solver result code and step count.

        ``schedule`` overrides the fitted one (the draws do not depend on it).
        """
        n = sample_count(n)
        velocities = self.tangent.sample_velocities(key, n)
        end = exponential_map(self.metric, self.posterior, self.tangent.mode, velocities, self.ode,
                              self.schedule if schedule is None else schedule)
        drift = speed_drift(self.metric, self.posterior, self.tangent.mode, velocities, end)
        return ApproximateDraws(end.points, end.successful, end.result_code, end.num_steps, speed_drift=drift)


def fit_geodesic_laplace(
    name: str, metric: Metric, posterior, config: GeodesicConfig, mode: jax.Array
) -> FitResult:
    """Shared ``fit`` of the geodesic family: tangent Gaussian at ``mode`` + the given metric.

    Raises
    ------
    ValueError
        If ``mode`` does not fit ``posterior`` (:func:`~geobayes.methods.base.checked_mode`).
    TypeError
        If ``config`` is not a :class:`~geobayes.methods.config.GeodesicConfig`.
    """
    config = require_config(config, GeodesicConfig, name)
    tangent = TangentGaussian.at_mode(posterior, checked_mode(posterior, mode), config.precision)
    return FitResult(GeodesicLaplace(tangent, metric, posterior, config.ode, config.schedule),
                     {"method": name})
