"""Neal's funnel in two dimensions (Yu et al. 2024, Supp. 16.3, Fig. 9)."""

from __future__ import annotations

import math

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.targets.diffeomorphic_gaussian import DiffeomorphicGaussian
from geobayes.registry import register_target


class Funnel(DiffeomorphicGaussian):
    """``p(theta) = N(theta2 | 0, sigma) N(theta1 | 0, exp(theta2 / 2))``, standard deviations.

    Yu et al. (2024), Supp. 16.3 (notes Sec. 1.7(c), 2.4): ``psi = (theta1 exp(-theta2 / 2),
    theta2 / sigma)``, ``S = I``, so ``J = [[e^{-theta2/2}, -theta1 e^{-theta2/2} / 2],
    [0, 1/sigma]]`` and ``G = J^T J``. The Hausdorff MAP is 0; the Euclidean mode is
    ``(0, -sigma^2 / 2)`` = ``(0, -4.5)`` for ``sigma = 3``. Exact draws: ``theta2 = sigma z2``,
    ``theta1 = exp(theta2 / 2) z1``.

    Parameters
    ----------
    name
        Target name, e.g. ``funnel``.
    sigma
        Standard deviation of ``theta2`` (paper: 3).
    """

    sigma: float = eqx.field(default=3.0, static=True, converter=float)

    def __check_init__(self):
        if not (math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"{self.name}: sigma must be finite and > 0, got {self.sigma}")

    @property
    def dim(self) -> int:
        """D = 2."""
        return 2

    def to_gaussian(self, theta: jax.Array) -> jax.Array:
        """``psi = (theta1 exp(-theta2 / 2), theta2 / sigma)``."""
        return jnp.stack([theta[0] * jnp.exp(-0.5 * theta[1]), theta[1] / self.sigma])

    def from_gaussian(self, psi: jax.Array) -> jax.Array:
        """``theta = (exp(sigma psi2 / 2) psi1, sigma psi2)``."""
        theta2 = self.sigma * psi[1]
        return jnp.stack([jnp.exp(0.5 * theta2) * psi[0], theta2])

    def to_gaussian_jacobian(self, theta: jax.Array) -> jax.Array:
        """``[[e^{-theta2/2}, -theta1 e^{-theta2/2} / 2], [0, 1/sigma]]`` (notes Sec. 1.7(c))."""
        scale = jnp.exp(-0.5 * theta[1])
        return jnp.array([[scale, -0.5 * theta[0] * scale], [0.0, 1.0 / self.sigma]])

    def log_abs_det_jacobian(self, theta: jax.Array) -> jax.Array:
        """``-theta2 / 2 - log sigma``."""
        return -0.5 * theta[1] - jnp.log(self.sigma)


@register_target("funnel")
def _from_options(name: str, options: dict) -> Funnel:
    """Neal's funnel with ``options['sigma']`` (Yu et al. 2024, Supp. 16.3)."""
    return Funnel(name=name, sigma=float(options["sigma"]))
