"""Statistical models: an embedding of the parameters onto a likelihood family, plus a prior.

Each model module registers the names it serves (the model part of a posterior name
``<dataset>-<model>``) with a ``from_options`` constructor in :mod:`geobayes.registry`; importing
this package registers them all.
"""

from geobayes.models.banana import Banana
from geobayes.models.dense_gaussian_prior import DenseGaussianPrior
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.models.flat_prior import FlatPrior
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.models.latent_gaussian_process import LatentGaussianProcess
from geobayes.models.linear_gaussian_regression import LinearGaussianRegression
from geobayes.models.logistic_growth import LogisticGrowth
from geobayes.models.logistic_regression import LogisticRegression
from geobayes.models.multinomial_gaussian_process import MultinomialGaussianProcess
from geobayes.models.poisson_regression import PoissonRegression

__all__ = [
    "Banana",
    "DenseGaussianPrior",
    "EmbeddingModel",
    "FlatPrior",
    "GaussianPrior",
    "LatentGaussianProcess",
    "LinearGaussianRegression",
    "LogisticGrowth",
    "LogisticRegression",
    "MultinomialGaussianProcess",
    "PoissonRegression",
]
