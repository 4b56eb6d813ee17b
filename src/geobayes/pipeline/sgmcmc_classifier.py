"""One configured SGRLD chain on one of Yu et al.'s (2023) classifiers, evaluated as the code evaluates it.

Glue between the pipeline's config slice and the library: the network
(:mod:`geobayes.pipeline.sgmcmc_networks`: MNIST's 784-N-N-10 ReLU network, or CIFAR-10's
ResNet-20 whose BatchNorm statistics the chain carries), its prior, the mini-batch gradient of
the average potential and a sampler of :mod:`geobayes.sgmcmc`; after
every epoch the newly kept samples join the running ensembles on the validation and test sets
(the per-epoch cumulative metrics of Fig. 3, notes Sec. 3.2), and every ``curvature.every``-th
kept sample gets its input-space curvature (notes Sec. 3.2, 8.4 item 9).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.metrics.ensemble import init_running, running_metrics, update_running
from geobayes.metrics.input_curvature import average_input_curvature
from geobayes.pipeline.sgmcmc_grid import grid_point_label
from geobayes.pipeline.sgmcmc_networks import ClassifierNetwork, classifier_network
from geobayes.sgmcmc.classifier_chain import ChainSchedule, sample_classifier
from geobayes.sgmcmc.gradient_estimators import minibatch_potential_gradient, stateful_minibatch_potential_gradient
from geobayes.sgmcmc.registry import build_preconditioner
from geobayes.sgmcmc.sgrld import sgrld

__all__ = ["ClassifierChainResult", "run_classifier_chain", "grid_point_label"]


class ClassifierChainResult(NamedTuple):
    """A chain's record fields (final-epoch metrics) and its per-epoch curves."""

    record: dict[str, Any]
    curves: dict[str, np.ndarray]


def _gradient(network: ClassifierNetwork, prior, num_data: int, grad_max: float):
    """The stochastic gradient of the average potential: in train mode with the network's state
    where it has one (the state then rides along the chain), else of the plain network."""
    if network.initial_state is None:
        def log_likelihood(position, data):
            return network.log_likelihoods(prior.network_parameters(position), None, *data, False)[0]
        return minibatch_potential_gradient(log_likelihood, prior.log_prior, num_data, grad_max=grad_max)

    def train_log_likelihood(position, state, data):
        return network.log_likelihoods(prior.network_parameters(position), state, *data, True)
    return stateful_minibatch_potential_gradient(train_log_likelihood, prior.log_prior, num_data, grad_max=grad_max)


