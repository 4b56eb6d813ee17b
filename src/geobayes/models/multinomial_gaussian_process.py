"""Multi-class latent Gaussian process with a reference class (Hartmann et al. 2026, Fig. 2)."""

from __future__ import annotations

from typing import ClassVar

import equinox as eqx
import jax
import scipy.linalg

from geobayes.dataset import Dataset
from geobayes.families.categorical import Categorical
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.models.dense_gaussian_prior import DenseGaussianPrior
from geobayes.models.kernels import kernel_from_options
from geobayes.registry import register_model


class MultinomialGaussianProcess(EmbeddingModel):
    """``y_n ~ Categorical(softmax(f_n1, ..., f_n(C-1), 0))``, ``f_c ~ N(0, K)`` independently.

    Hartmann et al. (2026), Sec. 5.2 and Sec. 6 (USPS 3/5/7): ``theta = (f_1, ..., f_{C-1})``
    stacked class by class, ``D = N (C - 1)``; the prior covariance is ``diag(K, ..., K)``.

    Parameters
    ----------
    n_classes
        ``C`` (the last class is the reference).
    prior
        Dense Gaussian prior with the block-diagonal covariance.
    family
        :class:`~geobayes.families.Categorical` (passed explicitly: equinox orders the fields
        of the base class first).
    """

    affine_embedding: ClassVar[bool] = True
    reads_inputs: ClassVar[bool] = False  # X enters through the prior's kernel matrix only

    n_classes: int = eqx.field(static=True)
    prior: eqx.Module
    family: Categorical

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Natural parameters, shape (N, C-1): column ``c`` is the latent function of class ``c``."""
        return theta.reshape(self.n_classes - 1, data.X.shape[0]).T

    def dim(self, data: Dataset) -> int:
        """``D = N (C - 1)``."""
        return int(data.X.shape[0] * (self.n_classes - 1))


@register_model("multigp")
def _from_options(options: dict, arrays: dict) -> MultinomialGaussianProcess:
    """One class per digit of ``options['digits']``, the same SE kernel on ``X`` for each of the
    C - 1 free latent functions (block-diagonal prior; Hartmann et al. 2026, Fig. 2)."""
    classes = len(options["digits"])
    kernel = kernel_from_options(options, arrays["X"])
    return MultinomialGaussianProcess(n_classes=classes, prior=DenseGaussianPrior(scipy.linalg.block_diag(*[kernel] * (classes - 1))),
                                      family=Categorical())
