"""Neural networks as functions of one flat parameter vector, and models built on them.

The flat layout is torch's ``parameters_to_vector`` order (per layer: weight ``(out, in)``
row-major, then bias), so weights move between geobayes and laplace-torch unchanged.
"""

from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.networks.network_models import (
    LinearisedNetworkRegression,
    NetworkClassifier,
    NetworkRegression,
    NetworkRegressionInferredNoise,
)

__all__ = [
    "LinearisedNetworkRegression",
    "MultilayerPerceptron",
    "NetworkClassifier",
    "NetworkRegression",
    "NetworkRegressionInferredNoise",
]
