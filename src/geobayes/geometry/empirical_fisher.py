"""The empirical Fisher metric: sums of per-observation score outer products.

Yu et al. (2024), Supp. 16.6.
"""

from __future__ import annotations

import jax

from geobayes.geometry.metric import Metric


class EmpiricalFisher(Metric):
    """``G_EF(theta) = sum_n s_n s_n^T + prior precision``.

    Scores ``s_n = grad_theta log p(y_n | h_n(theta))``, one per observation.

    Yu et al. (2024), Supp. 16.6 (notes Sec. 1.7(f)): the expectation over ``y`` in the Fisher
    metric (Eq. (3)) replaced by the observed data; the prior term is the Gaussian prior's
    precision, as in the authors' code. The Christoffel contraction is the generic autodiff one,
    as in the paper.

    The posterior must be a model conditioned on data whose model gives per-observation log
    likelihoods (``posterior.model.log_likelihood_terms``, e.g. an
    :class:`~geobayes.models.embedding_model.EmbeddingModel`); closed-form targets have none.
    """

    def tensor(self, posterior, theta: jax.Array) -> jax.Array:
        require_observation_terms(posterior)
        model, data = posterior.model, posterior.data
        scores = jax.jacfwd(model.log_likelihood_terms)(theta, data)  # (N, D)
        g = scores.T @ scores + model.prior.precision(theta.shape[0])
        return 0.5 * (g + g.T)


def require_observation_terms(posterior) -> None:
    """Raise a TypeError naming ``posterior`` unless it has per-observation log likelihoods."""
    model = getattr(posterior, "model", None)
    data = getattr(posterior, "data", None)
    if model is None or data is None or not hasattr(model, "log_likelihood_terms"):
        name = getattr(posterior, "name", type(posterior).__name__)
        raise TypeError(
            f"{name}: the empirical Fisher metric needs per-observation log likelihoods "
            "(a model conditioned on data with model.log_likelihood_terms); this target "
            f"({type(posterior).__name__}) has none"
        )
