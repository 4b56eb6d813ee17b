"""The banana: a Gaussian likelihood of ``theta1 + theta2^2`` (Yu et al. 2024, Sec. 5.2)."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from geobayes.dataset import Dataset
from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.models.embedding_model import EmbeddingModel, symmetrise
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.registry import positive_option, register_model


class Banana(EmbeddingModel):
    """``y_n ~ N(theta1 + theta2^2, sigma_y^2)``, ``theta ~ N(0, sigma_theta^2 I_2)``.

    Yu et al. (2024), Sec. 5.2 and Supp. 15.8, after Brofos & Lederman (2021); notes Sec. 1.7(a),
    2.3. Every observation has the same embedding ``h(theta) = theta1 + theta2^2``, so the data
    set carries no inputs (``X`` of shape (N, 0)) and ``D = 2`` whatever ``X`` is. The posterior
    has two Euclidean MAPs mirrored in ``theta2`` and one Hausdorff MAP on ``theta2 = 0``.

    Parameters
    ----------
    prior
        Gaussian prior ``N(0, sigma_theta^2 I)``; the paper uses ``sigma_theta^2 = 4``.
    noise_variance
        ``sigma_y^2``; the paper uses 4.
    """

    family: GaussianFixedVariance
    prior: GaussianPrior

    def __init__(self, prior: GaussianPrior | None = None, noise_variance: float = 4.0):
        if not (math.isfinite(noise_variance) and noise_variance > 0):
            raise ValueError(
                f"banana: noise_variance must be finite and > 0, got {noise_variance}"
            )
        self.prior = GaussianPrior(4.0) if prior is None else prior
        self.family = GaussianFixedVariance(float(noise_variance))

    @property
    def noise_variance(self) -> float:
        """``sigma_y^2``, the variance of the Gaussian family."""
        return self.family.noise_variance

    def dim(self, data: Dataset) -> int:
        """D = 2 for every data set."""
        return 2

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Means ``h_n(theta) = theta1 + theta2^2``, the same for all N observations, shape (N,)."""
        return jnp.zeros_like(data.y) + (theta[0] + theta[1] ** 2)

    def fisher(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Closed-form Fisher metric ``I / sigma_theta^2 + (N / sigma_y^2) grad h grad h^T``.

        ``grad h = (1, 2 theta2)``: Yu et al. (2024), Supp. 15.8 (notes Sec. 1.7(a)).
        """
        grad_h = _embedding_gradient(theta)
        n = data.y.shape[0]
        g = n / self.noise_variance * jnp.outer(grad_h, grad_h) + self.prior.precision(2)
        return symmetrise(g)

    def fisher_christoffel(self, theta: jax.Array, v: jax.Array, data: Dataset) -> jax.Array:
        """Closed-form ``Gamma(v, v) = G^{-1} (N / sigma_y^2) grad h (v^T nabla^2 h v)``.

        The Fisher metric is a constant plus the pullback of the flat metric ``N / sigma_y^2``
        by ``h``, so ``(d_v G) v - 1/2 grad(v^T G v)`` reduces to
        ``(N / sigma_y^2) grad h (v^T nabla^2 h v)`` with ``v^T nabla^2 h v = 2 v2^2`` (notes
        Sec. 1.7(e) has the same form for networks). Yu et al. (2024) used the generic autodiff
        contraction for the banana; the two agree (tests).
        """
        n = data.y.shape[0]
        rhs = n / self.noise_variance * 2.0 * v[1] ** 2 * _embedding_gradient(theta)
        return jnp.linalg.solve(self.fisher(theta, data), rhs)


def _embedding_gradient(theta: jax.Array) -> jax.Array:
    """``grad h = (1, 2 theta2)``."""
    return jnp.stack([jnp.ones_like(theta[0]), 2.0 * theta[1]])


@register_model("banana")
def _from_options(options: dict, arrays: dict) -> Banana:
    """Prior N(0, prior_variance I), noise variance ``noise_std ** 2`` (Yu et al. 2024, Sec. 5.2)."""
    return Banana(prior=GaussianPrior.from_options(options), noise_variance=positive_option(options, "noise_std") ** 2)
