"""Statistical models: an embedding of the parameters onto a likelihood family, plus a prior.

``MODELS`` maps the model part of a posterior name (``<dataset>-<model>``) to its class.
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

MODELS = {
    "logreg": LogisticRegression,
    "lingauss": LinearGaussianRegression,
    "banana": Banana,
    # Hartmann et al. (2026): Bernoulli / Poisson regressions and latent GPs, USPS, growth.
    "bernreg": LogisticRegression,
    "poisreg": PoissonRegression,
    "berngp": LatentGaussianProcess,
    "poisgp": LatentGaussianProcess,
    "multigp": MultinomialGaussianProcess,
    "growth": LogisticGrowth,
    "synthbern": LogisticRegression,
    "synthpois": PoissonRegression,
}

__all__ = [
    "MODELS",
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
