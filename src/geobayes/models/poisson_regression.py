"""Bayesian Poisson regression with the canonical log link."""

from __future__ import annotations

from typing import ClassVar

import equinox as eqx
import jax

from geobayes.dataset import Dataset
from geobayes.families.poisson import Poisson
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.models.dense_gaussian_prior import DenseGaussianPrior
from geobayes.registry import register_model


class PoissonRegression(EmbeddingModel):
    """``y_n ~ Poisson(exp(x_n^T theta))``, ``theta ~ prior``.

    Hartmann et al. (2026), Sec. 5.1 and Table 1 ("Poisson manifold, Regression": the binary
    labels are read as counts, prior ``N(0, 100 I)``) and Fig. 1 (a Wishart-drawn prior
    covariance).
    """

    affine_embedding: ClassVar[bool] = True
    family: Poisson = eqx.field(default_factory=Poisson)
    prior: eqx.Module = eqx.field(default_factory=GaussianPrior)

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Log rates ``X theta``."""
        return data.X @ theta


@register_model("poisreg")
def _isotropic_from_options(options: dict, arrays: dict) -> PoissonRegression:
    """Prior N(0, prior_variance I) (Hartmann et al. 2026, Table 1)."""
    return PoissonRegression(prior=GaussianPrior.from_options(options))


@register_model("synthpois")
def _file_prior_from_options(options: dict, arrays: dict) -> PoissonRegression:
    """Prior N(0, Sigma) with the Wishart-drawn Sigma of the data file (Hartmann et al. 2026, Fig. 1)."""
    return PoissonRegression(prior=DenseGaussianPrior(arrays["prior_covariance"]))
