"""The softplus funnel of Yu et al. (2023), Sec. 4.2 (notes Sec. 3.3)."""

from __future__ import annotations

import math

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.registry import register_target
from geobayes.targets.diffeomorphic_gaussian import DiffeomorphicGaussian


class SoftplusFunnel(DiffeomorphicGaussian):
    """``p(theta) = N(theta_{1..D-1} | mu, sp(theta_D) I) N(theta_D | 0, sigma^2)``, ``sp = softplus``.

    Yu et al. (2023), Sec. 4.2 and App. A.4: ``sp(theta_D)`` is the *variance* of the first
    ``D - 1`` coordinates; the paper's code uses ``D = 2``, ``mu = 2`` and ``sigma^2 = 80``
    (notes Sec. 3.3, values not in the paper). Read as a Gaussian pushed through a
    diffeomorphism, ``psi = ((theta_{1..D-1} - mu) / sqrt(sp(theta_D)), theta_D / sigma)`` is
    standard normal, so the density is normalised, exact draws are
    ``theta_D = sigma z_D``, ``theta_i = mu + sqrt(sp(theta_D)) z_i``, and each marginal is known
    (``theta_D ~ N(0, sigma^2)``), which is what the W1 check of the funnel experiment compares to.

    Parameters
    ----------
    name
        Target name, e.g. ``yu2023_funnel``.
    dimension
        ``D >= 2`` (paper: 2).
    mean
        ``mu``, the mean of ``theta_{1..D-1}`` (code: 2.0).
    variance
        ``sigma^2``, the variance of ``theta_D`` (code: 80).
    """

    dimension: int = eqx.field(default=2, static=True)
    mean: float = eqx.field(default=2.0, static=True, converter=float)
    variance: float = eqx.field(default=80.0, static=True, converter=float)

    def __check_init__(self):
        if isinstance(self.dimension, bool) or not isinstance(self.dimension, int) or self.dimension < 2:
            raise ValueError(f"{self.name}: dimension must be an integer >= 2, got {self.dimension!r}")
        if not math.isfinite(self.mean):
            raise ValueError(f"{self.name}: mean must be finite, got {self.mean}")
        if not (math.isfinite(self.variance) and self.variance > 0):
            raise ValueError(f"{self.name}: variance must be finite and > 0, got {self.variance}")

    @property
    def dim(self) -> int:
        """D."""
        return self.dimension

    def to_gaussian(self, theta: jax.Array) -> jax.Array:
        """``psi = ((theta_{1..D-1} - mu) / sqrt(sp(theta_D)), theta_D / sigma)``."""
        scale = jnp.sqrt(jax.nn.softplus(theta[-1]))
        return jnp.concatenate([(theta[:-1] - self.mean) / scale, theta[-1:] / math.sqrt(self.variance)])

    def from_gaussian(self, psi: jax.Array) -> jax.Array:
        """``theta = (mu + sqrt(sp(sigma psi_D)) psi_{1..D-1}, sigma psi_D)``."""
        last = math.sqrt(self.variance) * psi[-1]
        return jnp.concatenate([self.mean + jnp.sqrt(jax.nn.softplus(last)) * psi[:-1], last[None]])

    def log_abs_det_jacobian(self, theta: jax.Array) -> jax.Array:
        """``-(D - 1)/2 log sp(theta_D) - log sigma`` (the Jacobian is triangular)."""
        return -0.5 * (self.dimension - 1) * jnp.log(jax.nn.softplus(theta[-1])) - 0.5 * math.log(self.variance)


@register_target("softplus_funnel")
def _from_options(name: str, options: dict) -> SoftplusFunnel:
    """Yu et al.'s (2023) funnel from ``options``: ``dimension``, ``mean``, ``variance``."""
    return SoftplusFunnel(name=name, dimension=int(options.get("dimension", 2)),
                          mean=float(options.get("mean", 2.0)), variance=float(options.get("variance", 80.0)))
