"""riem-LA with a mini-batched Monge metric (Bergamin et al. 2023, Sec. 3.3, "batches")."""

from __future__ import annotations

import jax

from geobayes.methods.base import FitResult
from geobayes.methods.minibatch_geodesic import MinibatchConfig, fit_minibatch_geodesic

NAME = "rla_b_batched"

Config = MinibatchConfig


def fit(posterior, config: MinibatchConfig, key: jax.Array, *, mode: jax.Array) -> FitResult:
    """RLA-B whose geodesic of sample ``s`` uses a fresh batch of ``approximation.minibatch.size``
    observations (stratified by label with ``minibatch.stratified``), scaled by ``N / B`` (Bergamin
    et al. 2023, Sec. 3.3 and App. D.5)."""
    return fit_minibatch_geodesic(NAME, posterior, config, mode)
