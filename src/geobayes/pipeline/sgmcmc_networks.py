"""The classifier networks of Yu et al.'s (2023) SGRLD studies behind one interface for the chain runner.

MNIST's 784-N-N-10 ReLU network (Sec. 4.3; :mod:`geobayes.networks.dense_relu_classifier`, priors
of :mod:`geobayes.networks.bnn_priors`) has no state of its own. CIFAR-10's ResNet-20 (Sec. 4.4;
:mod:`geobayes.networks.resnet20`, priors of :mod:`geobayes.networks.resnet_priors`) has BatchNorm
running statistics: updated in train mode at every step of a chain, kept with each sample and used
at evaluation (notes Sec. 8.4 item 16). :func:`geobayes.pipeline.sgmcmc_classifier.run_classifier_chain`
reads a network from :data:`NETWORKS` and threads the state where there is one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax

from geobayes.networks import bnn_priors, resnet20, resnet_priors
from geobayes.networks import dense_relu_classifier as dense

__all__ = ["ClassifierNetwork", "NETWORKS", "classifier_network"]


class ClassifierNetwork(NamedTuple):
    """One classifier network of the SGRLD studies.

    Attributes
    ----------
    init_parameters
        ``(key, width) -> parameters``: the network's initial weights (``width`` its hidden
        width, or None for a network without one).
    prior_from_name
        ``(name, **scales) -> prior``: the network's priors by config name.
    log_likelihoods
        ``(parameters, state, x, y, train) -> ((n,) log-likelihoods, new state)``.
    log_softmax
        ``(parameters, state, x) -> (n, classes)`` log probabilities at evaluation.
    evaluate_log_likelihoods
        ``((parameters, state), x, y) -> (n,)``, evaluation mode: a module-level function, so that
        the input-space curvature's compiled batches are reused across samples.
    initial_state
        ``() -> state``, or ``None`` for a network without one.
    num_classes
        Classes of the output (10 for MNIST and CIFAR-10).
    """

    init_parameters: Callable[[jax.Array, int | None], Any]
    prior_from_name: Callable[..., Any]
    log_likelihoods: Callable[..., tuple[jax.Array, Any]]
    log_softmax: Callable[..., jax.Array]
    evaluate_log_likelihoods: Callable[..., jax.Array]
    initial_state: Callable[[], Any] | None
    num_classes: int = 10


def _mlp_parameters(key, width):
    if width is None:
        raise ValueError("the MNIST network 784-N-N-10 needs its width N; got width=None")
    return dense.init_parameters(key, dense.mnist_widths(width))


def _mlp_log_likelihoods(params, state, x, y, train):
    return dense.log_likelihoods(params, x, y), state


def _mlp_log_softmax(params, state, x):
    return dense.log_softmax(params, x)


def _mlp_evaluate(model, x, y):
    return dense.log_likelihoods(model[0], x, y)


def _resnet_parameters(key, width):
    if width is not None:
        raise ValueError(f"the ResNet-20 has no width to set; got width={width!r}")
    return resnet20.init_parameters(key)


def _resnet_evaluate(model, x, y):
    return resnet20.log_likelihoods(model[0], model[1], x, y, train=False)[0]


#: The networks by config name.
NETWORKS: dict[str, ClassifierNetwork] = {
    "mlp": ClassifierNetwork(_mlp_parameters, bnn_priors.prior_from_name, _mlp_log_likelihoods, _mlp_log_softmax,
                             _mlp_evaluate, None),
    "resnet20": ClassifierNetwork(_resnet_parameters, resnet_priors.prior_from_name, resnet20.log_likelihoods,
                                  resnet20.log_softmax, _resnet_evaluate, resnet20.init_batch_norm_state),
}


def classifier_network(name: str) -> ClassifierNetwork:
    """The network registered as ``name``.

    Raises
    ------
    ValueError
        If ``name`` is not a key of :data:`NETWORKS` (listing them).
    """
    if name not in NETWORKS:
        raise ValueError(f"unknown SGRLD classifier network {name!r}; known: {', '.join(NETWORKS)}")
    return NETWORKS[name]
