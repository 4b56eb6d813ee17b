"""Stochastic gradients ``g_hat`` of the average potential, as the SGRLD step consumes them.

Every estimator returns ``gradient_fn(position, batch, rng_key) -> g_hat``, the gradient of
the *potential* (the negative log density) divided by ``N`` (Yu et al. 2023, Sec. 2.1:
``g_hat = grad U / N``), so that the step ``theta - lr G^{-1} g_hat`` descends the potential.
The driver (:func:`geobayes.sgmcmc.driver.run_chain`) always passes all three arguments;
an estimator ignores what it does not use. A model with a state of its own (BatchNorm running
statistics) uses :func:`stateful_minibatch_potential_gradient`, which also takes and returns that
state (the driver's ``model_state``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from geobayes.sgmcmc.preconditioner import tree_normal

__all__ = ["MiniBatch", "minibatch_potential_gradient", "noisy_gradient", "stateful_minibatch_potential_gradient"]


class MiniBatch(NamedTuple):
    """A mini-batch of fixed size: ``data`` (pytree, leading axis ``B``) and a 0/1 ``mask``.

    The mask marks the real examples; it is all ones except in the padded last batch of an
    epoch whose size does not divide the data set (PyTorch's ``drop_last=False``).
    """

    data: Any
    mask: jax.Array


def minibatch_potential_gradient(log_likelihood_fn: Callable[[Any, Any], jax.Array],
                                 log_prior_fn: Callable[[Any], jax.Array], num_data: int,
                                 grad_max: float = 1e6):
    """``g_hat = grad[-(1/B) sum_i log p(y_i | x_i, theta) - log p(theta) / N]``, clamped.

    Yu et al. (2023), Sec. 2.1 (``g_hat = grad U / N``) and the code's ``potential_avg``
    (notes Sec. 2.8); every element is clamped to ``[-grad_max, grad_max]`` (the code's
    ``grad_max = 1e6``, effectively a guard against overflow).

    Parameters
    ----------
    log_likelihood_fn
        ``log_likelihood_fn(position, data) -> (B,)`` per-example log-likelihoods.
    log_prior_fn
        ``log_prior_fn(position) -> scalar`` log prior density (its gradient is included).
    num_data
        ``N``, the training-set size.
    grad_max
        Clamp bound, ``> 0``.

    Returns
    -------
    gradient_fn(position, batch, rng_key=None) -> g_hat
        ``batch`` is a :class:`MiniBatch` (the mean runs over the unmasked examples only)
        or a bare data pytree (all examples count). ``rng_key`` is unused.
    """
    _check_scaling(num_data, grad_max)

    def potential(position, batch):
        data, mask = _split(batch)
        return _potential(log_likelihood_fn(position, data), mask, log_prior_fn(position), num_data)

    gradient = jax.grad(potential)

    def gradient_fn(position, batch, rng_key=None):
        return _clamp(gradient(position, batch), grad_max)

    return gradient_fn


def stateful_minibatch_potential_gradient(log_likelihood_fn: Callable[[Any, Any, Any], tuple[jax.Array, Any]],
                                          log_prior_fn: Callable[[Any], jax.Array], num_data: int,
                                          grad_max: float = 1e6):
    """:func:`minibatch_potential_gradient` for a model with a state, e.g. BatchNorm statistics.

    The forward pass in train mode both gives the log-likelihoods and updates the model's state
    (the running statistics); the code updates them at every SGLD step and keeps them with each
    sample (Yu et al. 2023, CIFAR-10 ResNet-20; notes Sec. 8.4 item 16). The gradient is that of
    :func:`minibatch_potential_gradient`, taken through the same forward pass (``has_aux``), the
    state is not differentiated.

    Parameters
    ----------
    log_likelihood_fn
        ``log_likelihood_fn(position, model_state, data) -> ((B,) log-likelihoods, new_state)``,
        e.g. ``resnet20.log_likelihoods(params, bn_state, x, y, train=True)``.
    log_prior_fn, num_data, grad_max
        As :func:`minibatch_potential_gradient`.

    Returns
    -------
    gradient_fn(position, batch, rng_key, model_state) -> (g_hat, new_model_state)
        The form :func:`~geobayes.sgmcmc.driver.run_chain` calls with a ``model_state``.
        ``batch`` as in :func:`minibatch_potential_gradient`; its mask weights the mean only
        (a batch's statistics count every row, so the driver allows no padded batch here).
    """
    _check_scaling(num_data, grad_max)

    def potential(position, model_state, batch):
        data, mask = _split(batch)
        log_likelihoods, new_state = log_likelihood_fn(position, model_state, data)
        return _potential(log_likelihoods, mask, log_prior_fn(position), num_data), new_state

    gradient = jax.grad(potential, has_aux=True)

    def gradient_fn(position, batch, rng_key, model_state):
        g_hat, new_state = gradient(position, model_state, batch)
        return _clamp(g_hat, grad_max), jax.lax.stop_gradient(new_state)

    return gradient_fn


def _check_scaling(num_data, grad_max) -> None:
    if not num_data > 0:
        raise ValueError(f"num_data must be > 0; got {num_data!r}")
    if not grad_max > 0:
        raise ValueError(f"grad_max must be > 0; got {grad_max!r}")


def _split(batch):
    return (batch.data, batch.mask) if isinstance(batch, MiniBatch) else (batch, None)


def _potential(log_likelihoods, mask, log_prior, num_data):
    """``-(1/B) sum_i log p(y_i | x_i) - log p(theta) / N`` over the unmasked examples."""
    average = jnp.mean(log_likelihoods) if mask is None else jnp.sum(mask * log_likelihoods) / jnp.sum(mask)
    return -average - log_prior / num_data


def _clamp(gradient, grad_max):
    return jax.tree.map(lambda g: jnp.clip(g, -grad_max, grad_max), gradient)


def noisy_gradient(logdensity_fn: Callable[[Any], jax.Array], noise_std: float):
    """Exact potential gradient plus Gaussian noise: the funnel's stochastic gradients.

    Yu et al. (2023), Sec. 4.2 / A.4: ``g_hat = -grad log p(theta) + noise_std * eps`` with
    ``eps ~ N(0, I)`` per coordinate (``noise_std = 1`` on the funnel). The density is used
    as a whole (``N = 1``), so the step must be built with ``num_data = 1``; then
    ``theta - lr g_hat`` is the code's ``x + eta grad log p`` and the noise scale is
    ``sqrt(2 lr)``.

    Returns
    -------
    gradient_fn(position, batch, rng_key) -> g_hat
        ``batch`` is unused (pass ``None``); ``rng_key`` draws the noise.
    """
    if not noise_std >= 0:
        raise ValueError(f"noise_std must be >= 0; got {noise_std!r}")
    gradient = jax.grad(logdensity_fn)

    def gradient_fn(position, batch, rng_key):
        exact = gradient(position)
        noise = tree_normal(rng_key, position)
        return jax.tree.map(lambda g, e: -g + noise_std * e, exact, noise)

    return gradient_fn
