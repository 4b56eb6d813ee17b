"""One SGRLD chain on a target given as a density, with noisy exact gradients (Yu et al. 2023, Sec. 4.2)."""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.sgmcmc.driver import run_chain
from geobayes.sgmcmc.gradient_estimators import noisy_gradient
from geobayes.sgmcmc.preconditioner import Preconditioner
from geobayes.sgmcmc.sgrld import sgrld

__all__ = ["TargetChain", "run_target_chain"]


class TargetChain(NamedTuple):
    """Every position of a chain and its per-step diagnostics.

    Attributes
    ----------
    positions
        ``theta_t`` after each step ``t = 1..T``, shape (T, D) (the code keeps all, no burn-in).
    finite
        Rows of ``positions`` that are finite, shape (T,): a chain that blew up is reported, not dropped.
    fallback
        Steps where Monge's metric was replaced by the scaled identity, shape (T,).
    """

    positions: np.ndarray
    finite: np.ndarray
    fallback: np.ndarray


def run_target_chain(rng_key: jax.Array, target, preconditioner: Preconditioner, *, learning_rate: float,
                     start, num_steps: int, noise_std: float) -> TargetChain:
    """``num_steps`` SGRLD steps on ``target`` from ``start``, gradients ``-grad log p + noise_std eps``.

    Yu et al. (2023), Sec. 4.2 and App. A.4: the step of Eq. 3 with ``N = 1``, so ``theta <-
    theta + lr G^{-1} (grad log p - noise_std eps) + sqrt(2 lr) G^{-1/2} xi`` (the funnel code's
    rule); the shared step and driver of :mod:`geobayes.sgmcmc` (one epoch of ``num_steps``
    steps, every position kept).

    Parameters
    ----------
    rng_key
        Key of the run (noise and gradient noise are derived from it by ``fold_in`` per step).
    target
        Has ``logdensity(theta)`` and ``dim``.
    preconditioner
        The metric.
    learning_rate, start, num_steps, noise_std
        Step size ``eta``, the start point (shape (D,)), the number of steps, the standard
        deviation of the gradient noise (the paper: 1).
    """
    start = jnp.asarray(start, dtype=jnp.float64)
    if start.shape != (target.dim,) or not bool(jnp.all(jnp.isfinite(start))):
        raise ValueError(f"start must be a finite point of shape ({target.dim},); got {np.asarray(start).tolist()}")
    if isinstance(num_steps, bool) or int(num_steps) != num_steps or num_steps < 1:
        raise ValueError(f"num_steps must be an integer >= 1; got {num_steps!r}")
    algorithm = sgrld(preconditioner, learning_rate, num_data=1)
    gradient_fn = noisy_gradient(target.logdensity, noise_std)

    @jax.jit
    def run(key):
        _, samples, info = run_chain(key, algorithm.step, algorithm.init(start), gradient_fn, num_epochs=1,
                                     steps_per_epoch=int(num_steps), thinning=1)
        return samples, info.fallback

    positions, fallback = run(rng_key)
    positions = np.asarray(positions)
    return TargetChain(positions, np.all(np.isfinite(positions), axis=1), np.asarray(fallback))
