"""RLA-B: Riemannian Laplace with the Monge metric (Bergamin et al. 2023)."""

from __future__ import annotations

import jax

from geobayes.geometry.monge import Monge
from geobayes.methods.base import FitResult
from geobayes.methods.geodesic_laplace import GeodesicConfig, fit_geodesic_laplace

NAME = "rla_b"

Config = GeodesicConfig


def fit(posterior, config: GeodesicConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Fit RLA-B: metric ``I + grad l grad l^T``, Hessian precision at the Euclidean MAP.

    Bergamin et al. (2023), Sec. 3; Yu et al. (2024), Sec. 3 and Algorithm 1.
    """
    return fit_geodesic_laplace(NAME, Monge(alpha2=1.0), posterior, config, mode)
