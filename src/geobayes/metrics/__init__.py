"""Evaluation metrics (not Riemannian metric tensors, which live in ``geobayes.geometry``).

* :func:`wasserstein1` — exact Wasserstein-1 distance between two sample sets with POT
  (Yu et al. 2024, Supp. 15.6).
* :func:`wasserstein2` — exact Wasserstein-2 distance (Hartmann et al. 2026, Sec. 6).
* :func:`wasserstein1_1d` — 1-D Wasserstein-1 distance (Yu et al. 2024, Fig. 3).
* :mod:`geobayes.metrics.monte_carlo_floor` — the same distances between two disjoint parts of
  the reference: what an exact sampler would score (not re-exported here, so that the module
  name is not shadowed by its function).
"""

from geobayes.metrics.wasserstein import (
    WassersteinNotConvergedError,
    wasserstein1,
    wasserstein1_1d,
    wasserstein2,
)

__all__ = ["WassersteinNotConvergedError", "wasserstein1", "wasserstein1_1d", "wasserstein2"]
