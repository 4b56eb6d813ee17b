"""Likelihood families: log density and Fisher information in the family's own parameters."""

from geobayes.families.bernoulli import Bernoulli
from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance

__all__ = ["Bernoulli", "GaussianFixedVariance"]
