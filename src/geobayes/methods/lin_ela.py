"""lin-LA: the Laplace approximation of the network linearised at the MAP (Bergamin et al. 2023)."""

from __future__ import annotations

import jax

from geobayes.methods import ela
from geobayes.methods.base import FitResult, checked_mode
from geobayes.methods.ela import LaplaceConfig
from geobayes.networks.linearise import linearised_posterior

NAME = "lin_ela"

Config = LaplaceConfig

#: Predictions use the linearised network ``f_MAP + J (theta - MAP)`` (Bergamin et al. 2023, Sec. 1.1).
LINEARISED_PREDICTIONS = True


def fit(posterior, config: LaplaceConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Gaussian ``N(mode, (GGN + P)^{-1})``: ELA of the linearised posterior, whose Hessian is the
    GGN plus the prior precision (Immer et al. 2021; Bergamin et al. 2023, App. A). With common
    random numbers its draws equal ELA's with the Fisher (GGN) precision; only the predictive differs."""
    mode = checked_mode(posterior, mode)
    fitted = ela.fit(linearised_posterior(posterior, mode), config, key, mode=mode)
    return FitResult(fitted.approximation, {"method": NAME})
