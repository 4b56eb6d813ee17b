"""Likelihood families: log density, Fisher information in the family's own parameters, and the
symmetrised KL between two members (the contrast of Hartmann et al. 2026, Eq. (11))."""

from geobayes.families.bernoulli import Bernoulli
from geobayes.families.categorical import Categorical
from geobayes.families.exponential_family import ExponentialFamily
from geobayes.families.gaussian_fixed_covariance import GaussianFixedCovariance
from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.families.gaussian_mean_variance import GaussianMeanVariance
from geobayes.families.poisson import Poisson

__all__ = [
    "Bernoulli",
    "Categorical",
    "ExponentialFamily",
    "GaussianFixedCovariance",
    "GaussianFixedVariance",
    "GaussianMeanVariance",
    "Poisson",
]
