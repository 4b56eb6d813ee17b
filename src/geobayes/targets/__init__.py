"""Closed-form targets with exact samplers: Gaussians pushed through diffeomorphisms.

Yu et al. (2024), Theorem 3: for these, RLA-F from the Hausdorff MAP is exact.
"""

from geobayes.targets.diffeomorphic_gaussian import DiffeomorphicGaussian
from geobayes.targets.funnel import Funnel
from geobayes.targets.isotropic_gaussian import IsotropicGaussian
from geobayes.targets.rosenbrock import Rosenbrock
from geobayes.targets.softplus_funnel import SoftplusFunnel
from geobayes.targets.squiggle import Squiggle

__all__ = ["DiffeomorphicGaussian", "Funnel", "IsotropicGaussian", "Rosenbrock", "SoftplusFunnel", "Squiggle"]
