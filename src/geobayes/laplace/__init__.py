"""Laplace approximation of Gaussian network regression: posterior precision (GGN or exact
Hessian), the Laplace log marginal likelihood as laplace-torch computes it, and the post-hoc
Adam fit of prior precision and noise (Yu et al. 2024, Sec. 5.4; Bergamin et al. 2023,
Sec. 5.1 and Eq. A.10; Daxberger et al. 2021, "Laplace Redux")."""

from geobayes.laplace.marginal_likelihood import (
    EvidenceTerms,
    HyperparameterFit,
    evidence_terms,
    log_marginal_likelihood,
    log_marginal_likelihood_from_terms,
    optimise_hyperparameters,
    optimise_hyperparameters_from_config,
    optimise_hyperparameters_from_terms,
)
from geobayes.laplace.posterior_precision import (
    STRUCTURES,
    data_curvature,
    network_jacobian,
    posterior_precision,
)

__all__ = [
    "STRUCTURES",
    "EvidenceTerms",
    "HyperparameterFit",
    "data_curvature",
    "evidence_terms",
    "log_marginal_likelihood",
    "log_marginal_likelihood_from_terms",
    "network_jacobian",
    "optimise_hyperparameters",
    "optimise_hyperparameters_from_config",
    "optimise_hyperparameters_from_terms",
    "posterior_precision",
]