def run_classifier_chain(rng_key: jax.Array, split: Mapping[str, np.ndarray], *, width: int | None, prior: str,
                         sampler: str, sampler_settings: Mapping[str, Any], learning_rate: float,
                         alpha2: float | None, settings: Mapping[str, Any], network: str = "mlp",
                         config_key: str = "experiments.yu2023_mnist") -> ClassifierChainResult:
    """Sample the posterior of one (network, width, prior) with one sampler at one grid point, and evaluate it.

    Yu et al. (2023), Sec. 4.3 and A.5: the SGRLD step of Eq. 3 with ``N`` the training-set size,
    mini-batches of ``settings['schedule']['batch_size']``, burn-in and thinning as the code;
    test LP, accuracy, ECE (30 bins) and confidence of the cumulative ensemble after each epoch,
    the validation LP that selects the learning rate, and the mean input-space curvature.

    Parameters
    ----------
    rng_key
        The chain's key; its initial weights use ``fold_in(rng_key, 0)``, the chain
        ``fold_in(rng_key, 1)``, the curvature's power iterations ``fold_in(rng_key, 2)``.
    split
        The prepared data (``X_train, y_train, X_valid, y_valid, X_test, y_test``).
    width, prior, sampler, sampler_settings, learning_rate, alpha2
        The configuration (``alpha2`` only for Monge; it overrides ``sampler_settings``;
        ``width`` None for the ResNet-20).
    settings
        The experiment's ``schedule``, ``prior_scales``, ``grad_max``, ``temperature``,
        ``curvature`` and ``ece_bins``.
    network
        A key of :data:`geobayes.pipeline.sgmcmc_networks.NETWORKS`: ``mlp`` (MNIST) or
        ``resnet20`` (CIFAR-10; its BatchNorm statistics are updated at every step, kept with
        each sample and used to evaluate it).
    config_key
        The experiment's config key, named in errors about its samplers.
    """
    options = dict(sampler_settings)
    if alpha2 is not None:
        options["alpha2"] = alpha2
    preconditioner = build_preconditioner(sampler, options, f"{config_key}.samplers.{sampler}")
    net = classifier_network(network)
    prior_model = net.prior_from_name(prior, **settings["prior_scales"])
    position = prior_model.init_position(net.init_parameters(jax.random.fold_in(rng_key, 0), width))
    initial_state = None if net.initial_state is None else net.initial_state()
    train = (jnp.asarray(split["X_train"]), jnp.asarray(split["y_train"]))
    num_data = int(train[0].shape[0])
    gradient = _gradient(net, prior_model, num_data, float(settings["grad_max"]))
    algorithm = sgrld(preconditioner, learning_rate, num_data, float(settings["temperature"]))
    schedule = ChainSchedule(**settings["schedule"])
    curvature = settings["curvature"]
    bins = int(settings["ece_bins"])

    evaluation = {part: (jnp.asarray(split[f"X_{part}"]), np.asarray(split[f"y_{part}"])) for part in ("valid", "test")}
    ensembles = {part: init_running(len(y), net.num_classes) for part, (_, y) in evaluation.items()}
    log_softmax = jax.jit(jax.vmap(
        lambda position, state, x: net.log_softmax(prior_model.network_parameters(position), state, x),
        in_axes=(0, 0, None)))
    curves = {name: [] for name in ("test_lp", "test_accuracy", "test_ece", "test_confidence", "valid_lp", "samples")}
    curvatures, kept = [], [0]

    def on_epoch(epoch, samples):
        positions, states = samples if initial_state is not None else (samples, None)
        count = jax.tree.leaves(positions)[0].shape[0]
        if count:
            for part, (x, _) in evaluation.items():
                ensembles[part] = update_running(ensembles[part], np.asarray(log_softmax(positions, states, x)))
        for j in range(count):
            if (kept[0] + j) % int(curvature["every"]) == 0:
                sample, state = jax.tree.map(lambda a: a[j], (positions, states))
                x, y = evaluation["test"]
                curvatures.append(average_input_curvature(
                    net.evaluate_log_likelihoods, (prior_model.network_parameters(sample), state), x, jnp.asarray(y),
                    jax.random.fold_in(jax.random.fold_in(rng_key, 2), kept[0] + j), n_inputs=int(curvature["inputs"]),
                    batch_size=int(curvature["batch_size"]), num_power_iterations=int(curvature["power_iterations"])))
        kept[0] += count
        test, valid = (running_metrics(ensembles[p], evaluation[p][1], bins) for p in ("test", "valid"))
        for name, value in (("test_lp", test.lp), ("test_accuracy", test.accuracy), ("test_ece", test.ece),
                            ("test_confidence", test.confidence), ("valid_lp", valid.lp), ("samples", kept[0])):
            curves[name].append(value)

    run = sample_classifier(jax.random.fold_in(rng_key, 1), algorithm, position, gradient, train, schedule, on_epoch,
                            model_state=initial_state)
    diverged = run.diverged_epoch is not None
    last = {name: (values[-1] if values and not diverged else None) for name, values in curves.items()}
    timed = run.epoch_seconds[1:] or run.epoch_seconds  # the first epoch includes the compilation
    record = {"learning_rate": learning_rate, "alpha2": alpha2, "settings": options, "num_data": num_data,
              "dtype": jax.tree.leaves(position)[0].dtype.name,  # the precision the chain ran in
              "n_samples": kept[0], "n_failed": int(diverged), "diverged_epoch": run.diverged_epoch,
              "lp": last["test_lp"], "accuracy": last["test_accuracy"], "ece": last["test_ece"],
              "confidence": last["test_confidence"], "valid_lp": last["valid_lp"],
              "curvature": float(np.mean(curvatures)) if curvatures and not diverged else None,
              "curvature_samples": len(curvatures), "seconds_per_epoch": statistics.median(timed),
              "first_epoch_s": run.epoch_seconds[0]}
    arrays = {name: np.asarray(values, dtype=np.float64) for name, values in curves.items()}
    arrays["epoch_seconds"] = np.asarray(run.epoch_seconds, dtype=np.float64)
    return ClassifierChainResult(record, arrays)
