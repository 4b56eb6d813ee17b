"""RLA-F: Riemannian Laplace with the Fisher metric (Yu et al. 2024)."""

from __future__ import annotations

import jax

from geobayes.geometry.fisher import Fisher
from geobayes.methods.base import FitResult
from geobayes.methods.geodesic_laplace import GeodesicConfig, fit_geodesic_laplace

NAME = "rla_f"

Config = GeodesicConfig


def fit(posterior, config: GeodesicConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Fit RLA-F: Fisher metric (Eq. (3)) with its closed-form Christoffel contraction where the
    model has one; precision from ``config.precision`` (Hessian by default).

    Yu et al. (2024), Sec. 4.2-4.3.
    """
    return fit_geodesic_laplace(NAME, Fisher(analytic=True), posterior, config, mode)
