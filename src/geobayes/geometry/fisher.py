"""The Fisher metric of a posterior (Yu et al. 2024, Eq. (3))."""

from __future__ import annotations

import equinox as eqx
import jax

from geobayes.geometry.metric import Metric


class Fisher(Metric):
    """Fisher information of the likelihood plus the negative Hessian of the log prior.

    Parameters
    ----------
    analytic
        Use the model's closed-form Christoffel contraction (``fisher_christoffel``) where it
        has one (``posterior.fisher_christoffel``); otherwise, or when False, the generic
        autodiff contraction.
    """

    analytic: bool = eqx.field(default=True, static=True)

    def tensor(self, posterior, theta: jax.Array) -> jax.Array:
        return posterior.fisher(theta)

    def christoffel(self, posterior, theta: jax.Array, v: jax.Array) -> jax.Array:
        if self.analytic:
            return posterior.fisher_christoffel(theta, v)
        return self.generic_christoffel(posterior, theta, v)
