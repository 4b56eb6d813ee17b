"""Laplace approximation of Gaussian network regression: posterior precision (GGN or exact
Hessian), the Laplace log marginal likelihood as laplace-torch computes it, and the post-hoc
Adam fit of prior precision and noise (Yu et al. 2024, Sec. 5.4; Bergamin et al. 2023,
Sec. 5.1 and Eq. A.10; Daxberger et al. 2021, "Laplace Redux"); and of softmax network
classification: the chunked GGN and laplace-torch's GLM predictive moments (``classification``), its
evidence and the ``marglik`` prior-precision fit (``classification_evidence``) (Bergamin et al. 2023,
Sec. 5.2 and App. A)."""

from geobayes.laplace.classification import (
    check_classification_data,
    classification_ggn,
    classification_ggn_traceable,
    classification_posterior_precision,
    glm_predictive_moments,
    precision_to_scale_tril,
)
from geobayes.laplace.classification_evidence import (
    MARGLIK_DEFAULTS,
    ClassificationEvidenceTerms,
    PriorPrecisionFit,
    classification_evidence_terms,
    classification_log_marginal_likelihood,
    classification_log_marginal_likelihood_from_terms,
    optimise_prior_precision,
    optimise_prior_precision_from_terms,
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
