"""The one ours-vs-paper comparison of every reproduced table.

Flag rule (:func:`outside_spread`): a value is *outside the paper's spread* when
:math:`|\\bar x_\\text{ours} - \\bar x_\\text{paper}| > 2\\max(s_\\text{paper}, s_\\text{ours},
\\text{floor})` or our mean is not finite. The floor is a metric's print resolution (the
papers print W to three decimals, so a printed std of ``0.0`` means "below 0.0005"). Values the
paper prints without a spread (function-evaluation counts, timings) are not flagged: a single
number has no spread to be outside of; they are compared by ratio only.

Winner rule (:func:`winner_agreement`): in every comparison group of a metric with a bold rule
(the cells that differ only in the table's ``compare_over`` key, usually the method), the best
of our means and the best of the paper's means over the cells both have; the winners agree
when they are the same cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = ["DEFAULT_FLOOR", "spread_tolerance", "outside_spread", "best_flags", "winner_agreement",
           "comparison_summary"]

#: Smallest spread of the flag rule for W (the papers print three decimals).
DEFAULT_FLOOR = 0.005


def spread_tolerance(paper_spread, ours_std, floor=DEFAULT_FLOOR) -> np.ndarray:
    """Largest difference still inside the paper's spread: ``2 max(paper_spread, ours_std, floor)``.

    A missing (NaN) spread counts as 0. Array-like inputs (``floor`` too) broadcast.

    Raises
    ------
    ValueError
        If a floor is negative or not finite.
    """
    floor = np.asarray(floor, dtype=np.float64)
    if not (np.isfinite(floor).all() and (floor >= 0).all()):
        raise ValueError(f"floor must be finite and >= 0; got {floor!r}")
    paper_spread = np.nan_to_num(np.asarray(paper_spread, dtype=np.float64), nan=0.0)
    ours_std = np.nan_to_num(np.asarray(ours_std, dtype=np.float64), nan=0.0)
    return 2.0 * np.maximum(np.maximum(paper_spread, ours_std), floor)


def outside_spread(ours_mean, ours_std, paper_mean, paper_spread, floor=DEFAULT_FLOOR) -> np.ndarray:
    """Is our mean outside the paper's spread? (the flag rule of the module docstring).

    Parameters
    ----------
    ours_mean, ours_std, paper_mean, paper_spread : array_like
        Means and spreads over repetitions (NaN spread = none).
    floor : float or array_like, optional
        Smallest spread (default :data:`DEFAULT_FLOOR`).

    Returns
    -------
    numpy.ndarray
        Boolean array: ``|ours - paper| > spread_tolerance`` or our mean not finite.
    """
    ours_mean = np.asarray(ours_mean, dtype=np.float64)
    paper_mean = np.asarray(paper_mean, dtype=np.float64)
    tolerance = spread_tolerance(paper_spread, ours_std, floor)
    with np.errstate(invalid="ignore"):
        far = np.abs(ours_mean - paper_mean) > tolerance
    return far | ~np.isfinite(ours_mean)


def best_flags(cells: pd.DataFrame, group: Sequence[str], rules: Mapping[str, object], *,
               value: str = "mean") -> pd.Series:
    """Which cells are the best (ties: all) of their comparison group, per metric.

    Parameters
    ----------
    cells : pandas.DataFrame
        Long cells with ``metric`` and the ``group`` columns.
    group : sequence of str
        Columns that identify a comparison group (all keys but the one compared over).
    rules : mapping
        Metric -> ``"min"``/``"max"`` (or a :class:`~geobayes.report.table_spec.Best`), or
        None for metrics without a bold rule.
    value : str, optional
        The column compared (``mean`` for ours, ``paper_mean`` for the paper's).

    Returns
    -------
    pandas.Series
        Boolean, aligned with ``cells``; False for NaN values, metrics without a rule and groups
        of a single cell.
    """
    flags = pd.Series(False, index=cells.index)
    for metric, rule in rules.items():
        if rule is None:
            continue
        rule = getattr(rule, "value", rule)
        if rule not in ("min", "max"):
            raise ValueError(f"best rule of metric {metric!r} must be 'min' or 'max'; got {rule!r}")
        subset = cells[(cells["metric"] == metric) & cells[value].notna()]
        if subset.empty:
            continue
        keys = list(group) or (lambda index: 0)
        grouped = subset.groupby(keys, dropna=False)[value]
        best, size = grouped.transform(rule), grouped.transform("size")
        # a group of one cell has nothing to be best against (e.g. the floor row of the leaderboard)
        flags.loc[subset.index] = (subset[value].to_numpy() == best.to_numpy()) & (size.to_numpy() > 1)
    return flags


def winner_agreement(cells: pd.DataFrame, group: Sequence[str], rules: Mapping[str, object],
                     over: str | None = None) -> pd.DataFrame:
    """Per comparison group and bold-ruled metric: our winner, the paper's, and whether they agree.

    Only cells with both our mean and the paper's take part; a group with fewer than two such
    cells is left out (there is no winner to agree on).

    Returns
    -------
    pandas.DataFrame
        ``group`` columns, ``metric``, ``ours_best``, ``paper_best`` (the winning cells' values
        of the ``over`` column, or their index labels without one) and ``agree``.
    """
    both = cells[cells["mean"].notna() & cells["paper_mean"].notna()]
    rows = []
    for metric, rule in rules.items():
        if rule is None:
            continue
        subset = both[both["metric"] == metric]
        if subset.empty:
            continue
        ours = best_flags(subset, group, {metric: rule}, value="mean")
        theirs = best_flags(subset, group, {metric: rule}, value="paper_mean")
        grouped = subset.groupby(list(group), dropna=False) if group else [((), subset)]
        for key, members in grouped:
            if len(members) < 2:
                continue
            key = key if isinstance(key, tuple) else (key,)
            names = members[over] if over else pd.Series(members.index, index=members.index)
            ours_best = tuple(names[ours.loc[members.index].to_numpy()])
            paper_best = tuple(names[theirs.loc[members.index].to_numpy()])
            rows.append({**dict(zip(group, key)), "metric": metric, "ours_best": ours_best,
                         "paper_best": paper_best, "agree": bool(set(ours_best) & set(paper_best))})
    return pd.DataFrame(rows, columns=[*group, "metric", "ours_best", "paper_best", "agree"])


def comparison_summary(cells: pd.DataFrame, group: Sequence[str], rules: Mapping[str, object],
                       over: str | None = None) -> dict:
    """Counts of one table's comparison: cells inside the paper's spread and winners agreeing.

    Returns
    -------
    dict
        ``cells_with_paper`` (cells with a paper value), ``cells_compared`` (of those, with a
        printed spread), ``cells_inside``, ``groups_compared`` and ``winners_agree``.
    """
    compared = cells["outside_spread"].notna()
    winners = winner_agreement(cells, group, rules, over)
    return {
        "cells_with_paper": int(cells["paper_mean"].notna().sum()),
        "cells_compared": int(compared.sum()),
        "cells_inside": int((~cells.loc[compared, "outside_spread"].astype(bool)).sum()),
        "groups_compared": len(winners),
        "winners_agree": int(winners["agree"].sum()) if len(winners) else 0,
    }
