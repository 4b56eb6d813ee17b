"""A model as an embedding of the parameters onto a likelihood family, plus a Gaussian prior."""

from __future__ import annotations

from typing import ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.dataset import Dataset


class EmbeddingModel(eqx.Module):
    """Base class: ``y_n ~ family(h_n(theta))`` with ``theta ~ prior``.

    Subclasses give ``family``, ``prior`` and :meth:`embedding`. From that one description the
    log likelihood and the Fisher metric ``Dh^T I(h) Dh + prior precision`` follow generically
    (Yu et al. 2024, Sec. 4.3.3 and Supp. 14.2: the Fisher metric is the pullback of the
    family's Fisher information plus the negative Hessian of the log prior, Eq. (3)).
    Subclasses may override :meth:`fisher` and :meth:`fisher_christoffel` with closed forms;
    tests compare them with the generic path.
    """

    family: eqx.AbstractVar[eqx.Module]
    prior: eqx.AbstractVar[eqx.Module]

    #: Whether ``h`` is affine in ``theta`` (then the closed-form wrapped Gaussian's log map is
    #: a global diffeomorphism for exponential families, Hartmann et al. 2026, Corollary 1, and
    #: its inversion is a strongly convex problem solved by Newton).
    affine_embedding: ClassVar[bool] = False

    #: Whether the likelihood reads the inputs ``X``. Where they enter only when the model is built
    #: (a GP's kernel matrix), :func:`geobayes.pipeline.posteriors.build_posterior` pairs the model
    #: with its data's rows and no columns: the compiled programs then depend on ``N`` alone, so the
    #: five data sets of Hartmann et al.'s latent GPs (100 points each, 2-24 features) share theirs.
    reads_inputs: ClassVar[bool] = True

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Parameters ``h(theta)`` of the likelihood family (shape (N,) for one scalar parameter
        per observation; the family defines the shape)."""
        raise NotImplementedError

    def log_likelihood(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """``sum_n log p(y_n | h_n(theta))``."""
        return self.family.log_likelihood(data.y, self.embedding(theta, data))

    def log_likelihood_terms(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Per-observation ``log p(y_n | h_n(theta))``, shape (N,) (their sum is
        :meth:`log_likelihood`); the empirical Fisher metric is built from their gradients."""
        return self.family.log_likelihood_terms(data.y, self.embedding(theta, data))

    def logdensity(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Unnormalised log posterior ``log p(y | theta) + log p(theta)``."""
        return self.log_likelihood(theta, data) + self.prior.logdensity(theta)

    def fisher_generic(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Fisher metric from the embedding by autodiff: ``J^T diag(I(h)) J + prior precision``.

        Yu et al. (2024), Eq. (3) with the pullback form of Supp. 14.2.
        """
        jac = jax.jacfwd(self.embedding)(theta, data)  # (*params, D)
        g = self.family.pullback_fisher(self.embedding(theta, data), jac)
        g = g + self.prior.precision(theta.shape[0])
        return 0.5 * (g + g.T)

    def fisher(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Fisher metric; the generic path unless a subclass provides a closed form."""
        return self.fisher_generic(theta, data)

    def dim(self, data: Dataset) -> int:
        """Number of parameters for this data set."""
        return int(data.X.shape[1])


def symmetrise(matrix: jax.Array) -> jax.Array:
    """``(A + A^T) / 2``, as the papers' code does for every metric."""
    return 0.5 * (matrix + jnp.swapaxes(matrix, -1, -2))
