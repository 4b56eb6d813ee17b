"""Stein variational gradient descent in coordinates: SVGD and Riemannian SVGD.

* :func:`svgd_direction` — SVGD's functional gradient (Liu & Wang 2016, Eq. (8));
* :func:`rsvgd_direction` — coordinate-space RSVGD's field (Liu & Zhu 2018, Eq. (6)), closed
  form for the Gaussian kernel, with a :class:`DensityConvention` (``"paper"`` vs the official
  code's ``"code"``, notes Sec. 5.4(A)). RSVGD is *not* SVGD with a preconditioner;
* :func:`metric_quantities` / :func:`blr_metric_quantities` — ``G^{-1}``, ``grad log|G|`` and
  the divergence of ``G^{-1}`` by autodiff, or in closed form for Bayesian logistic regression
  (App. A7);
* Gaussian kernel helpers with the median trick or a summed bandwidth list
  (:mod:`~geobayes.svgd.gaussian_kernel`);
* particle optimizers ``gd`` and ``adagrad_momentum`` (:func:`build_optimizer`) and a
  ``lax.scan`` driver (:func:`run_particles`) that counts non-finite particles.
"""

from geobayes.svgd.coordinate_metric import MetricQuantities, blr_metric, blr_metric_quantities, metric_quantities
from geobayes.svgd.gaussian_kernel import (
    BANDWIDTH_NAMES, DEFAULT_BANDWIDTHS, BandwidthSpec, bandwidth_from_name, check_bandwidth, gaussian_kernel, median_bandwidth, pairwise_sq_distances,
    resolve_bandwidths,
)
from geobayes.svgd.particle_optimizers import (
    OPTIMIZERS, AdagradMomentumState, GDState, ParticleOptimizer, adagrad_momentum, build_optimizer, gd,
)
from geobayes.svgd.particle_run import ParticleRun, run_particles
from geobayes.svgd.rsvgd_coordinates import (
    DensityConvention, check_density_convention, rsvgd_direction, rsvgd_field, rsvgd_scores,
)
from geobayes.svgd.svgd_direction import svgd_direction, svgd_field

__all__ = [
    "BANDWIDTH_NAMES", "DEFAULT_BANDWIDTHS", "OPTIMIZERS", "bandwidth_from_name", "AdagradMomentumState", "BandwidthSpec", "DensityConvention", "GDState",
    "MetricQuantities", "ParticleOptimizer", "ParticleRun", "adagrad_momentum", "blr_metric",
    "blr_metric_quantities", "build_optimizer", "check_bandwidth", "check_density_convention", "gaussian_kernel",
    "gd", "median_bandwidth", "metric_quantities", "pairwise_sq_distances", "resolve_bandwidths",
    "rsvgd_direction", "rsvgd_field", "rsvgd_scores", "run_particles", "svgd_direction", "svgd_field",
]
