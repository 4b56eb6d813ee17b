"""A thin ``lax.scan`` driver for SGRLD chains: epochs, mini-batches, burn-in and thinning.

It reproduces the sample schedule of the official code (Yu et al. 2023, Sec. 4.1 / A.5;
notes Sec. 3.1): ``steps_per_epoch`` steps per epoch, a sample kept after in-epoch step
``i`` (0-based) when ``(i + 1) % thinning == 0`` and the global step count exceeds
``burn_in``, and the metric's epoch hook (Wenzel) after each epoch.

A network with BatchNorm (the ResNet-20 of the CIFAR-10 study) also has a *model state*, its
running statistics: the code updates them in train mode at every step and saves them with each
sample (notes Sec. 8.4 item 16). ``run_chain(..., model_state=...)`` threads such a state
through the steps beside the sampler's state and keeps it with every kept position.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.sgmcmc.gradient_estimators import MiniBatch
from geobayes.sgmcmc.sgrld import SGRLDInfo, SGRLDState

__all__ = ["kept_steps", "run_chain"]


def kept_steps(num_epochs: int, steps_per_epoch: int, burn_in: int, thinning: int) -> np.ndarray:
    """1-based global step numbers after which a sample is kept (static, for the caller)."""
    chunks = steps_per_epoch // thinning
    steps = (np.arange(num_epochs)[:, None] * steps_per_epoch
             + (np.arange(chunks)[None, :] + 1) * thinning).reshape(-1)
    return steps[steps > burn_in]


def _batch_plan(num_data: int, batch_size: int) -> tuple[int, np.ndarray]:
    steps = math.ceil(num_data / batch_size)
    mask = (np.arange(steps * batch_size) < num_data).astype(np.float64).reshape(steps, batch_size)
    return steps, mask


def run_chain(rng_key: jax.Array, kernel: Callable, state: SGRLDState, gradient_fn: Callable, *,
              num_epochs: int, steps_per_epoch: int | None = None, data: Any = None,
              batch_size: int = 100, burn_in: int = 0, thinning: int = 1,
              end_epoch: Callable[[SGRLDState], SGRLDState] | None = None,
              model_state: Any = None) -> tuple[SGRLDState, Any, SGRLDInfo]:
    """Run one SGRLD chain for ``num_epochs`` epochs and return its thinned positions.

    Parameters
    ----------
    rng_key
        Split into noise, gradient and shuffling keys; step ``t`` (0-based global count) uses
        ``fold_in(noise_key, t)`` and ``fold_in(gradient_key, t)``, epoch ``e`` shuffles with
        ``fold_in(shuffle_key, e)``, so a run is a deterministic function of ``rng_key``.
    kernel
        ``kernel(rng_key, state, gradient) -> (state, info)``
        (:func:`geobayes.sgmcmc.sgrld.build_kernel`).
    state
        Initial :class:`~geobayes.sgmcmc.sgrld.SGRLDState`.
    gradient_fn
        ``gradient_fn(position, batch, rng_key) -> g_hat``
        (:mod:`geobayes.sgmcmc.gradient_estimators`); ``batch`` is a
        :class:`~geobayes.sgmcmc.gradient_estimators.MiniBatch` when ``data`` is given, else
        ``None``.
    num_epochs
        Number of epochs.
    steps_per_epoch
        Steps per epoch without ``data`` (e.g. the funnel); with ``data`` it is
        ``ceil(N / batch_size)`` and must be omitted or equal.
    data
        Training data, a pytree whose leaves have leading axis ``N``. Each epoch visits a
        fresh random permutation in batches of ``batch_size``. When ``batch_size`` does not
        divide ``N``, the last batch holds the ``N mod batch_size`` remaining examples,
        padded to a fixed shape and masked out of the mean (the code's ``drop_last=False``).
    batch_size
        Mini-batch size (100 in the paper).
    burn_in
        Samples are kept only after global steps ``> burn_in`` (1000 in the paper).
    thinning
        Keep a sample after in-epoch steps ``i`` with ``(i + 1) % thinning == 0`` (100 in the
        paper); the ``steps_per_epoch mod thinning`` last steps of an epoch yield none.
    end_epoch
        ``end_epoch(state) -> state`` after each epoch (``sgrld(...).end_epoch``); ``None``
        for none.
    model_state
        ``None`` (default), or the initial state of the model itself (a pytree, e.g. BatchNorm
        running statistics). Then ``gradient_fn(position, batch, rng_key, model_state)`` must
        return ``(g_hat, new_model_state)`` (``stateful_minibatch_potential_gradient`` of
        :mod:`geobayes.sgmcmc.gradient_estimators`), the new state is carried to the next step, and
        each kept sample is the pair ``(position, model_state)`` after its step. Every batch
        must then hold real examples only: ``batch_size`` must divide ``N`` (the statistics of a
        padded batch would count the padding).

    Returns
    -------
    (final_state, samples, info)
        ``samples``: the kept positions stacked along a new leading axis (global steps
        :func:`kept_steps`); ``info``: the per-step :class:`~geobayes.sgmcmc.sgrld.SGRLDInfo`
        with leading axis ``num_epochs * steps_per_epoch``. With a ``model_state``,
        ``final_state`` is the pair ``(state, model_state)`` and ``samples`` the pair
        ``(positions, model_states)``, both stacked along the same leading axis.

    Raises
    ------
    ValueError
        If a count is not a positive integer (``burn_in`` may be 0), ``steps_per_epoch`` is
        missing without data or disagrees with it, or a ``model_state`` is given with a
        ``batch_size`` that does not divide ``N``.
    """
    if data is not None:
        num_data = jax.tree.leaves(data)[0].shape[0]
        planned, mask = _batch_plan(num_data, batch_size)
        if steps_per_epoch not in (None, planned):
            raise ValueError(f"steps_per_epoch is ceil(N / batch_size) = {planned} with data; got {steps_per_epoch}")
        steps_per_epoch = planned
    elif steps_per_epoch is None:
        raise ValueError("steps_per_epoch is required without data")
    for name, value, minimum in (("num_epochs", num_epochs, 1), ("steps_per_epoch", steps_per_epoch, 1),
                                 ("thinning", thinning, 1), ("burn_in", burn_in, 0), ("batch_size", batch_size, 1)):
        if not isinstance(value, (int, np.integer)) or value < minimum:
            raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    stateful = model_state is not None
    if stateful and data is not None and num_data % batch_size:
        raise ValueError(f"run_chain: with a model_state (BatchNorm statistics) batch_size must divide N; "
                         f"got batch_size={batch_size}, N={num_data} (a padded last batch would count its padding)")
    noise_key, gradient_key, shuffle_key = jax.random.split(rng_key, 3)
    chunks, remainder = divmod(steps_per_epoch, thinning)

    def run_epoch(carry, epoch):
        if data is not None:
            order = jax.random.permutation(jax.random.fold_in(shuffle_key, epoch), num_data)
            order = jnp.pad(order, (0, mask.size - num_data)).reshape(mask.shape)

        def one_step(carry, index):
            state, model = carry
            batch = None
            if data is not None:
                batch = MiniBatch(jax.tree.map(lambda a: a[order[index]], data), jnp.asarray(mask)[index])
            key = jax.random.fold_in(gradient_key, state.step)
            if stateful:
                gradient, model = gradient_fn(state.position, batch, key, model)
            else:
                gradient = gradient_fn(state.position, batch, key)
            state, info = kernel(jax.random.fold_in(noise_key, state.step), state, gradient)
            return (state, model), info

        def chunk(carry, first):
            carry, info = jax.lax.scan(one_step, carry, first + jnp.arange(thinning))
            state, model = carry
            return carry, ((state.position, model), info)

        carry, (kept, info) = jax.lax.scan(chunk, carry, thinning * jnp.arange(chunks))
        info = jax.tree.map(lambda a: a.reshape((chunks * thinning,) + a.shape[2:]), info)
        if remainder:
            carry, rest = jax.lax.scan(one_step, carry, chunks * thinning + jnp.arange(remainder))
            info = jax.tree.map(lambda a, b: jnp.concatenate([a, b]), info, rest)
        if end_epoch is not None:
            carry = (end_epoch(carry[0]), carry[1])
        return carry, (kept, info)

    (state, model), (kept, info) = jax.lax.scan(run_epoch, (state, model_state), jnp.arange(num_epochs))
    flat = lambda a: a.reshape((-1,) + a.shape[2:])  # noqa: E731
    keep = np.flatnonzero(kept_steps(num_epochs, steps_per_epoch, 0, thinning) > burn_in)
    positions, models = jax.tree.map(lambda a: flat(a)[keep], kept)
    if stateful:
        return (state, model), (positions, models), jax.tree.map(flat, info)
    return state, positions, jax.tree.map(flat, info)
