"""Posterior = Model x Dataset, named ``<dataset>-<model>`` (posteriordb convention)."""

from __future__ import annotations

import equinox as eqx
import jax

from geobayes.dataset import Dataset
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.target import Target


class Posterior(Target):
    """A model conditioned on a data set.

    Parameters
    ----------
    name
        ``<dataset>-<model>``, e.g. ``heart_standardised-logreg``.
    model
        The statistical model (embedding, family, prior).
    data
        The prepared data set.

    Notes
    -----
    ``logdensity`` is the positive, unnormalised log posterior. Gradient, Hessian and
    Hessian-vector products come from autodiff; the Fisher metric from the model.
    """

    name: str = eqx.field(static=True)
    model: EmbeddingModel
    data: Dataset

    @property
    def dim(self) -> int:
        """Number of parameters D."""
        return self.model.dim(self.data)

    def logdensity(self, theta: jax.Array) -> jax.Array:
        """``log p(y | theta) + log p(theta)``."""
        return self.model.logdensity(theta, self.data)

    def grad_and_hvp(self, theta: jax.Array, v: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Gradient and Hessian-vector product ``H v``.

        The model's closed form where it has one (``model.grad_and_hvp``), otherwise one
        forward-over-reverse autodiff pass.
        """
        closed_form = getattr(self.model, "grad_and_hvp", None)
        if closed_form is not None:
            return closed_form(theta, v, self.data)
        return self.autodiff_grad_and_hvp(theta, v)

    def fisher(self, theta: jax.Array) -> jax.Array:
        """Fisher metric at ``theta`` (Yu et al. 2024, Eq. (3)), shape (D, D)."""
        return self.model.fisher(theta, self.data)

    @property
    def family(self) -> eqx.Module:
        """The model's likelihood family."""
        return self.model.family

    @property
    def affine_embedding(self) -> bool:
        """Whether the model's embedding is affine in ``theta``."""
        return self.model.affine_embedding

    def embed(self, theta: jax.Array) -> jax.Array:
        """``h(theta)`` on this data set."""
        return self.model.embedding(theta, self.data)

    def prior_covariance(self) -> jax.Array | None:
        """The model prior's covariance (None for a flat prior)."""
        return self.model.prior.covariance(self.dim)

    def whitening(self) -> jax.Array | None:
        """The prior's Cholesky factor for dense (kernel) priors, else None."""
        return self.model.prior.whitening(self.dim)

    def fisher_christoffel(self, theta: jax.Array, v: jax.Array) -> jax.Array:
        """``Gamma(v, v)`` of the Fisher metric: the model's closed form (``fisher_christoffel``)
        where it has one, otherwise the generic autodiff contraction."""
        closed_form = getattr(self.model, "fisher_christoffel", None)
        if closed_form is not None:
            return closed_form(theta, v, self.data)
        return super().fisher_christoffel(theta, v)


def split_posterior_name(name: str) -> tuple[str, str]:
    """Split ``<dataset>-<model>`` into its two parts, with a clear error otherwise."""
    parts = name.split("-")
    if len(parts) != 2 or not all(parts):
        raise ValueError(
            f"posterior name {name!r} is not of the form '<dataset>-<model>' "
            "(data set names use underscores, never hyphens)"
        )
    return parts[0], parts[1]
