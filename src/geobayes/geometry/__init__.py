"""Riemannian geometry: metric tensors, Christoffel contractions, exponential maps."""

from geobayes.geometry.christoffel import christoffel_contraction
from geobayes.geometry.euclidean import Euclidean
from geobayes.geometry.exponential_map import GeodesicEndpoints, OdeSettings, exponential_map
from geobayes.geometry.fisher import Fisher
from geobayes.geometry.metric import Metric
from geobayes.geometry.monge import Monge

__all__ = [
    "Euclidean",
    "Fisher",
    "GeodesicEndpoints",
    "Metric",
    "Monge",
    "OdeSettings",
    "christoffel_contraction",
    "exponential_map",
]
