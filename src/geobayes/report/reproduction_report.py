"""A paper's Markdown reproduction report, generated from its table specs.

The document opens with the paper and the run's scale, then one section per table of the
report (:class:`~geobayes.report.table_spec.ReportSpec`): the caption, our values beside the
paper's (:func:`geobayes.report.tables.render_markdown`) and the comparison counts of
:func:`geobayes.report.comparison.comparison_summary` (cells inside the paper's spread, rows
whose winner agrees), a list of the cells outside, then the paper's qualitative claims checked
on those cells (:mod:`geobayes.report.claims`), and closes with the deliberate deviations. The output is deterministic (no dates, no machine names).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence

import pandas as pd

from geobayes.report.claims import claim_verdict_text
from geobayes.report.comparison import comparison_summary
from geobayes.report.table_spec import ReportSpec, TableSpec
from geobayes.report.tables import render_markdown

__all__ = ["reproduction_report_markdown", "table_comparison_text"]


def _format_scale_value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    if isinstance(value, numbers.Real):
        value = float(value)
        return f"{value:g}" if math.isfinite(value) else str(value)
    return str(value)


def table_comparison_text(spec: TableSpec, cells: pd.DataFrame) -> str:
    """One paragraph: how many cells lie inside the paper's spread, and winner agreement."""
    group = [k for k in spec.key_columns if k != spec.best_over]
    counts = comparison_summary(cells, group, {m.metric: m.best for m in spec.metrics}, spec.best_over)
    if counts["cells_with_paper"] == 0:
        return "The paper has no values for these cells."
    parts = [f"{counts['cells_with_paper']} cells have a paper value"]
    if counts["cells_compared"]:
        parts.append(f"{counts['cells_inside']} of the {counts['cells_compared']} with a printed spread lie inside it "
                     "(|ours - paper| <= 2 max(spread, our std, floor))")
    if counts["groups_compared"]:
        parts.append(f"the best {spec.best_over} agrees with the paper's in {counts['winners_agree']} of "
                     f"{counts['groups_compared']} comparisons")
    outside = cells[cells["outside_spread"].fillna(False).astype(bool)]
    text = "; ".join(parts) + "."
    if len(outside):
        listed = ", ".join("/".join(str(row[k]) for k in spec.key_columns) + f" {row['metric']}"
                           for row in outside.to_dict("records"))
        text += f" Outside the paper's spread: {listed}."
    return text


def reproduction_report_markdown(report: ReportSpec, tables: Sequence[tuple[TableSpec, pd.DataFrame]], *,
                                 scale: Mapping[str, object], deviations: Sequence[str],
                                 not_run: Sequence[str] = (), references: Sequence[str] = ()) -> str:
    """Assemble the Markdown reproduction report.

    Parameters
    ----------
    report : ReportSpec
        Title, citation and table names.
    tables : sequence of (TableSpec, pandas.DataFrame)
        Each table's spec and cells (:func:`geobayes.report.tables.table_cells`), in order.
    scale : mapping
        The run's scale (samples, repetitions, reference draws, ...), shown as a table and used
        in the captions.
    deviations : sequence of str
        Deliberate deviations from the paper, one sentence each ("None." when empty).
    not_run : sequence of str, optional
        The report's tables without a result at this scale (their data sets or settings are not
        configured), listed after the run scale.
    references : sequence of str, optional
        Markdown lines on the cross-check of the NUTS references
        (:func:`geobayes.report.reference_crosscheck.crosscheck_section`), placed before the deviations.

    Raises
    ------
    ValueError
        If ``tables`` is empty or a deviation is not a non-empty string.
    """
    if not tables:
        raise ValueError(f"report {report.name!r} has no tables")
    if isinstance(deviations, str) or any(not isinstance(d, str) or not d.strip() for d in deviations):
        raise ValueError(f"report {report.name!r}: deviations must be a list of non-empty strings")
    lines = [
        f"# {report.title}", "",
        f"This report compares our reproduction with the published results of {report.citation}. Each section "
        "holds one reproduced table: our value (mean ± std over repetitions) with the paper's row beneath, "
        "how many cells lie inside the paper's spread and whether the best method agrees. The deliberate "
        "deviations from the paper's protocol close the report.", "",
        "## Run scale", "", "| setting | value |", "|---|---|",
    ]
    lines += [f"| {key} | {_format_scale_value(value)} |" for key, value in scale.items()]
    if not_run:
        lines += ["", f"Not run at this scale (no configured results): {', '.join(not_run)}."]
    for spec, cells in tables:
        lines += ["", f"## {spec.name}", "", render_markdown(spec, cells, scale).strip(), "",
                  table_comparison_text(spec, cells)]
    if report.claims:
        by_name = {spec.name: (spec, cells) for spec, cells in tables}
        lines += ["", "## The paper's claims, checked", ""]
        for claim in report.claims:
            if claim.table not in by_name:
                lines.append(f"- **{claim.claim}**: not checked at this scale (table {claim.table} has no results).")
                continue
            spec, cells = by_name[claim.table]
            lines.append(claim_verdict_text(claim, cells, [k for k in spec.key_columns if k != "method"]))
    if references:
        lines += ["", *references]
    lines += ["", "## Deliberate deviations", ""]
    lines += [f"- {d.strip()}" for d in deviations] if deviations else ["None."]
    return "\n".join(lines) + "\n"
