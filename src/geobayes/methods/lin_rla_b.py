"""lin-riem-LA: Monge-metric geodesics of the linearised network's loss (Bergamin et al. 2023)."""

from __future__ import annotations

import jax

from geobayes.methods import rla_b
from geobayes.methods.base import FitResult, checked_mode
from geobayes.methods.geodesic_laplace import GeodesicConfig
from geobayes.networks.linearise import linearised_posterior

NAME = "lin_rla_b"

Config = GeodesicConfig

#: Predictions use the linearised network at the geodesic endpoint (Bergamin et al. 2023, code).
LINEARISED_PREDICTIONS = True


def fit(posterior, config: GeodesicConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """RLA-B on the linearised posterior: metric ``I + grad L_lin grad L_lin^T``, geodesic ODE of
    Lemma B.3 with ``L_lin`` of Eq. (B.15) (Bergamin et al. 2023, Sec. 3.2)."""
    mode = checked_mode(posterior, mode)
    fitted = rla_b.fit(linearised_posterior(posterior, mode), config, key, mode=mode)
    return FitResult(fitted.approximation, {"method": NAME})
