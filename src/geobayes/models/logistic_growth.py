"""Logistic population growth with Gaussian noise of unknown variance (Hartmann et al. 2026, Fig. 4)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.dataset import Dataset
from geobayes.families.gaussian_mean_variance import GaussianMeanVariance
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.registry import register_model


def logistic_curve(t: jax.Array, r: jax.Array, c0: jax.Array, k: jax.Array) -> jax.Array:
    """Solution ``C(t) = C0 K / (C0 + (K - C0) exp(-r t))`` of ``dC/dt = r C (1 - C / K)``."""
    return c0 * k / (c0 + (k - c0) * jnp.exp(-r * t))


class LogisticGrowth(EmbeddingModel):
    """``y_i ~ N(C(t_i; r, C0, K), sigma^2)`` with ``(r, C0, K, sigma^2) = exp(theta)``.

    Hartmann et al. (2026), Sec. 6 (Fig. 4): the imbedding ``h(theta) = (C(t_1), ..., C(t_n),
    exp(theta_4))`` onto the mean-and-variance Gaussian family (non-affine, D = 4); prior
    ``theta_j ~ N(0, 10)`` (read as a variance). The data set's ``X`` holds the times, shape (n, 1).
    """

    prior: eqx.Module = eqx.field(default_factory=lambda: GaussianPrior(variance=10.0))
    family: GaussianMeanVariance = eqx.field(default_factory=GaussianMeanVariance)

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """``(C(t_1), ..., C(t_n), sigma^2)``, shape (n + 1,)."""
        r, c0, k, s = jnp.exp(theta[0]), jnp.exp(theta[1]), jnp.exp(theta[2]), jnp.exp(theta[3])
        return jnp.concatenate([logistic_curve(data.X[:, 0], r, c0, k), s[None]])

    def dim(self, data: Dataset) -> int:
        """D = 4."""
        return 4


@register_model("growth")
def _from_options(options: dict, arrays: dict) -> LogisticGrowth:
    """Prior N(0, prior_variance I) on the log-parameters (Hartmann et al. 2026, Fig. 4)."""
    return LogisticGrowth(prior=GaussianPrior.from_options(options))
