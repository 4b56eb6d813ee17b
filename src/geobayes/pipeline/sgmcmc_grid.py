"""Names of the grid points of Yu et al.'s (2023) learning-rate (and Monge alpha^2) grid (App. A.5).

Kept apart from :mod:`geobayes.pipeline.sgmcmc_classifier` so the Snakefile can name the DAG's
grid-point jobs without importing JAX (about 3 CPU seconds of every Snakemake start).
"""

from __future__ import annotations

__all__ = ["grid_point_label"]


def grid_point_label(learning_rate: float, alpha2: float | None = None) -> str:
    """The grid point's name in paths and the tidy ``anchor`` column: ``lr0.25`` or ``lr0.25_a1.25``."""
    label = f"lr{learning_rate:g}"
    return label if alpha2 is None else f"{label}_a{alpha2:g}"
