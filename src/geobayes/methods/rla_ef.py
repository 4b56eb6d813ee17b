"""RLA-EF: Riemannian Laplace with the empirical Fisher metric (Yu et al. 2024, Supp. 16.6)."""

from __future__ import annotations

import jax

from geobayes.geometry.empirical_fisher import EmpiricalFisher, require_observation_terms
from geobayes.methods.base import FitResult
from geobayes.methods.geodesic_laplace import GeodesicConfig, fit_geodesic_laplace

NAME = "rla_ef"

Config = GeodesicConfig


def fit(posterior, config: GeodesicConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Fit RLA-EF: metric ``sum_n s_n s_n^T + prior precision`` with the generic autodiff
    Christoffel contraction; precision from ``config.precision`` (Hessian by default).

    Yu et al. (2024), Supp. 16.6 and Algorithm 1.

    Raises
    ------
    TypeError
        If ``posterior`` has no per-observation log likelihoods (a closed-form target).
    """
    require_observation_terms(posterior)
    return fit_geodesic_laplace(NAME, EmpiricalFisher(), posterior, config, mode)
