"""WG: the closed-form wrapped Gaussian of Hartmann et al. (2026)."""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax

from geobayes.batching import Schedule
from geobayes.geometry.approximate_exponential_map import ExpMapResult, ExpMapSettings, finish_with_fallback, first_solve
from geobayes.geometry.approximate_log_map import ApproximateLogMap
from geobayes.methods.base import ApproximateDraws, FitResult, checked_mode, sample_count
from geobayes.methods.config import MethodConfig, require_config
from geobayes.methods.tangent_gaussian import TangentGaussian

NAME = "wg"


@dataclasses.dataclass(frozen=True)
class WrappedGaussianConfig(MethodConfig):
    """WG: the least-squares inversion (``approximation.wrapped_gaussian``) and its schedule."""

    wrapped_gaussian: ExpMapSettings = ExpMapSettings()
    schedule: Schedule = Schedule()


Config = WrappedGaussianConfig

#: ``T`` of a sample counts solver iterations: one residual and one Jacobian each for Newton and
#: Levenberg-Marquardt, one residual and no Jacobian for ``fixed_point`` and ``bfgs``, and for
#: ``broyden`` one residual plus one per halving of its line search.
EVALUATIONS_PER_STEP = 1


class WrappedGaussian(eqx.Module):
    """``theta = Exp(V)``, ``V ~ N(0, Sigma_bar)``, with the approximate Exp/Log of Hartmann et al.

    Density (Hartmann et al. 2026, Eq. (9) with the approximate log map of Eq. (15)):
    ``rho(theta) = N(Log(theta) | 0, Sigma_bar) |det D Log(theta)|``. Where ``Log`` is a global
    diffeomorphism (affine embeddings of exponential families, Corollary 1; the Gaussian-image
    targets) this is the density of the samples. Where it is not injective (neural or ODE
    embeddings) the density of the samples is the preimage sum of Eq. (13); :meth:`log_prob`
    then gives the term of the one preimage ``theta`` itself, a lower bound of the sum, and
    the sampler's residuals say whether a preimage of each ``V`` was found at all.

    Parameters
    ----------
    tangent
        ``N(0, Sigma_bar)`` at the base point (``Sigma_bar`` = inverse negative Hessian).
    log_map
        The approximate log map at the same base point.
    settings
        Least-squares settings of Eq. (14).
    schedule
        Chunking of the batched inversion (the draws do not depend on it).
    """

    tangent: TangentGaussian
    log_map: ApproximateLogMap
    settings: ExpMapSettings
    schedule: Schedule = Schedule()

    def sample(self, key: jax.Array, n: int, schedule: Schedule | None = None) -> ApproximateDraws:
        """``n`` samples, each with its solver result code, steps, residual and whether the
        fallback solver solved it again (``schedule`` overrides the fitted one).

        Two programs: the draws of ``V`` with the first solver's inversions, and the fallback on
        the samples left unsolved, compiled and run only for a batch that has any
        (:func:`~geobayes.geometry.approximate_exponential_map.finish_with_fallback`)."""
        velocities, first = self._first(key, sample_count(n), schedule)
        end = finish_with_fallback(self.log_map, velocities, first, self.settings)
        return ApproximateDraws(end.points, end.successful, end.result_code, end.num_steps, end.residual,
                                end.fallback)

    @eqx.filter_jit
    def _first(self, key: jax.Array, n: int, schedule: Schedule | None) -> tuple[jax.Array, ExpMapResult]:
        """``V ~ N(0, Sigma_bar)`` (n rows) and their inversions by the first solver."""
        velocities = self.tangent.sample_velocities(key, n)
        return velocities, first_solve(self.log_map, velocities, self.settings,
                                       self.schedule if schedule is None else schedule)

    def log_prob(self, theta: jax.Array) -> jax.Array:
        """``log N(Log(theta) | 0, Sigma_bar) + log |det D Log(theta)|`` at ``theta`` (shape (D,))."""
        return self.tangent.log_prob_velocity(self.log_map(theta)) + self.log_map.log_abs_det_jacobian(theta)


def fit(posterior, config: WrappedGaussianConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Fit WG at ``mode``: tangent Gaussian with ``config.precision`` (Hessian by default, the
    paper's ``Sigma_bar``) and the approximate log map at the same base point.

    Parameters
    ----------
    posterior
        A target with a contrast description (``family``, ``embed``, ``prior_covariance``).
    config
        :class:`~geobayes.methods.config.WrappedGaussianConfig`; ``wrapped_gaussian`` holds the
        solver settings.
    key
        Unused (the fit is deterministic).
    mode
        Base point: the MAP (the Hausdorff anchor 0 for Neal's funnel, as in the paper).
    """
    config = require_config(config, WrappedGaussianConfig, NAME)
    mode = checked_mode(posterior, mode)
    tangent = TangentGaussian.at_mode(posterior, mode, config.precision)
    settings = config.wrapped_gaussian.resolve(posterior)
    log_map = ApproximateLogMap(posterior, mode)
    return FitResult(WrappedGaussian(tangent, log_map, settings, config.schedule), {"method": NAME})
