"""The interface every target density shares: posteriors (model x data) and closed-form targets."""

from __future__ import annotations

import equinox as eqx
import jax

from geobayes.geometry.christoffel import christoffel_contraction


class Target(eqx.Module):
    """An unnormalised log density on ``R^D`` with the derivatives the methods need.

    Subclasses set a static ``name`` and implement :attr:`dim` and :meth:`logdensity`; they
    may implement :meth:`fisher` (the Fisher metric of Yu et al. 2024, Eq. (3)) and override
    any derivative with a closed form. Gradient, Hessian and Hessian-vector products default
    to autodiff, and the Fisher metric's Christoffel contraction to the generic autodiff one.
    """

    @property
    def dim(self) -> int:
        """Number of parameters D."""
        raise NotImplementedError

    def logdensity(self, theta: jax.Array) -> jax.Array:
        """Unnormalised log density at ``theta`` (shape (D,))."""
        raise NotImplementedError

    def grad(self, theta: jax.Array) -> jax.Array:
        """Gradient of :meth:`logdensity`."""
        return jax.grad(self.logdensity)(theta)

    def hessian(self, theta: jax.Array) -> jax.Array:
        """Hessian of :meth:`logdensity`, shape (D, D)."""
        return jax.hessian(self.logdensity)(theta)

    def grad_and_hvp(self, theta: jax.Array, v: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Gradient and Hessian-vector product ``H v`` (one forward-over-reverse pass)."""
        return self.autodiff_grad_and_hvp(theta, v)

    def autodiff_grad_and_hvp(self, theta: jax.Array, v: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Gradient and ``H v`` by autodiff, whatever closed form a subclass has (for tests)."""
        return jax.jvp(self.grad, (theta,), (v,))

    def fisher(self, theta: jax.Array) -> jax.Array:
        """Fisher metric at ``theta``, shape (D, D) (Yu et al. 2024, Eq. (3))."""
        raise NotImplementedError(f"{self.name}: this target defines no Fisher metric")

    @property
    def family(self) -> eqx.Module:
        """Likelihood family of the contrast description (Hartmann et al. 2026, Sec. 4)."""
        raise NotImplementedError(
            f"{self.name}: this target has no likelihood family / embedding description, which "
            "the closed-form wrapped Gaussian needs"
        )

    def embed(self, theta: jax.Array) -> jax.Array:
        """``h(theta)``: the parameters of :attr:`family` (the imbedding of Hartmann et al.)."""
        raise NotImplementedError(f"{self.name}: this target has no embedding")

    def prior_covariance(self) -> jax.Array | None:
        """``Sigma_pi`` of the Gaussian prior, shape (D, D), or None for a flat prior."""
        raise NotImplementedError(f"{self.name}: this target has no prior description")

    def whitening(self) -> jax.Array | None:
        """Lower-triangular ``L`` such that ``theta = L z`` is a better-conditioned coordinate
        for NUTS and the MAP search (the non-centred parametrisation), or None."""
        return None

    def fisher_christoffel(self, theta: jax.Array, v: jax.Array) -> jax.Array:
        """Christoffel contraction ``Gamma(v, v)`` of :meth:`fisher`; generic autodiff by default."""
        return christoffel_contraction(self.fisher, theta, v)
