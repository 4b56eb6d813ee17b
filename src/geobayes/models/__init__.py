"""Statistical models: an embedding of the parameters onto a likelihood family, plus a prior.

``MODELS`` maps the model part of a posterior name (``<dataset>-<model>``) to its class.
"""

from geobayes.models.banana import Banana
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.models.linear_gaussian_regression import LinearGaussianRegression
from geobayes.models.logistic_regression import LogisticRegression

MODELS = {
    "logreg": LogisticRegression,
    "lingauss": LinearGaussianRegression,
    "banana": Banana,
}

__all__ = [
    "MODELS",
    "Banana",
    "EmbeddingModel",
    "GaussianPrior",
    "LinearGaussianRegression",
    "LogisticRegression",
]
