"""Riemannian Laplace with a mini-batched metric: a fresh data batch drives each geodesic."""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.batching import Schedule, scheduled_map
from geobayes.geometry.exponential_map import OdeSettings, exponential_map, metric_speeds
from geobayes.geometry.monge import Monge
from geobayes.geometry.speed_drift import speed_drift
from geobayes.methods.base import ApproximateDraws, FitResult, checked_mode, sample_count
from geobayes.methods.config import require_config
from geobayes.methods.geodesic_laplace import GeodesicConfig
from geobayes.methods.minibatches import StratifiedBatches, UniformBatches
from geobayes.methods.tangent_gaussian import TangentGaussian
from geobayes.settings import SettingsError
from geobayes.target import Target


@dataclasses.dataclass(frozen=True)
class Minibatch:
    """Bergamin et al.'s (2023, Sec. 3.3) mini-batched metric (``approximation.minibatch``).

    Parameters
    ----------
    size
        Observations in each geodesic's batch.
    stratified
        Draw each batch with the label frequencies of the full data
        (:class:`~geobayes.methods.minibatches.StratifiedBatches`: MNIST / FashionMNIST, 1,000 of
        5,000, App. D.5) instead of uniformly (banana: 150 of 265); needs class labels.
    """

    size: int
    stratified: bool = False

    def __post_init__(self):
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1:
            raise SettingsError(f"approximation.minibatch.size: expected an integer >= 1, got {self.size!r}")
        if not isinstance(self.stratified, bool):
            raise SettingsError(f"approximation.minibatch.stratified: expected true or false, got {self.stratified!r}")


@dataclasses.dataclass(frozen=True)
class MinibatchConfig(GeodesicConfig):
    """riem-LA (batches) and lin-riem-LA (batches): :class:`GeodesicConfig` and the batch size,
    which ``fit`` requires (``None`` until set)."""

    minibatch: Minibatch | None = None


class MinibatchPosterior(Target):
    """``(N / B) log p(y_B | theta) + log p(theta)`` on a batch ``B`` of the data.

    Bergamin et al. (2023), Sec. 3.3: ``L(theta) ~ (N / B) L_B(theta)``; their code scales only the
    data term, never the prior.
    """

    name: str = eqx.field(static=True)
    model: eqx.Module
    data: eqx.Module
    scale: jax.Array

    @property
    def dim(self) -> int:
        """Number of parameters D."""
        return self.model.dim(self.data)

    def logdensity(self, theta: jax.Array) -> jax.Array:
        """Scaled batch log likelihood plus the log prior."""
        return self.scale * self.model.log_likelihood(theta, self.data) + self.model.prior.logdensity(theta)


class MinibatchGeodesicLaplace(eqx.Module):
    """``Exp^{B_s}_{mode}(v_s)``, ``v_s ~ N(0, P^{-1})``: sample ``s`` follows the Monge-metric
    geodesic of its own batch ``B_s`` (drawn without replacement by ``batches``, uniformly or
    stratified by label), while the tangent Gaussian uses all the data (Bergamin et al. 2023,
    Sec. 3.3 and Fig. 6: "a different batch for every posterior sample"). The batch's log
    likelihood is scaled by ``N / B``, the prior is not (:class:`MinibatchPosterior`).

    ``schedule`` chunks the per-sample solves (:class:`~geobayes.batching.Schedule`); sorted
    chunks are ordered by ``|v|`` under the full-data Monge metric at the mode. The draws do
    not depend on it."""

    tangent: TangentGaussian
    posterior: eqx.Module
    batches: UniformBatches | StratifiedBatches
    ode: OdeSettings
    schedule: Schedule = Schedule()

    @property
    def batch_size(self) -> int:
        """Observations in each geodesic's batch."""
        return self.batches.size

    @eqx.filter_jit
    def sample(self, key: jax.Array, n: int, schedule: Schedule | None = None) -> ApproximateDraws:
        """``n`` samples with per-sample result codes and step counts (``schedule`` overrides
        the fitted one)."""
        n = sample_count(n)
        velocities = self.tangent.sample_velocities(key, n)
        data = self.posterior.data
        total = data.X.shape[0]
        batch_keys = jax.random.split(jax.random.fold_in(key, 1), n)
        batches = jax.vmap(self.batches.draw)(batch_keys)
        scale = jnp.asarray(total / self.batch_size, dtype=jnp.float64)

        def one(inputs):
            batch, velocity = inputs
            subset = eqx.tree_at(lambda d: (d.X, d.y), data, (data.X[batch], data.y[batch]))
            target = MinibatchPosterior(self.posterior.name, self.posterior.model, subset, scale)
            end = exponential_map(Monge(alpha2=1.0), target, self.tangent.mode, velocity[None], self.ode)
            drift = speed_drift(Monge(alpha2=1.0), target, self.tangent.mode, velocity[None], end)
            return end.points[0], end.successful[0], end.result_code[0], end.num_steps[0], drift[0]

        mode = self.tangent.mode
        points, successful, codes, steps, drift = scheduled_map(
            one, (batches, velocities), self.schedule if schedule is None else schedule,
            difficulty=lambda xs: metric_speeds(Monge(alpha2=1.0), self.posterior, mode, xs[1]),
        )
        return ApproximateDraws(points, successful, codes, steps, speed_drift=drift)


def fit_minibatch_geodesic(name: str, posterior, config: MinibatchConfig, mode: jax.Array) -> FitResult:
    """Shared ``fit``: the full-data tangent Gaussian and the ``config.minibatch.size`` batch
    (stratified by the labels ``posterior.data.y`` with ``config.minibatch.stratified``).

    Raises
    ------
    ValueError
        If the batch size is missing or above the number of observations, a stratified batch
        meets labels that are not integers, or ``mode`` does not fit ``posterior``.
    """
    config = require_config(config, MinibatchConfig, name)
    size = None if config.minibatch is None else config.minibatch.size
    total = int(posterior.data.X.shape[0])
    if size is None or not 1 <= size <= total:
        raise ValueError(f"{posterior.name}: approximation.minibatch.size must be in [1, {total}], got {size!r}")
    if config.minibatch.stratified:
        try:
            batches = StratifiedBatches.from_labels(posterior.data.y, size)
        except ValueError as error:
            raise ValueError(f"{posterior.name}: approximation.minibatch.stratified: {error}") from None
    else:
        batches = UniformBatches(total, size)
    tangent = TangentGaussian.at_mode(posterior, checked_mode(posterior, mode), config.precision)
    approximation = MinibatchGeodesicLaplace(tangent, posterior, batches, config.ode, config.schedule)
    return FitResult(approximation, {"method": name, "batch_size": size,
                                     "stratified": config.minibatch.stratified})
