"""The hyperparameter selection of Yu et al. (2023), App. A.5 (notes Sec. 3.1, 8.4 item 12)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import numpy as np

__all__ = ["Selection", "select_grid_point"]


class Selection(NamedTuple):
    """The chosen grid point, every valid point's score and the points excluded.

    Attributes
    ----------
    point
        Label of the grid point with the highest mean validation LP.
    scores
        Label -> mean validation LP over its seeds, for every valid point.
    excluded
        Labels of the points where some seed diverged ("an LR is discarded if any of its runs
        breaks down").
    """

    point: str
    scores: dict[str, float]
    excluded: list[str]


def select_grid_point(records: Iterable[Mapping[str, Any]]) -> Selection:
    """Pick the grid point (``anchor``) with the highest mean ``valid_lp`` over its seeds.

    Yu et al. (2023), App. A.5: constant learning rates (and Monge's ``alpha^2``) are chosen by the
    validation log predictive of the sample ensemble at the end of sampling, the mean over runs;
    a learning rate is discarded if any of its runs breaks down (``n_failed > 0`` or a missing
    ``valid_lp``).

    Parameters
    ----------
    records
        Chain records with ``anchor`` (the point's label), ``valid_lp`` and ``n_failed``.

    Raises
    ------
    ValueError
        If there are no records, or every point has a diverged seed (naming them).
    """
    by_point: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        by_point.setdefault(record["anchor"], []).append(record)
    if not by_point:
        raise ValueError("select_grid_point: no chain records")
    excluded = sorted(p for p, rs in by_point.items() if any(r["n_failed"] or r.get("valid_lp") is None for r in rs))
    scores = {p: float(np.mean([r["valid_lp"] for r in rs])) for p, rs in by_point.items() if p not in excluded}
    if not scores:
        raise ValueError(f"select_grid_point: every grid point has a diverged run ({', '.join(excluded)}); "
                         "widen the learning-rate grid")
    return Selection(max(scores, key=scores.get), scores, excluded)
