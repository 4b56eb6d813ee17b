"""Network models from an experiment's config slice and the trained-network file.

Registered as the model family ``network``: it serves every model name listed in the
experiment's ``networks`` block (the names are the config's, not the code's).
"""

from __future__ import annotations

import numpy as np

from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.networks import MultilayerPerceptron, NetworkRegression, NetworkRegressionInferredNoise
from geobayes.registry import positive_option, register_model_family


def is_network_model(model_name: str, options: dict) -> bool:
    """Whether ``model_name`` is one of the experiment's configured ``networks``."""
    return model_name in (options.get("networks") or {})


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
