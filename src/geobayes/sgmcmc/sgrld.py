"""The one Euler-Maruyama SGRLD step shared by every metric (Yu et al. 2023, Sec. 2, Eq. 3).

In the learning-rate parametrisation of Wenzel et al. (2020) used by the paper (A.5) and
its code, with ``g_hat`` the gradient of the *average* potential ``U / N`` and the
learning rate ``lr = h N``::

    theta <- theta - lr G^{-1} g_hat + sqrt(2 lr tau / N) G^{-1/2} xi  [+ tau Gamma(theta) lr / N]

Every sampler of the paper drops the ``Gamma`` correction; it is available as an optional
callable for metrics where it is known.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from geobayes.sgmcmc.preconditioner import Preconditioner, tree_norm, tree_normal

__all__ = ["SGRLDInfo", "SGRLDState", "SGRLDAlgorithm", "build_kernel", "init", "sgrld"]


class SGRLDState(NamedTuple):
    """State of an SGRLD chain.

    Attributes
    ----------
    position
        The parameters ``theta``, a pytree of arrays.
    preconditioner_state
        The metric's running statistics (see each preconditioner).
    step
        Number of steps taken so far (0 at :func:`init`); the next step is ``step + 1``.
    """

    position: Any
    preconditioner_state: Any
    step: jax.Array


class SGRLDInfo(NamedTuple):
    """Diagnostics of one step.

    Attributes
    ----------
    drift_norm
        ``||lr G^{-1} g_hat||``, the length of the deterministic move.
    noise_norm
        ``||sqrt(2 lr tau / N) G^{-1/2} xi||``, the length of the injected noise.
    fallback
        Whether the preconditioner replaced its metric by the scaled identity (Monge's
        funnel fallback); always False for the others.
    """

    drift_norm: jax.Array
    noise_norm: jax.Array
    fallback: jax.Array


class SGRLDAlgorithm(NamedTuple):
    """``init``, ``step`` and ``end_epoch`` of one configured sampler (BlackJAX style)."""

    init: Callable[[Any], SGRLDState]
    step: Callable[[jax.Array, SGRLDState, Any], tuple[SGRLDState, SGRLDInfo]]
    end_epoch: Callable[[SGRLDState], SGRLDState]


def init(position: Any, preconditioner: Preconditioner) -> SGRLDState:
    """Start a chain at ``position`` with the metric's initial statistics (step 0)."""
    return SGRLDState(position, preconditioner.init(position), jnp.asarray(0, dtype=jnp.int32))


def build_kernel(preconditioner: Preconditioner, learning_rate: float, num_data: float,
                 temperature: float = 1.0,
                 gamma_fn: Callable[[Any, Any], Any] | None = None):
    """The SGRLD transition; Yu et al. (2023), Eq. 3 in the learning-rate form of A.5.

    Parameters
    ----------
    preconditioner
        The metric (identity, rmsprop, wenzel, monge, shampoo).
    learning_rate
        ``lr = h N`` (the tuned quantity of the paper's Tables 4-5); ``> 0``.
    num_data
        ``N``, the number of training points (1 for targets given as densities, e.g. the
        funnel, where the step is ``theta - lr G^{-1} g + sqrt(2 lr) G^{-1/2} xi``).
    temperature
        ``tau`` (1 in every experiment of the paper).
    gamma_fn
        Optional ``gamma_fn(position, preconditioner_state) -> Gamma`` (a pytree like the
        position), the correction ``Gamma_j = sum_k d(G^{-1})_{jk} / d theta_k`` of Eq. 2;
        the step adds ``tau Gamma h`` with ``h = lr / N``. ``None`` (default) drops it, as
        every sampler of the paper does.

    Returns
    -------
    kernel(rng_key, state, gradient) -> (state, info)
        ``gradient`` is ``g_hat``, the gradient of the average potential
        ``-(1/B) sum_i log p(y_i | x_i, theta) - log p(theta) / N``, computed by the caller.
        Per step the metric's statistics are updated with ``g_hat`` first (step number
        ``state.step + 1``), then ``G^{-1} g_hat`` and ``G^{-1/2} xi`` are applied, with
        ``xi`` standard normal per leaf from ``rng_key``.
    """
    if not learning_rate > 0:
        raise ValueError(f"learning_rate must be > 0; got {learning_rate!r}")
    if not num_data > 0:
        raise ValueError(f"num_data must be > 0; got {num_data!r}")
    if not temperature >= 0:
        raise ValueError(f"temperature must be >= 0; got {temperature!r}")
    noise_scale = (2.0 * learning_rate * temperature / num_data) ** 0.5

    def kernel(rng_key: jax.Array, state: SGRLDState, gradient: Any) -> tuple[SGRLDState, SGRLDInfo]:
        step = state.step + 1
        statistics = preconditioner.update(state.preconditioner_state, gradient, step)
        noise = tree_normal(rng_key, state.position)
        drift, applied_noise, fallback = preconditioner.precondition(statistics, gradient, noise)
        drift = jax.tree.map(lambda d: learning_rate * d, drift)
        applied_noise = jax.tree.map(lambda n: noise_scale * n, applied_noise)
        position = jax.tree.map(lambda x, d, n: x - d + n, state.position, drift, applied_noise)
        if gamma_fn is not None:
            correction = temperature * learning_rate / num_data
            gamma = gamma_fn(state.position, statistics)
            position = jax.tree.map(lambda x, g: x + correction * g, position, gamma)
        info = SGRLDInfo(tree_norm(drift), tree_norm(applied_noise), fallback)
        return SGRLDState(position, statistics, step), info

    return kernel


def sgrld(preconditioner: Preconditioner, learning_rate: float, num_data: float,
          temperature: float = 1.0, gamma_fn: Callable[[Any, Any], Any] | None = None) -> SGRLDAlgorithm:
    """``(init, step, end_epoch)`` of SGRLD with ``preconditioner`` (Yu et al. 2023, Eq. 3)."""
    kernel = build_kernel(preconditioner, learning_rate, num_data, temperature, gamma_fn)

    def end_epoch(state: SGRLDState) -> SGRLDState:
        return state._replace(preconditioner_state=preconditioner.end_epoch(state.preconditioner_state))

    return SGRLDAlgorithm(lambda position: init(position, preconditioner), kernel, end_epoch)
