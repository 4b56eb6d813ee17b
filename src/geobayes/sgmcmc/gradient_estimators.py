"""Stochastic gradients ``g_hat`` of the average potential, as the SGRLD step consumes them.

Every estimator returns ``gradient_fn(position, batch, rng_key) -> g_hat``, the gradient of
the *potential* (the negative log density) divided by ``N`` (Yu et al. 2023, Sec. 2.1:
``g_hat = grad U / N``), so that the step ``theta - lr G^{-1} g_hat`` descends the potential.
The driver (:func:`geobayes.sgmcmc.driver.run_chain`) always passes all three arguments;
an estimator ignores what it does not use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from geobayes.sgmcmc.preconditioner import tree_normal

__all__ = ["MiniBatch", "minibatch_potential_gradient", "noisy_gradient"]


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
    if not num_data > 0:
        raise ValueError(f"num_data must be > 0; got {num_data!r}")
    if not grad_max > 0:
        raise ValueError(f"grad_max must be > 0; got {grad_max!r}")

    def potential(position, batch):
        data, mask = (batch.data, batch.mask) if isinstance(batch, MiniBatch) else (batch, None)
        log_likelihoods = log_likelihood_fn(position, data)
        if mask is None:
            average = jnp.mean(log_likelihoods)
        else:
            average = jnp.sum(mask * log_likelihoods) / jnp.sum(mask)
        return -average - log_prior_fn(position) / num_data

    gradient = jax.grad(potential)

    def gradient_fn(position, batch, rng_key=None):
        return jax.tree.map(lambda g: jnp.clip(g, -grad_max, grad_max), gradient(position, batch))

    return gradient_fn


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
