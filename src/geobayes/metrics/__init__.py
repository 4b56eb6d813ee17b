"""Evaluation metrics (not Riemannian metric tensors, which live in ``geobayes.geometry``).

* :func:`wasserstein1` — exact Wasserstein-1 distance between two sample sets with POT
  (Yu et al. 2024, Supp. 15.6).
* :func:`wasserstein2` — exact Wasserstein-2 distance (Hartmann et al. 2026, Sec. 6).
* :func:`wasserstein1_1d` — 1-D Wasserstein-1 distance (Yu et al. 2024, Fig. 3).
* :mod:`geobayes.metrics.monte_carlo_floor` — the same distances between two disjoint parts of
  the reference: what an exact sampler would score (not re-exported here, so that the module
  name is not shadowed by its function).

:data:`DISTANCES` names the distances an evaluation can compute (config key ``wasserstein``).
"""

#: Distances of an approximation's draws to the reference (config ``experiments.<e>.wasserstein``):
#: ``full`` exact W1 in R^D (Yu et al. 2024, Supp. 15.6), ``first_coordinate`` 1-D W1 of the first
#: coordinate (Yu et al. 2024, Fig. 3), ``w2`` exact W2 (Hartmann et al. 2026, Sec. 6).
DISTANCES = ("full", "first_coordinate", "w2")

from geobayes.metrics.wasserstein import (  # noqa: E402
    WassersteinNotConvergedError,
    wasserstein1,
    wasserstein1_1d,
    wasserstein2,
)

__all__ = ["DISTANCES", "WassersteinNotConvergedError", "wasserstein1", "wasserstein1_1d", "wasserstein2"]
