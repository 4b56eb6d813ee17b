"""The Euclidean metric: geodesics are straight lines and RLA reduces to Laplace."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from geobayes.geometry.metric import Metric


class Euclidean(Metric):
    """``G = I``; ``Exp_theta(v) = theta + v`` (Yu et al. 2024, Sec. 1.2: ELA is RLA with G = I)."""

    def tensor(self, posterior, theta: jax.Array) -> jax.Array:
        return jnp.eye(theta.shape[0])

    def christoffel(self, posterior, theta: jax.Array, v: jax.Array) -> jax.Array:
        return jnp.zeros_like(v)
