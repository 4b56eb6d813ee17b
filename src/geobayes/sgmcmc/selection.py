"""The hyperparameter selection of Yu et al. (2023), App. A.5 (notes Sec. 3.1, 8.4 item 12)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import numpy as np

__all__ = ["Selection", "select_grid_point", "select_per_alpha2"]


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


def select_per_alpha2(records: Iterable[Mapping[str, Any]]) -> dict[float, Selection]:
    """Monge's sweep of Yu et al. (2023), Fig. 4: for every ``alpha2`` its own validation-best learning rate.

    The records of one (width, prior) and the Monge sampler are grouped by their ``alpha2`` and each
    group goes through :func:`select_grid_point` (notes Sec. 5, Fig. 4: "for each alpha^2 the LP/acc
    shown uses that alpha^2's validation-best LR"). An ``alpha2`` whose every point diverged is left
    out (the paper's runs fail from alpha^2 = 2.5 on).

    Parameters
    ----------
    records
        Chain records with ``alpha2``, ``anchor``, ``valid_lp`` and ``n_failed``.

    Returns
    -------
    dict
        ``alpha2 -> Selection``, ascending in ``alpha2``.

    Raises
    ------
    ValueError
        If a record has no ``alpha2`` (not a Monge chain), or no ``alpha2`` has a valid point.
    """
    groups: dict[float, list[Mapping[str, Any]]] = {}
    for record in records:
        if record.get("alpha2") is None:
            raise ValueError(f"select_per_alpha2: record {record.get('anchor')!r} has no alpha2 (not a Monge chain)")
        groups.setdefault(float(record["alpha2"]), []).append(record)
    chosen = {}
    for alpha2 in sorted(groups):
        try:
            chosen[alpha2] = select_grid_point(groups[alpha2])
        except ValueError:
            continue
    if not chosen:
        raise ValueError(f"select_per_alpha2: every alpha2 ({sorted(groups)}) has only diverged points")
    return chosen

