"""A thin ``lax.scan`` driver for SGRLD chains: epochs, mini-batches, burn-in and thinning.

It reproduces the sample schedule of the official code (Yu et al. 2023, Sec. 4.1 / A.5;
notes Sec. 3.1): ``steps_per_epoch`` steps per epoch, a sample kept after in-epoch step
``i`` (0-based) when ``(i + 1) % thinning == 0`` and the global step count exceeds
``burn_in``, and the metric's epoch hook (Wenzel) after each epoch.
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
              end_epoch: Callable[[SGRLDState], SGRLDState] | None = None
              ) -> tuple[SGRLDState, Any, SGRLDInfo]:
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

    Returns
    -------
    (final_state, samples, info)
        ``samples``: the kept positions stacked along a new leading axis (global steps
        :func:`kept_steps`); ``info``: the per-step :class:`~geobayes.sgmcmc.sgrld.SGRLDInfo`
        with leading axis ``num_epochs * steps_per_epoch``.
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
    noise_key, gradient_key, shuffle_key = jax.random.split(rng_key, 3)
    chunks, remainder = divmod(steps_per_epoch, thinning)

    def run_epoch(state, epoch):
        if data is not None:
            order = jax.random.permutation(jax.random.fold_in(shuffle_key, epoch), num_data)
            order = jnp.pad(order, (0, mask.size - num_data)).reshape(mask.shape)

        def one_step(state, index):
            batch = None
            if data is not None:
                batch = MiniBatch(jax.tree.map(lambda a: a[order[index]], data), jnp.asarray(mask)[index])
            gradient = gradient_fn(state.position, batch, jax.random.fold_in(gradient_key, state.step))
            return kernel(jax.random.fold_in(noise_key, state.step), state, gradient)

        def chunk(state, first):
            state, info = jax.lax.scan(one_step, state, first + jnp.arange(thinning))
            return state, (state.position, info)

        state, (positions, info) = jax.lax.scan(chunk, state, thinning * jnp.arange(chunks))
        info = jax.tree.map(lambda a: a.reshape((chunks * thinning,) + a.shape[2:]), info)
        if remainder:
            state, rest = jax.lax.scan(one_step, state, chunks * thinning + jnp.arange(remainder))
            info = jax.tree.map(lambda a, b: jnp.concatenate([a, b]), info, rest)
        if end_epoch is not None:
            state = end_epoch(state)
        return state, (positions, info)

    state, (positions, info) = jax.lax.scan(run_epoch, state, jnp.arange(num_epochs))
    flat = lambda a: a.reshape((-1,) + a.shape[2:])  # noqa: E731
    keep = np.flatnonzero(kept_steps(num_epochs, steps_per_epoch, 0, thinning) > burn_in)
    samples = jax.tree.map(lambda a: flat(a)[keep], positions)
    return state, samples, jax.tree.map(flat, info)
