"""The Monge metric ``I + alpha^2 grad l grad l^T`` (Bergamin et al. 2023; Hartmann et al. 2022)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from geobayes.geometry.metric import Metric


class Monge(Metric):
    """Monge metric of the log posterior, ``G = I + alpha2 * grad l grad l^T``.

    Used by RLA-B with ``alpha2 = 1`` (Bergamin et al. 2023, Eq. (7); Yu et al. 2024, Sec. 3).

    Parameters
    ----------
    alpha2
        Scale ``alpha^2`` of the outer product.
    """

    alpha2: float = 1.0

    def tensor(self, posterior, theta: jax.Array) -> jax.Array:
        g = posterior.grad(theta)
        return jnp.eye(theta.shape[0]) + self.alpha2 * jnp.outer(g, g)

    def squared_speed(self, posterior, theta: jax.Array, v: jax.Array) -> jax.Array:
        """``|v|^2 + alpha2 (grad l . v)^2`` without the D x D tensor: one gradient.

        Constant along an exact geodesic. With ``alpha2 = 1`` it bounds the log density's rate,
        ``|dl/dt| = |grad l . v| <= |v|_G``, so an exact geodesic of length ``|v|_G`` cannot change
        ``l`` by more than ``|v|_G`` (``benchmarks/geodesic_energy.py`` checks solves against it)."""
        g = posterior.grad(theta)
        return jnp.dot(v, v) + self.alpha2 * jnp.dot(g, v) ** 2

    def christoffel(self, posterior, theta: jax.Array, v: jax.Array) -> jax.Array:
        """Closed form ``alpha2 (v^T H v) / (1 + alpha2 |g|^2) g`` with ``g = grad l``, ``H`` its Hessian.

        Hartmann et al. (2022) / Yu et al. (2024), Sec. 1.4 of the notes: one gradient and one
        Hessian-vector product, no linear solve. Sign-invariant in ``l``.
        """
        g, hv = posterior.grad_and_hvp(theta, v)
        return self.alpha2 * jnp.dot(v, hv) / (1.0 + self.alpha2 * jnp.dot(g, g)) * g
