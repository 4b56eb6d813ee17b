"""A paper's qualitative claims, checked on a table's cells: "method A beats B on this metric".

Some papers print no numbers, only curves and statements about them (Liu & Zhu 2018: "RSVGD makes
more effective updates than SVGD"). A claim names a table of the report, a metric, the method it
favours, the methods it beats and which direction is better; it is checked in every group of the
table's other key columns (each panel, each particle count) on the cells' means, and reported as
holding in k of n groups with the numbers. A claim whose methods are absent from a group at this
scale is reported as not checked there, never as holding.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

__all__ = ["ClaimSpec", "claim_verdict_text"]


@dataclasses.dataclass(frozen=True)
class ClaimSpec:
    """One claim of a report (``tables.yaml``: ``reports.<name>.claims``).

    Attributes
    ----------
    claim
        The statement, with where the paper makes it.
    table
        The report's table whose cells decide it.
    metric
        The metric compared.
    method
        The method the claim favours.
    than
        The methods it must beat.
    better
        ``max`` or ``min``: which direction of the metric is better.
    select
        Key column -> values kept before comparing (e.g. one particle count).
    """

    claim: str
    table: str
    metric: str
    method: str
    than: tuple[str, ...]
    better: str
    select: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    @classmethod
    def from_mapping(cls, where: str, mapping: Any, tables: Sequence[str]) -> ClaimSpec:
        """Build one claim, checked: a missing or unknown key, an unknown table or direction is one line."""
        if not isinstance(mapping, Mapping):
            raise ValueError(f"{where}: expected a mapping, got {type(mapping).__name__}")
        required = {"claim", "table", "metric", "method", "than", "better"}
        missing, unknown = required - set(mapping), set(mapping) - required - {"select"}
        if missing or unknown:
            raise ValueError(f"{where}: missing key(s) {sorted(missing)}, unknown key(s) {sorted(unknown)}")
        if mapping["table"] not in tables:
            raise ValueError(f"{where}.table: {mapping['table']!r} is not a table of the report ({', '.join(tables)})")
        if mapping["better"] not in ("max", "min"):
            raise ValueError(f"{where}.better: expected 'max' or 'min', got {mapping['better']!r}")
        than = mapping["than"]
        than = (than,) if isinstance(than, str) else tuple(str(m) for m in than)
        select = {str(k): tuple(str(v) for v in (values if isinstance(values, list) else [values]))
                  for k, values in (mapping.get("select") or {}).items()}
        return cls(str(mapping["claim"]), str(mapping["table"]), str(mapping["metric"]), str(mapping["method"]), than,
                   str(mapping["better"]), select)


def _group_label(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in values.items()) or "all"


def claim_verdict_text(claim: ClaimSpec, cells: pd.DataFrame, group_columns: Sequence[str]) -> str:
    """One Markdown bullet: whether ``claim`` holds in each group of ``cells`` (a table's cells).

    Parameters
    ----------
    claim
        The claim.
    cells
        :func:`geobayes.report.tables.table_cells` of ``claim.table``.
    group_columns
        The table's key columns other than ``method``: the claim is checked once per group.
    """
    rows = cells[cells["metric"] == claim.metric]
    for column, values in claim.select.items():
        rows = rows[rows[column].astype(str).isin(values)]
    sign = 1.0 if claim.better == "max" else -1.0
    held, checked, details = 0, 0, []
    groups = rows.groupby(list(group_columns), sort=False) if group_columns else [((), rows)]
    for key, group in groups:
        key = key if isinstance(key, tuple) else (key,)
        label = _group_label(dict(zip(group_columns, key)))
        means = dict(zip(group["method"].astype(str), group["mean"].astype(float)))
        if claim.method not in means or not any(m in means for m in claim.than):
            details.append(f"{label}: not run")
            continue
        rivals = {m: means[m] for m in claim.than if m in means}
        ok = all(sign * (means[claim.method] - v) > 0 for v in rivals.values())
        checked += 1
        held += ok
        shown = ", ".join(f"{m} {v:.4g}" for m, v in rivals.items())
        details.append(f"{label}: {'holds' if ok else 'does not hold'} ({claim.method} {means[claim.method]:.4g} vs "
                       f"{shown})")
    verdict = ("not checked at this scale" if checked == 0 else
               f"holds in {held} of {checked}" + (" (all)" if held == checked else ""))
    return f"- **{claim.claim}** ({claim.metric}, {claim.better} is better): {verdict}. " + "; ".join(details) + "."
