"""Bayesian linear regression with known noise: a posterior that is exactly Gaussian."""

from __future__ import annotations

from typing import ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.dataset import Dataset
from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.registry import positive_option, register_model


class LinearGaussianRegression(EmbeddingModel):
    """``y_n ~ N(x_n^T theta, noise_variance)``, ``theta ~ N(0, prior_variance I)``.

    The posterior is Gaussian in closed form (:meth:`exact_posterior`) and the Fisher metric is
    constant, so Laplace is exact and RLA-F reduces to it (Yu et al. 2024, Theorem 1). Used as
    the known-answer model of the test suite.
    """

    affine_embedding: ClassVar[bool] = True
    family: GaussianFixedVariance = eqx.field(default_factory=GaussianFixedVariance)
    prior: eqx.Module = eqx.field(default_factory=GaussianPrior)

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Means ``X theta``."""
        return data.X @ theta

    def exact_posterior(self, data: Dataset) -> tuple[jax.Array, jax.Array]:
        """Exact posterior mean and covariance.

        Returns
        -------
        mean, covariance
            ``Sigma = (X^T X / s2 + I / alpha)^{-1}`` and ``mu = Sigma X^T y / s2``.
        """
        precision = data.X.T @ data.X / self.family.noise_variance + self.prior.precision(
            data.X.shape[1]
        )
        covariance = jnp.linalg.inv(precision)
        mean = covariance @ (data.X.T @ data.y) / self.family.noise_variance
        return mean, covariance


@register_model("lingauss")
def _from_options(options: dict, arrays: dict) -> LinearGaussianRegression:
    """Prior N(0, prior_variance I), known ``noise_variance`` (Hartmann et al. 2026, App. C.1)."""
    return LinearGaussianRegression(prior=GaussianPrior.from_options(options),
                                    family=GaussianFixedVariance(positive_option(options, "noise_variance")))
