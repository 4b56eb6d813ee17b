"""lin-riem-LA with a mini-batched metric (Bergamin et al. 2023, App. D.1, Fig. D.4 e-f)."""

from __future__ import annotations

import jax

from geobayes.methods.base import FitResult, checked_mode
from geobayes.methods.minibatch_geodesic import MinibatchConfig, fit_minibatch_geodesic
from geobayes.networks.linearise import linearised_posterior

NAME = "lin_rla_b_batched"

Config = MinibatchConfig

#: Predictions use the linearised network at the geodesic endpoint.
LINEARISED_PREDICTIONS = True


def fit(posterior, config: MinibatchConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """Batched geodesics of the linearised loss: the paper's remedy for the two-layer network,
    whose full-data linearised geodesics overfit (Bergamin et al. 2023, Sec. 3.3 and Fig. D.4)."""
    mode = checked_mode(posterior, mode)
    return fit_minibatch_geodesic(NAME, linearised_posterior(posterior, mode), config, mode)
