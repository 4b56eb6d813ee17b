"""RLA-BLog: RLA-B preceded by the logarithmic map of the Laplace Gaussian's Monge metric."""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.batching import Schedule
from geobayes.geometry.exponential_map import OdeSettings, exponential_map
from geobayes.geometry.gaussian_monge import GaussianMonge
from geobayes.geometry.logarithmic_map import LogMapResult, LogMapSettings, logarithmic_map
from geobayes.geometry.monge import Monge
from geobayes.geometry.speed_drift import speed_drift
from geobayes.methods.base import ApproximateDraws, FitResult, checked_mode, sample_count
from geobayes.methods.config import require_config
from geobayes.methods.geodesic_laplace import GeodesicConfig
from geobayes.methods.tangent_gaussian import TangentGaussian

NAME = "rla_blog"


@dataclasses.dataclass(frozen=True)
class LogExpConfig(GeodesicConfig):
    """RLA-BLog: :class:`~geobayes.methods.geodesic_laplace.GeodesicConfig` and the shooting log
    map (``approximation.log_map``)."""

    log_map: LogMapSettings = LogMapSettings()


Config = LogExpConfig

#: ``result_code`` of a draw whose log map failed: this offset plus the Optimistix code of
#: the log map (so ``>= 100``); codes below it are Diffrax codes of the Exp map.
LOG_MAP_FAILURE_OFFSET = 100


class LogExpLaplace(eqx.Module):
    r"""``theta = Exp_{M, m}(Log_{calP, m}(m + thetabar))``, ``thetabar ~ N(0, P^{-1})``.

    Yu et al. (2024), Sec. 4.1 and Algorithm 2. ``calP`` (the paper's :math:`\mathcal P`) is
    the manifold of the Monge metric of the Laplace Gaussian ``N(m, P^{-1})``
    (:class:`~geobayes.geometry.gaussian_monge.GaussianMonge`), ``M`` that of the target's
    Monge metric ``I + grad l grad l^T`` (RLA-B's). Both metrics are ``I`` at the mode ``m``,
    so the two tangent spaces coincide, and the map is exact for a Gaussian target (then
    ``M = calP``).

    Parameters
    ----------
    tangent
        The Laplace Gaussian at the mode (its precision ``P`` defines ``calP``).
    posterior
        The target (needed by the Monge metric of ``M``).
    ode
        Solver settings of the Exp map.
    log_map
        Settings of the log map (shooting with continuation).
    schedule
        Chunking / difficulty sorting of the batched Exp map. The log map is chunked by
        ``log_map.batch_size`` (see :func:`fit`). The draws do not depend on either.
    """

    tangent: TangentGaussian
    posterior: eqx.Module
    ode: OdeSettings
    log_map: LogMapSettings
    schedule: Schedule = Schedule()

    @property
    def gaussian_metric(self) -> GaussianMonge:
        """Metric of the manifold ``calP``: the Monge metric of ``N(m, P^{-1})``."""
        chol = self.tangent.precision_cholesky
        return GaussianMonge(mean=self.tangent.mode, precision=chol @ chol.T)

    @eqx.filter_jit
    def sample_with_log_map(self, key: jax.Array, n: int,
                            schedule: Schedule | None = None) -> tuple[ApproximateDraws, LogMapResult]:
        """``n`` samples and the per-sample outcome of their log maps.

        The base draws ``thetabar = tangent.sample_velocities(key, n)`` are the same as those
        of ELA and RLA-B for the same key (common random numbers). Where the log map fails the
        draw is failed: ``successful`` False, ``result_code = LOG_MAP_FAILURE_OFFSET +`` the
        Optimistix code, ``theta`` NaN and ``num_steps`` 0 (no Exp map is run for it).
        Elsewhere ``result_code`` and ``num_steps`` are those of the Exp map: the cost ``T``
        of Yu et al. (2024), Sec. 5, counts Exp-map evaluations only; the log-map cost is in
        the returned :class:`~geobayes.geometry.logarithmic_map.LogMapResult`. ``schedule``
        overrides the fitted schedule of the Exp map.
        """
        n = sample_count(n)
        mode = self.tangent.mode
        base = self.tangent.sample_velocities(key, n)
        log = logarithmic_map(self.gaussian_metric, None, mode, mode + base, self.log_map)
        velocities = jnp.where(log.successful[:, None], log.velocities, 0.0)
        end = exponential_map(Monge(alpha2=1.0), self.posterior, mode, velocities, self.ode,
                              self.schedule if schedule is None else schedule)
        draws = ApproximateDraws(
            theta=jnp.where(log.successful[:, None], end.points, jnp.nan),
            successful=log.successful & end.successful,
            result_code=jnp.where(
                log.successful, end.result_code, LOG_MAP_FAILURE_OFFSET + log.result_code
            ),
            num_steps=jnp.where(log.successful, end.num_steps, 0),
            speed_drift=jnp.where(log.successful, speed_drift(Monge(alpha2=1.0), self.posterior, mode, velocities, end),
                                  jnp.nan),
        )
        return draws, log

    def sample(self, key: jax.Array, n: int, schedule: Schedule | None = None) -> ApproximateDraws:
        """``n`` samples, each with its solver result code and Exp-map step count."""
        return self.sample_with_log_map(key, n, schedule)[0]


def fit(posterior, config: LogExpConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Fit RLA-BLog at ``mode`` (Yu et al. 2024, Sec. 4.1, Algorithm 2).

    Parameters
    ----------
    posterior
        The target.
    config
        :class:`~geobayes.methods.config.LogExpConfig`: ``precision``, ``ode`` (the Exp map),
        ``log_map`` (:class:`LogMapSettings`) and ``schedule``. A log map run all at once
        (``log_map.batch_size: 0``) is chunked by ``schedule.chunk_size``; its default, one
        target at a time, already holds one target in memory.
    key
        Unused (the fit is deterministic); part of the common ``fit`` protocol.
    mode
        The MAP.
    """
    config = require_config(config, LogExpConfig, NAME)
    tangent = TangentGaussian.at_mode(posterior, checked_mode(posterior, mode), config.precision)
    log_map, schedule = config.log_map, config.schedule
    if log_map.batch_size == 0 and schedule.chunk_size is not None:
        log_map = dataclasses.replace(log_map, batch_size=schedule.chunk_size)
    return FitResult(LogExpLaplace(tangent, posterior, config.ode, log_map, schedule), {"method": NAME})
