"""Neural networks as functions of one flat parameter vector, and models built on them.

The flat layout is torch's ``parameters_to_vector`` order (per layer: weight ``(out, in)``
row-major, or ``(out, in, k, k)`` for a convolution, then bias), so weights move between
geobayes and laplace-torch unchanged.
"""

from geobayes.networks.cnn import ConvolutionalNetwork
from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.networks.network_models import (
    LinearisedNetworkRegression,
    NetworkClassifier,
    NetworkRegression,
    NetworkRegressionInferredNoise,
)
from geobayes.networks.softmax_classifier import (
    LinearisedNetworkSoftmaxClassifier,
    NetworkSoftmaxClassifier,
    softmax_classifier_posterior,
)

__all__ = [
    "ConvolutionalNetwork",
    "LinearisedNetworkRegression",
    "LinearisedNetworkSoftmaxClassifier",
    "MultilayerPerceptron",
    "NetworkClassifier",
    "NetworkRegression",
    "NetworkRegressionInferredNoise",
    "NetworkSoftmaxClassifier",
    "softmax_classifier_posterior",
]
