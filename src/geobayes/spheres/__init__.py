"""RSVGD and geodesic Monte Carlo on (products of) hyperspheres (Liu & Zhu 2018, Sec. SAM).

A point of the product of ``P`` spheres ``S^{n-1}`` is an ``(n, P)`` array with unit-norm
columns (the spherical admixture model's topic matrix ``beta``); a single sphere is ``P = 1``.
Particle sets and chains' outputs are ``(N, n, P)``.

* :mod:`~geobayes.spheres.hypersphere`: tangent projection, exponential map, geodesic flow.
* :mod:`~geobayes.spheres.von_mises_fisher`: Wood's vMF sampler, log density, known moments.
* :mod:`~geobayes.spheres.rsvgd_spheres`: the closed-form RSVGD field with the vMF product
  kernel (Prop. 9 / Eq. 12, normalised kernel), bandwidths (fixed, summed list, median) and
  step-size schedules (fixed, decaying).
* :mod:`~geobayes.spheres.geodesic_monte_carlo`: GMC (Byrne & Girolami 2013) and SGGMC (Liu,
  Zhu & Song 2016), with the paper's "-seq" and "-par" drivers.

Sign conventions: RSVGD takes scores ``+grad log p``; GMC takes the positive log density;
SGGMC takes an estimate of the potential gradient ``grad U = -grad log p``.
"""

from geobayes.spheres import von_mises_fisher
from geobayes.spheres.geodesic_monte_carlo import (
    GMCInfo,
    GMCResult,
    SGGMCState,
    gmc_chain,
    gmc_par,
    gmc_seq,
    gmc_step,
    sggmc_init,
    sggmc_par,
    sggmc_seq,
    sggmc_step,
    sggmc_step_size,
)
from geobayes.spheres.hypersphere import (
    check_points,
    exponential_map,
    geodesic_flow,
    normalize_columns,
    tangent_project,
)
from geobayes.spheres.rsvgd_spheres import (
    SCHEDULES,
    median_bandwidth,
    resolve_bandwidths,
    rsvgd_direction,
    rsvgd_field,
    rsvgd_step,
    rsvgd_update,
    run_rsvgd,
    step_size,
)

__all__ = [
    "GMCInfo",
    "GMCResult",
    "SCHEDULES",
    "SGGMCState",
    "check_points",
    "exponential_map",
    "geodesic_flow",
    "gmc_chain",
    "gmc_par",
    "gmc_seq",
    "gmc_step",
    "median_bandwidth",
    "normalize_columns",
    "resolve_bandwidths",
    "rsvgd_direction",
    "rsvgd_field",
    "rsvgd_step",
    "rsvgd_update",
    "run_rsvgd",
    "sggmc_init",
    "sggmc_par",
    "sggmc_seq",
    "sggmc_step",
    "sggmc_step_size",
    "step_size",
    "tangent_project",
    "von_mises_fisher",
]
