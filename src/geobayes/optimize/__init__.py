"""Optimisation: maximum a posteriori estimation with restarts, Euclidean or Hausdorff."""

from geobayes.optimize.anchors import (
    ANCHOR_PRECISION,
    ANCHORS,
    anchor_objective,
    hausdorff_objective,
    tangent_precision,
)
from geobayes.optimize.map_estimate import MapEstimate, anchor_as_given, find_map

__all__ = ["ANCHORS", "ANCHOR_PRECISION", "MapEstimate", "anchor_as_given", "anchor_objective", "find_map", "hausdorff_objective",
           "tangent_precision"]
