"""The Bayesian neural-network classifier of Hartmann et al. (2026), App. D, and its inits."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.dataset import Dataset
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.networks.network_models import NetworkClassifier
from geobayes.posterior import Posterior
from geobayes.random import derive_key


def classifier_network(options: dict, input_dim: int) -> MultilayerPerceptron:
    """``input_dim - k_1 - ... - k_L - 1`` network of ``options['hidden']`` / ``['activation']``.

    Hartmann et al. (2026), App. D: SiLU, ``k_1 = k_2 = 15`` on 2 inputs, so d = 301.
    """
    return MultilayerPerceptron((int(input_dim), *(int(k) for k in options["hidden"]), 1), str(options["activation"]))


def build_classifier_posterior(options: dict, X: np.ndarray, y: np.ndarray, name: str = "banana-classifier") -> Posterior:
    """``y_n ~ Bernoulli(sigmoid(f_theta(x_n)))``, ``theta ~ N(0, prior_variance I)``.

    Hartmann et al. (2026), App. D: no noise parameter; the prior is not stated, we take
    ``N(0, 1)`` as in their regression network (Sec. 5.3.2), config ``prior_variance``.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D or ``y`` is not a 0/1 vector of matching length.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"classifier data: X must be (n, d) and y (n,), got {X.shape} and {y.shape}")
    if not np.all(np.isin(y, (0.0, 1.0))):
        raise ValueError("classifier data: labels must be 0 or 1")
    model = NetworkClassifier(network=classifier_network(options, X.shape[1]),
                              prior=GaussianPrior(float(options["prior_variance"])))
    return Posterior(name, model, Dataset(X, y))


#: Initialisation schemes of the optima: draws from the prior, or torch's ``nn.Linear`` default.
INIT_SCHEMES = ("prior", "torch")


def initial_weights(posterior: Posterior, scheme: str, seed: int, optimum: int) -> jax.Array:
    """Initialisation ``optimum`` ((a), (b), ... = 0, 1, ...) of the weights, from the key
    ``fold_in(seed, "bnn_classifier_init", optimum)``.

    Hartmann et al. (2026), App. D: "we randomly initialise 5 sets of parameters (a)-(e)"; the
    scheme is not stated. ``prior``: a draw of the prior ``N(0, prior_variance I)``.
    ``torch``: torch's default ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))``; its small weights sent 2
    of 5 runs of the 2-15-15-1 network into the collapsed mode where every hidden unit is off
    (all weights 0 but the output bias; SiLU(0) = 0 makes it stationary), so the config uses
    ``prior``.

    Raises
    ------
    ValueError
        If ``scheme`` is not one of :data:`INIT_SCHEMES`.
    """
    key = derive_key(seed, "bnn_classifier_init", int(optimum))
    if scheme == "prior":
        variance = posterior.model.prior.variance
        return jnp.sqrt(variance) * jax.random.normal(key, (posterior.dim,), dtype=jnp.float64)
    if scheme == "torch":
        return posterior.model.network.initial_parameters(key)
    raise ValueError(f"bnn_classifier.init must be one of {INIT_SCHEMES}, got {scheme!r}")
