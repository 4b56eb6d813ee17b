"""Optimisation: maximum a posteriori estimation with restarts."""

from geobayes.optimize.map_estimate import MapEstimate, find_map

__all__ = ["MapEstimate", "find_map"]
