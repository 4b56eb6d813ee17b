"""Abstract Riemannian metric on the parameter space of a posterior."""

from __future__ import annotations

import equinox as eqx
import jax

from geobayes.geometry.christoffel import christoffel_contraction


class Metric(eqx.Module):
    """A metric tensor field ``G(theta)`` attached to a posterior.

    Subclasses implement :meth:`tensor`; they may override :meth:`christoffel` with a closed
    form. The default contraction is the generic autodiff one
    (:func:`geobayes.geometry.christoffel.christoffel_contraction`).
    """

    def tensor(self, posterior, theta: jax.Array) -> jax.Array:
        """Metric tensor ``G(theta)``, shape (D, D)."""
        raise NotImplementedError

    def squared_speed(self, posterior, theta: jax.Array, v: jax.Array) -> jax.Array:
        """``|v|_G^2 = v^T G(theta) v``: constant along an exact geodesic (do Carmo 1992,
        Ch. 3, Sec. 2), so its drift along a solved one measures the solver's error
        (``benchmarks/geodesic_energy.py``)."""
        return v @ self.tensor(posterior, theta) @ v

    def christoffel(self, posterior, theta: jax.Array, v: jax.Array) -> jax.Array:
        """``Gamma(v, v)``; the geodesic acceleration is ``-Gamma(v, v)``."""
        return self.generic_christoffel(posterior, theta, v)

    def generic_christoffel(self, posterior, theta: jax.Array, v: jax.Array) -> jax.Array:
        """The autodiff contraction, whatever :meth:`christoffel` is (for tests)."""
        return christoffel_contraction(lambda th: self.tensor(posterior, th), theta, v)
