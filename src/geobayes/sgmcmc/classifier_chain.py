"""One SGRLD chain on a Bayesian neural network classifier, epoch by epoch (Yu et al. 2023, Sec. 4.3, A.5)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.sgmcmc.driver import run_chain
from geobayes.sgmcmc.sgrld import SGRLDAlgorithm

__all__ = ["ChainSchedule", "ChainRun", "sample_classifier"]


class ChainSchedule(NamedTuple):
    """The sample schedule of the paper's code (notes Sec. 3.1).

    Attributes
    ----------
    epochs
        Epochs (400 in the paper).
    batch_size
        Mini-batch size (100).
    burn_in
        Samples are kept only after global steps ``> burn_in`` (1000).
    thinning
        A sample after in-epoch steps ``i`` with ``(i + 1) % thinning == 0`` (100).
    """

    epochs: int
    batch_size: int = 100
    burn_in: int = 1000
    thinning: int = 100


class ChainRun(NamedTuple):
    """What a chain produced besides the samples handed to ``on_epoch``.

    Attributes
    ----------
    epoch_seconds
        Wall seconds of each epoch's sampling (evaluation excluded); the first includes the
        compilation (its step is traced once).
    kept_per_epoch
        Samples kept in each epoch.
    diverged_epoch
        The first epoch (0-based) after which the position was not finite, or ``None``: the chain
        stops there and the paper's rule (any broken run invalidates a learning rate) applies.
    """

    epoch_seconds: list[float]
    kept_per_epoch: list[int]
    diverged_epoch: int | None


def _finite(tree: Any) -> bool:
    return all(bool(jnp.all(jnp.isfinite(leaf))) for leaf in jax.tree.leaves(tree))


def sample_classifier(rng_key: jax.Array, algorithm: SGRLDAlgorithm, position: Any, gradient_fn: Callable,
                      train: Any, schedule: ChainSchedule, on_epoch: Callable[[int, Any], None],
                      model_state: Any = None) -> ChainRun:
    """Run SGRLD over ``train`` for ``schedule.epochs`` epochs, handing each epoch's kept samples on.

    The step is the one SGRLD step of :mod:`geobayes.sgmcmc.sgrld` (Yu et al. 2023, Eq. 3) with
    mini-batches of a fresh permutation per epoch; epoch ``e`` runs under ``fold_in(rng_key, e)``
    (one compiled epoch serves them all), Wenzel's per-epoch refresh runs after each epoch.
    Samples are kept as the code keeps them (:class:`ChainSchedule`), so the per-epoch
    cumulative ensemble (Fig. 3, notes Sec. 3.2) is built by the caller's ``on_epoch``.

    Parameters
    ----------
    rng_key
        Key of the chain.
    algorithm
        ``sgrld(preconditioner, learning_rate, num_data=N)``.
    position
        Initial position (a pytree, e.g. a horseshoe position).
    gradient_fn
        ``gradient_fn(position, batch, rng_key)``, e.g.
        :func:`~geobayes.sgmcmc.gradient_estimators.minibatch_potential_gradient`.
    train
        Training data, a pytree with leading axis ``N``.
    schedule
        :class:`ChainSchedule`.
    on_epoch
        ``on_epoch(epoch, samples)`` with the epoch's kept samples stacked along a leading axis
        (possibly none: a leading axis of 0).
    model_state
        ``None``, or the network's own initial state (BatchNorm running statistics): threaded
        through every step by :func:`~geobayes.sgmcmc.driver.run_chain` (``gradient_fn`` then
        takes and returns it: ``stateful_minibatch_potential_gradient``), and the samples
        handed to ``on_epoch`` are the pairs ``(positions, model_states)``, each sample's
        statistics after its step (the code saves them with each sample; notes Sec. 8.4 item 16).
    """
    if isinstance(schedule.epochs, bool) or not isinstance(schedule.epochs, int) or schedule.epochs < 1:
        raise ValueError(f"schedule.epochs must be an integer >= 1; got {schedule.epochs!r}")
    num_data = jax.tree.leaves(train)[0].shape[0]
    steps_per_epoch = -(-num_data // schedule.batch_size)

    @jax.jit
    def epoch(key, state, model):
        final, samples, _ = run_chain(key, algorithm.step, state, gradient_fn, num_epochs=1, data=train,
                                      batch_size=schedule.batch_size, thinning=schedule.thinning,
                                      end_epoch=algorithm.end_epoch, model_state=model)
        return (final, None) if model is None else final, samples

    state, model = algorithm.init(position), model_state
    seconds, kept, diverged = [], [], None
    for e in range(schedule.epochs):
        start = time.perf_counter()
        (state, model), samples = epoch(jax.random.fold_in(rng_key, e), state, model)
        jax.block_until_ready(state)
        seconds.append(time.perf_counter() - start)
        # in-epoch sample j follows global step e * steps_per_epoch + (j + 1) * thinning
        steps = e * steps_per_epoch + schedule.thinning * (1 + np.arange(steps_per_epoch // schedule.thinning))
        keep = np.flatnonzero(steps > schedule.burn_in)
        if not _finite(state.position):
            diverged = e
            break
        kept.append(int(keep.size))
        on_epoch(e, jax.tree.map(lambda a: a[keep], samples))
    return ChainRun(seconds, kept, diverged)
