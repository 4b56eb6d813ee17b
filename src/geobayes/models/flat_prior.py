"""The improper flat prior (``Sigma_pi = diag(inf)``)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp


class FlatPrior(eqx.Module):
    """``pi(theta) = 1``: no prior term in the log density, the metric or the contrast.

    Hartmann et al. (2026), Sec. 5.3: the squiggle and Rosenbrock settings (and Neal's funnel,
    App. C.2) use ``Sigma_pi = diag(inf)``, so the Bregman divergence of the prior vanishes and
    the approximate log map is Eq. (12) with ``G = I_Theta``.
    """

    def logdensity(self, theta: jax.Array) -> jax.Array:
        """Zero."""
        return jnp.zeros((), dtype=theta.dtype)

    def precision(self, dim: int) -> jax.Array:
        """Zero matrix, shape (dim, dim)."""
        return jnp.zeros((dim, dim))

    def covariance(self, dim: int) -> None:
        """None: the covariance is infinite."""
        return None

    def whitening(self, dim: int) -> None:
        """None."""
        return None
