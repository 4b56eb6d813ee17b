"""Isotropic Gaussian prior N(0, variance * I)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.hyperparameter import positive_scalar, scalar_leaf


class GaussianPrior(eqx.Module):
    """Isotropic zero-mean Gaussian prior ``N(0, variance * I)``.

    Parameters
    ----------
    variance
        Prior variance (``alpha = 100`` for logistic regression in Yu et al. 2024, Sec. 5.3).
        Stored as a 0-d array (:mod:`geobayes.hyperparameter`): an argument of a compiled
        program, not a constant in it, so posteriors that differ only in it share executables.
    """

    variance: jax.Array = eqx.field(default=100.0, converter=scalar_leaf("prior variance"))

    def __check_init__(self):
        positive_scalar(self.variance, "prior variance")

    @classmethod
    def from_options(cls, options: dict) -> GaussianPrior:
        """The prior of an experiment's config slice: ``prior_variance`` (default 100)."""
        return cls(variance=float(options.get("prior_variance", 100.0)))

    def logdensity(self, theta: jax.Array) -> jax.Array:
        """Log density including its normalising constant."""
        d = theta.shape[0]
        return -0.5 * jnp.dot(theta, theta) / self.variance - 0.5 * d * jnp.log(
            2.0 * jnp.pi * self.variance
        )

    def precision(self, dim: int) -> jax.Array:
        """Precision matrix ``I / variance``, shape (dim, dim); equals ``-Hessian`` of the log prior."""
        return jnp.eye(dim) / self.variance

    def covariance(self, dim: int) -> jax.Array:
        """Covariance ``variance * I``, shape (dim, dim) (the ``Sigma_pi`` of Hartmann et al.
        2026, Eq. (15))."""
        return self.variance * jnp.eye(dim)

    def whitening(self, dim: int) -> None:
        """No reparametrisation needed: an isotropic prior is already well scaled."""
        return None
