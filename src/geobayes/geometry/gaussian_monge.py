"""The Monge metric of a Gaussian: the manifold ``P`` of RLA-BLog (Yu et al. 2024, Sec. 4.1)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from geobayes.geometry.metric import Metric


class GaussianMonge(Metric):
    """Monge metric of ``N(mean, precision^{-1})``: ``G_P = I + (P (theta - m)) (P (theta - m))^T``.

    The gradient of the Gaussian log density is ``-P (theta - m)``; the Monge metric
    ``I + grad grad^T`` is sign-invariant, so this is the metric ``G_P`` of the manifold
    :math:`\\mathcal P` in RLA-BLog (Yu et al. 2024, Sec. 4.1 and Algorithm 2; notes
    Sec. 1.5). It equals ``I`` at the mean, like the target's Monge metric at the MAP.

    The metric depends on the Gaussian only, not on any posterior: :meth:`tensor` and
    :meth:`christoffel` accept and ignore a ``posterior`` argument (``None`` is fine), so that
    :func:`~geobayes.geometry.exponential_map` can pass one.

    Parameters
    ----------
    mean
        Mean ``m`` (the MAP), shape (D,).
    precision
        Symmetric positive definite precision ``P``, shape (D, D).
    """

    mean: jax.Array
    precision: jax.Array

    def __check_init__(self):
        mean, precision = jnp.shape(self.mean), jnp.shape(self.precision)
        if len(mean) != 1 or precision != (mean[0], mean[0]):
            raise ValueError(
                "GaussianMonge: mean must have shape (D,) and precision shape (D, D); got "
                f"mean {mean} and precision {precision}"
            )

    def _scaled_offset(self, theta: jax.Array) -> jax.Array:
        """``P (theta - m)``, minus the Gaussian log-density gradient."""
        return self.precision @ (theta - self.mean)

    def tensor(self, posterior, theta: jax.Array) -> jax.Array:
        """``I + (P (theta - m)) (P (theta - m))^T``, shape (D, D); ``posterior`` is ignored."""
        g = self._scaled_offset(theta)
        return jnp.eye(theta.shape[0]) + jnp.outer(g, g)

    def christoffel(self, posterior, theta: jax.Array, v: jax.Array) -> jax.Array:
        """Closed form ``(v^T P v) / (1 + |P (theta - m)|^2) P (theta - m)``.

        The Monge contraction ``(v^T H v) / (1 + |g|^2) g`` (Hartmann et al. 2022; notes
        Sec. 1.4) with ``g = P (theta - m)`` and constant Hessian ``H = P``: the acceleration
        of Yu et al. (2024), Algorithm 2 / Supp. 12, up to sign. ``posterior`` is ignored.
        """
        g = self._scaled_offset(theta)
        return jnp.dot(v, self.precision @ v) / (1.0 + jnp.dot(g, g)) * g
