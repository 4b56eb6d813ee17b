"""Latent Gaussian-process models: one latent value per observation (``h = identity``)."""

from __future__ import annotations

from typing import ClassVar

import equinox as eqx
import jax

from geobayes.dataset import Dataset
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.families import Bernoulli, Poisson
from geobayes.models.dense_gaussian_prior import DenseGaussianPrior
from geobayes.models.kernels import kernel_from_options
from geobayes.registry import register_model


class LatentGaussianProcess(EmbeddingModel):
    """``y_n ~ family(theta_n)``, ``theta ~ N(0, K)`` with ``K`` a kernel on the inputs.

    Hartmann et al. (2026), Sec. 5.2 and Table 1 ("GLM"): the imbedding ``X = I_n`` gives one
    natural parameter per observation, i.e. GP classification (Bernoulli) or a log-Gaussian
    Poisson model; ``D = N``.

    Parameters
    ----------
    family
        :class:`~geobayes.families.Bernoulli` or :class:`~geobayes.families.Poisson`.
    prior
        :class:`~geobayes.models.dense_gaussian_prior.DenseGaussianPrior` with the kernel matrix.
    """

    affine_embedding: ClassVar[bool] = True
    reads_inputs: ClassVar[bool] = False  # X enters through the prior's kernel matrix only

    family: eqx.Module
    prior: eqx.Module

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Natural parameters ``theta`` (identity)."""
        return theta

    def dim(self, data: Dataset) -> int:
        """``D = N``: one latent per observation."""
        return int(data.X.shape[0])


@register_model("berngp")
def _bernoulli_from_options(options: dict, arrays: dict) -> LatentGaussianProcess:
    """Bernoulli latent GP, SE kernel of ``options['kernel']`` on ``X`` (Hartmann et al. 2026, Table 1)."""
    return LatentGaussianProcess(family=Bernoulli(), prior=DenseGaussianPrior(kernel_from_options(options, arrays["X"])))


@register_model("poisgp")
def _poisson_from_options(options: dict, arrays: dict) -> LatentGaussianProcess:
    """Poisson latent GP, SE kernel of ``options['kernel']`` on ``X`` (Hartmann et al. 2026, Table 1)."""
    return LatentGaussianProcess(family=Poisson(), prior=DenseGaussianPrior(kernel_from_options(options, arrays["X"])))
