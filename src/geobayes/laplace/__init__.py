"""Laplace approximation of Gaussian network regression: posterior precision (GGN or exact
Hessian), the Laplace log marginal likelihood as laplace-torch computes it, and the post-hoc
Adam fit of prior precision and noise (Yu et al. 2024, Sec. 5.4; Bergamin et al. 2023,
Sec. 5.1 and Eq. A.10; Daxberger et al. 2021, "Laplace Redux"); and of softmax network
classification: the chunked GGN, its evidence and the ``marglik`` prior-precision fit, and the
LA / linearised-LA predictives (Bergamin et al. 2023, Sec. 5.2 and App. A)."""

from geobayes.laplace.classification import (
    MARGLIK_DEFAULTS,
    ClassificationEvidenceTerms,
    PriorPrecisionFit,
    check_classification_data,
    classification_evidence_terms,
    classification_ggn,
    classification_ggn_traceable,
    classification_log_marginal_likelihood,
    classification_log_marginal_likelihood_from_terms,
    classification_posterior_precision,
    glm_predictive_moments,
    optimise_prior_precision,
    optimise_prior_precision_from_terms,
    precision_to_scale_tril,
)
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
    "MARGLIK_DEFAULTS",
    "STRUCTURES",
    "ClassificationEvidenceTerms",
    "EvidenceTerms",
    "HyperparameterFit",
    "PriorPrecisionFit",
    "check_classification_data",
    "classification_evidence_terms",
    "classification_ggn",
    "classification_ggn_traceable",
    "classification_log_marginal_likelihood",
    "classification_log_marginal_likelihood_from_terms",
    "classification_posterior_precision",
    "data_curvature",
    "evidence_terms",
    "glm_predictive_moments",
    "log_marginal_likelihood",
    "log_marginal_likelihood_from_terms",
    "network_jacobian",
    "optimise_hyperparameters",
    "optimise_hyperparameters_from_config",
    "optimise_hyperparameters_from_terms",
    "optimise_prior_precision",
    "optimise_prior_precision_from_terms",
    "posterior_precision",
    "precision_to_scale_tril",
]
