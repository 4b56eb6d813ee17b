"""Riemannian geometry: metric tensors, Christoffel contractions, exponential and logarithmic maps."""

from geobayes.geometry.christoffel import christoffel_contraction
from geobayes.geometry.empirical_fisher import EmpiricalFisher
from geobayes.geometry.euclidean import Euclidean
from geobayes.geometry.exponential_map import GeodesicEndpoints, OdeSettings, exponential_map
from geobayes.geometry.fisher import Fisher
from geobayes.geometry.gaussian_monge import GaussianMonge
from geobayes.geometry.logarithmic_map import LogMapResult, LogMapSettings, logarithmic_map
from geobayes.geometry.metric import Metric
from geobayes.geometry.monge import Monge

__all__ = [
    "EmpiricalFisher",
    "Euclidean",
    "Fisher",
    "GaussianMonge",
    "GeodesicEndpoints",
    "LogMapResult",
    "LogMapSettings",
    "Metric",
    "Monge",
    "OdeSettings",
    "christoffel_contraction",
    "exponential_map",
    "logarithmic_map",
]
