"""Network models from an experiment's config slice and the trained-network file.

Registered as two model families: ``network`` serves every model name listed in the ``networks``
block of a regression experiment, ``classifier_network`` those of an experiment with a
``classification`` block (Bergamin et al. 2023, Sec. 5.2: softmax classifiers). The names are the
config's, not the code's.
"""

from __future__ import annotations

import numpy as np

from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.networks import (ConvolutionalNetwork, MultilayerPerceptron, NetworkRegression,
                               NetworkRegressionInferredNoise, NetworkSoftmaxClassifier)
from geobayes.registry import positive_option, register_model_family


def is_network_model(model_name: str, options: dict) -> bool:
    """Whether ``model_name`` is one of a regression experiment's configured ``networks``."""
    return model_name in (options.get("networks") or {}) and "classification" not in options


def is_classifier_model(model_name: str, options: dict) -> bool:
    """Whether ``model_name`` is one of a classifier experiment's configured ``networks``."""
    return model_name in (options.get("networks") or {}) and "classification" in options


def network_of(model_name: str, options: dict, input_dim: int) -> MultilayerPerceptron:
    """The architecture ``experiments.<e>.networks.<model_name>`` on ``input_dim`` inputs."""
    spec = options["networks"][model_name]
    return MultilayerPerceptron((int(input_dim), *(int(k) for k in spec["hidden"]), 1), spec["activation"])


@register_model_family("network", claims=is_network_model)
def build_network_model(model_name: str, options: dict, arrays: dict):
    """A network regression: fixed noise (``noise_variance`` and ``prior_variance`` from the
    trained-network file, where the Laplace marginal likelihood set them) or inferred noise
    (Hartmann et al. 2026: log variance as the last parameter, prior variance from the config).

    Raises
    ------
    KeyError
        If a fixed-noise model's file lacks ``noise_variance`` / ``prior_variance`` (naming the
        array and pointing at the training step that writes it).
    ValueError
        If a variance is not a finite number > 0 (naming it).
    """
    network = network_of(model_name, options, np.asarray(arrays["X"]).shape[1])
    if options["networks"][model_name].get("noise", "fixed") == "inferred":
        return NetworkRegressionInferredNoise(network=network,
                                              prior=GaussianPrior(positive_option(options, "prior_variance")))
    for key in ("noise_variance", "prior_variance"):
        if key not in arrays:
            raise KeyError(f"network model {model_name!r}: the data file has no {key!r}; fixed-noise networks "
                           "read it from the trained-network file (results/network/<posterior>.npz)")
    what = "trained-network array"
    return NetworkRegression(network=network, prior=GaussianPrior(positive_option(arrays, "prior_variance", what)),
                             family=GaussianFixedVariance(positive_option(arrays, "noise_variance", what)))


def classifier_network_of(model_name: str, options: dict, arrays: dict):
    """The classifier ``experiments.<e>.networks.<model_name>`` for a prepared split's inputs and classes:
    an MLP ``d_in - hidden - C`` or the paper's CNN (App. D.5) with ``C`` outputs.

    Raises
    ------
    KeyError
        If the split lacks ``n_classes`` (naming it).
    """
    if "n_classes" not in arrays:
        raise KeyError(f"classifier {model_name!r}: the data file has no 'n_classes' (a classification split, "
                       "geobayes.data.classification_split, holds it)")
    spec, n_classes = options["networks"][model_name], int(np.asarray(arrays["n_classes"]))
    if spec["architecture"] == "cnn":
        return ConvolutionalNetwork(num_classes=n_classes, activation=spec["activation"])
    d_in = np.asarray(arrays["X"] if "X" in arrays else arrays["X_train"]).shape[1]
    return MultilayerPerceptron((int(d_in), *(int(k) for k in spec["hidden"]), n_classes), spec["activation"])


@register_model_family("classifier_network", claims=is_classifier_model)
def build_classifier_model(model_name: str, options: dict, arrays: dict):
    """A softmax network classifier whose prior variance the trained-network file holds (the prior
    setting of its posterior: marginal likelihood or 2 x weight decay, rule train_classifier).

    Raises
    ------
    KeyError
        If the file lacks ``prior_variance`` (naming the array and the step that writes it).
    ValueError
        If the variance is not a finite number > 0.
    """
    if "prior_variance" not in arrays:
        raise KeyError(f"classifier {model_name!r}: the data file has no 'prior_variance'; classifiers read it "
                       "from the trained-network file (results/network/<posterior>.npz, rule train_classifier)")
    return NetworkSoftmaxClassifier(network=classifier_network_of(model_name, options, arrays),
                                    prior=GaussianPrior(positive_option(arrays, "prior_variance", "trained-network array")))
