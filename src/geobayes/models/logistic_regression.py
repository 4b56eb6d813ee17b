"""Bayesian logistic regression (Yu et al. 2024, Sec. 5.3 and Supp. 14.1)."""

from __future__ import annotations

from typing import ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.dataset import Dataset
from geobayes.families.bernoulli import Bernoulli
from geobayes.models.embedding_model import EmbeddingModel, symmetrise
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.models.dense_gaussian_prior import DenseGaussianPrior
from geobayes.registry import register_model


class LogisticRegression(EmbeddingModel):
    """``y_n ~ Bernoulli(sigmoid(x_n^T theta))``, ``theta ~ N(0, prior_variance I)``.

    Parameters
    ----------
    prior
        Gaussian prior; the paper uses variance ``alpha = 100``.
    """

    affine_embedding: ClassVar[bool] = True

    family: Bernoulli = eqx.field(default_factory=Bernoulli)
    prior: eqx.Module = eqx.field(default_factory=GaussianPrior)

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Logits ``X theta``."""
        return data.X @ theta

    def fisher(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Closed-form Fisher metric ``X^T Lambda X + I / alpha``, ``Lambda = diag(s(1-s))``.

        Yu et al. (2024), Supp. 14.1. Equals the negative Hessian (canonical link).
        """
        s = jax.nn.sigmoid(data.X @ theta)
        lam = s * (1.0 - s)
        g = data.X.T @ (lam[:, None] * data.X) + self.prior.precision(theta.shape[0])
        return symmetrise(g)

    def fisher_christoffel(self, theta: jax.Array, v: jax.Array, data: Dataset) -> jax.Array:
        """Closed-form Christoffel contraction ``Gamma(v, v)`` of the Fisher metric.

        Yu et al. (2024), Supp. 14.1: every derivative ``d_i G_jl`` equals
        ``sum_n x_nj x_ni x_nl s_n (1 - s_n)(1 - 2 s_n)`` (fully symmetric), so
        ``Gamma(v, v) = 1/2 G^{-1} sum_n x_n s_n (1 - s_n)(1 - 2 s_n) (x_n^T v)^2``.
        """
        s = jax.nn.sigmoid(data.X @ theta)
        xv = data.X @ v
        weights = s * (1.0 - s) * (1.0 - 2.0 * s) * xv * xv
        rhs = 0.5 * (data.X.T @ weights)
        return jnp.linalg.solve(self.fisher(theta, data), rhs)

    def grad_and_hvp(
        self, theta: jax.Array, v: jax.Array, data: Dataset
    ) -> tuple[jax.Array, jax.Array]:
        """Closed-form gradient and Hessian-vector product of the log posterior.

        ``grad l = X^T (y - s) - P theta`` and
        ``H v = -X^T (s (1 - s) * X v) - P v`` with ``P`` the prior precision (``I / alpha``) (Yu et al. 2024, Supp. 14.1; the paper's
        code uses these analytic forms for the Monge metric of RLA-B).
        """
        s = jax.nn.sigmoid(data.X @ theta)
        precision = self.prior.precision(theta.shape[0])  # any Gaussian (or flat) prior
        grad = data.X.T @ (data.y - s) - precision @ theta
        hvp = -data.X.T @ (s * (1.0 - s) * (data.X @ v)) - precision @ v
        return grad, hvp


@register_model("logreg", "bernreg")
def _isotropic_from_options(options: dict, arrays: dict) -> LogisticRegression:
    """Prior N(0, prior_variance I): Yu et al. (2024), Sec. 5.3; Hartmann et al. (2026), Table 1."""
    return LogisticRegression(prior=GaussianPrior.from_options(options))


@register_model("synthbern")
def _file_prior_from_options(options: dict, arrays: dict) -> LogisticRegression:
    """Prior N(0, Sigma) with the Wishart-drawn Sigma of the data file (Hartmann et al. 2026, Fig. 1)."""
    return LogisticRegression(prior=DenseGaussianPrior(arrays["prior_covariance"]))
