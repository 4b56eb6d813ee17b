"""Spherical Admixture Model (Reisinger et al. (2010)) as used by Liu & Zhu (2018), Sec. 5.2.

Topics ``beta`` are an ``(n, P)`` array with unit-norm columns on ``(S^{n-1})^P``. This package
gives the model pieces every sampler of the experiment shares: the prior with the corpus mean
integrated out, the document likelihood, the inner geodesic Monte Carlo sampler of the topic
proportions, the Fisher-identity gradient of ``log p(beta | v)`` and the test log-perplexity.
"""

from geobayes.sam.gradient import SamGradient, log_posterior_gradient
from geobayes.sam.likelihood import grad_log_likelihood, log_likelihood
from geobayes.sam.log_perplexity import DIRICHLET_DRAWS, log_perplexity
from geobayes.sam.prior import corpus_mean_direction, grad_log_prior, log_prior
from geobayes.sam.settings import SamSettings
from geobayes.sam.topic_proportions import (
    ThetaSamples,
    grad_topic_potential,
    initial_topic_proportions,
    sample_topic_proportions,
    simplex_geodesic_flow,
    topic_potential,
)

__all__ = [
    "DIRICHLET_DRAWS",
    "SamGradient",
    "SamSettings",
    "ThetaSamples",
    "corpus_mean_direction",
    "grad_log_likelihood",
    "grad_log_prior",
    "grad_topic_potential",
    "initial_topic_proportions",
    "log_likelihood",
    "log_perplexity",
    "log_posterior_gradient",
    "log_prior",
    "sample_topic_proportions",
    "simplex_geodesic_flow",
    "topic_potential",
]
