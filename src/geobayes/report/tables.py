"""Render any table spec over tidy results: LaTeX (booktabs), Markdown and CSV.

:func:`table_cells` turns tidy rows (:mod:`geobayes.report.tidy`) and the paper's values
(:mod:`geobayes.report.paper_values`) into one long frame of cells: the spec's key columns,
``metric``, our ``mean``/``std`` over repetitions with run, failure and sample counts, the
paper's ``paper_mean``/``paper_spread`` (cells of a spec's ``ratios`` follow, a quotient of
two of ours), the comparison (:mod:`geobayes.report.comparison`)
and the bold flag. That frame is the CSV output; :func:`render_latex` and
:func:`render_markdown` lay it out as rows x (column keys x metrics), with the paper's row
beneath ours where the spec names paper values, a dagger on every cell whose runs had failed
samples and a note that gives the counts. A spec with ``keep_paper_only`` keeps the paper's
cells that have no result of ours (``n_runs`` 0, ours printed ``--``). One module serves every
table of every paper.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from geobayes.methods.labels import method_label
from geobayes.report.comparison import best_flags, outside_spread
from geobayes.report.table_spec import CellFormat, KeySpec, TableSpec
from geobayes.report.tidy import aggregate

__all__ = ["CELL_COLUMNS", "NoResultsError", "table_cells", "render_latex", "render_markdown", "caption_text"]

#: Columns of :func:`table_cells` after the spec's key columns.
CELL_COLUMNS = ("metric", "mean", "std", "n_runs", "n_failed", "n_samples", "paper_mean", "paper_spread",
                "paper_spread_kind", "outside_spread", "best")

_DAGGER = {"latex": r"$^\dagger$", "markdown": "†"}


class NoResultsError(ValueError):
    """A table none of whose selected results exist (e.g. a data set this scale does not run)."""


def _with_parts(frame: pd.DataFrame, spec: TableSpec, what: str) -> pd.DataFrame:
    """Add the ``parts`` columns parsed from the posterior name; drop posteriors that do not match."""
    if not spec.parts:
        return frame
    parsed = frame["posterior"].str.extract(f"^(?:{spec.parts})$")
    keep = parsed.notna().all(axis=1)
    frame = frame.loc[keep].copy()
    for name in spec.part_names:
        frame[name] = parsed.loc[keep, name].astype(str)
    return frame


def _selected(frame: pd.DataFrame, spec: TableSpec, what: str) -> pd.DataFrame:
    frame = _with_parts(frame, spec, what)
    frame = frame[frame["metric"].isin([m.metric for m in spec.metrics])]
    for column, values in spec.select.items():
        if column not in frame.columns:
            raise ValueError(f"tables.{spec.name}.select: {what} has no column {column!r}")
        frame = frame[frame[column].isin(values)]
    for metric in spec.metrics:
        for column, values in metric.select.items():
            if column not in frame.columns:
                raise ValueError(f"tables.{spec.name}.metrics.{metric.metric}.select: {what} has no column {column!r}")
            frame = frame[(frame["metric"] != metric.metric) | frame[column].isin(values)]
    for key in (*spec.rows, *spec.columns):
        if key.column not in frame.columns:
            raise ValueError(f"tables.{spec.name}: {what} has no key column {key.column!r} "
                             f"(tidy columns or parts {list(spec.part_names)})")
        if key.order:
            frame = frame[frame[key.column].astype(str).isin(key.order)]
    return frame


def _paper_cells(paper: pd.DataFrame, spec: TableSpec, ours: pd.DataFrame) -> pd.DataFrame:
    """The paper's values on our cells' keys; an empty anchor holds for every anchor of ours."""
    paper = paper[paper["experiment"].isin(spec.experiments)]
    if "anchor" in spec.key_columns or "anchor" in spec.select:
        anchors = sorted(set(ours["anchor"])) if "anchor" in ours.columns else []
        generic = paper[paper["anchor"] == ""]
        paper = pd.concat([paper[paper["anchor"] != ""]]
                          + [generic.assign(anchor=a) for a in anchors], ignore_index=True)
    paper = _selected(paper, spec, "the paper values")
    keys = [*spec.key_columns, "metric"]
    return paper[keys + ["mean", "spread", "spread_kind"]].rename(
        columns={"mean": "paper_mean", "spread": "paper_spread", "spread_kind": "paper_spread_kind"})


def table_cells(spec: TableSpec, tidy: pd.DataFrame, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """The cells of a table: our aggregate beside the paper's values, compared.

    Parameters
    ----------
    spec : TableSpec
        The table.
    tidy : pandas.DataFrame
        Tidy rows of (at least) the spec's experiments.
    paper : pandas.DataFrame, optional
        Paper values (:func:`geobayes.report.paper_values.load_paper_values`).

    Returns
    -------
    pandas.DataFrame
        The spec's key columns then :data:`CELL_COLUMNS`, in the spec's row, column and metric
        order. ``outside_spread`` is NA where the paper has no value or prints no spread.

    Raises
    ------
    ValueError
        If no tidy row is left for the table (naming the table and its selection), or a key
        column is missing.
    """
    ours = _selected(tidy[tidy["experiment"].isin(spec.experiments)], spec, "the tidy results")
    if ours.empty:
        raise NoResultsError(f"tables.{spec.name}: no results of experiments {list(spec.experiments)} match its "
                         f"selection {dict(spec.select)} and metrics {[m.metric for m in spec.metrics]}")
    keys = spec.key_columns
    cells = aggregate(ours, keys, ddof=spec.ddof, statistic=spec.statistic)
    for column in keys:
        cells[column] = cells[column].astype(str)
    if paper is not None and not paper.empty:
        how = "outer" if spec.keep_paper_only else "left"
        cells = cells.merge(_paper_cells(paper, spec, ours), on=[*keys, "metric"], how=how, validate="one_to_one")
        cells["n_runs"] = cells["n_runs"].fillna(0).astype(int)  # 0: a paper cell we have no run of
    else:
        cells = cells.assign(paper_mean=np.nan, paper_spread=np.nan, paper_spread_kind=pd.NA)
    floors = {m.metric: m.floor for m in spec.metrics}
    has_spread = cells["paper_spread"].notna()
    flags = outside_spread(cells["mean"], cells["std"], cells["paper_mean"], cells["paper_spread"],
                           cells["metric"].map(floors).to_numpy(dtype=float))
    cells["outside_spread"] = pd.array(np.where(has_spread, flags, False), dtype="boolean")
    cells.loc[~has_spread | (cells["n_runs"] == 0), "outside_spread"] = pd.NA
    rules = {m.metric: m.best for m in spec.metrics}
    cells["best"] = best_flags(cells, [k for k in keys if k != spec.best_over], rules, value="mean")
    return _ordered(pd.concat([cells, *(_ratio_cells(cells, spec, r) for r in spec.ratios)], ignore_index=True), spec)


def _ratio_cells(cells: pd.DataFrame, spec: TableSpec, ratio) -> pd.DataFrame:
    """The cells of one :class:`~geobayes.report.table_spec.RatioSpec`: numerator / denominator."""
    others = [k for k in spec.key_columns if k != ratio.key] + ["metric"]
    parts = [cells[cells[ratio.key] == value].set_index(others)[["mean", "n_runs"]]
             for value in (ratio.numerator, ratio.denominator)]
    joined = parts[0].join(parts[1], rsuffix="_denominator", how="inner")
    if joined.empty and ratio.optional:
        return cells.iloc[:0]
    if joined.empty:
        raise ValueError(f"tables.{spec.name}.ratios: no cells with both {ratio.key} {ratio.numerator!r} and "
                         f"{ratio.denominator!r}")
    out = pd.DataFrame({"mean": joined["mean"] / joined["mean_denominator"], "std": np.nan,
                        "n_runs": joined["n_runs"]}, index=joined.index).reset_index()
    out[ratio.key] = ratio.name
    return out.assign(n_failed=pd.NA, n_samples=pd.NA, paper_mean=np.nan, paper_spread=np.nan,
                      paper_spread_kind=pd.NA, outside_spread=pd.NA, best=False)


def _ordered(cells: pd.DataFrame, spec: TableSpec) -> pd.DataFrame:
    sort = []
    for key in (*spec.rows, *spec.columns):
        order = list(key.order) or sorted(set(cells[key.column]), key=_natural)
        name = f"_order_{key.column}"
        cells[name] = cells[key.column].map({value: i for i, value in enumerate(order)})
        sort.append(name)
    cells["_order_metric"] = cells["metric"].map({m.metric: i for i, m in enumerate(spec.metrics)})
    cells = cells.sort_values(sort + ["_order_metric"], kind="stable")
    return cells.drop(columns=[c for c in cells.columns if c.startswith("_order_")]).reset_index(drop=True)


def _natural(value: str) -> list:
    """Sort key with numbers by value (``h5`` before ``h10``), for keys without an order."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", str(value)) if part]


def _rank(key: KeySpec, value: str) -> tuple:
    """Position of a key value: its place in the key's order (values outside it last), else natural."""
    if key.order:
        return (key.order.index(value) if value in key.order else len(key.order), [])
    return (0, _natural(value))


def _label(key: KeySpec, value: str) -> str:
    if value in key.labels:
        return key.labels[value]
    return method_label(value) if key.column == "method" else value


def _number(value: float, digits: int) -> str:
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{value:,.{digits}f}" if abs(value) >= 1e4 else f"{value:.{digits}f}"


def _cell_text(row: Mapping, metric, fmt: str, paper: bool = False) -> str:
    mean = row["paper_mean"] if paper else row["mean"]
    if not paper and row["n_runs"] == 0:
        return "--"  # a paper cell without a result of ours (keep_paper_only)
    if mean is None or (isinstance(mean, float) and math.isnan(mean) and paper):
        return "--"
    mean = mean * metric.scale
    spread = (row["paper_spread"] if paper else row["std"])
    spread = None if spread is None or not math.isfinite(spread) else spread * metric.scale
    pm = r" $\pm$ " if fmt == "latex" else " ± "
    if metric.format is CellFormat.MEAN or spread is None or not math.isfinite(mean):
        text = _number(mean, metric.digits)
    elif metric.format is CellFormat.MEAN_SE and not paper:
        se = spread / math.sqrt(max(int(row["n_runs"]) - 1, 1))
        text = _number(mean, metric.digits) + pm + _number(2 * se, metric.digits)
    elif metric.format is CellFormat.MEAN_SEM and not paper:
        text = _number(mean, metric.digits) + pm + _number(spread / math.sqrt(max(int(row["n_runs"]), 1)), metric.digits)
    else:
        text = _number(mean, metric.digits) + pm + _number(spread, metric.digits)
    if not paper and bool(row["best"]):
        text = rf"\textbf{{{text}}}" if fmt == "latex" else f"**{text}**"
    if not paper and pd.notna(row["n_failed"]) and int(row["n_failed"]) > 0:
        text += _DAGGER[fmt]
    return text


def _layout(spec: TableSpec, cells: pd.DataFrame, fmt: str) -> tuple[pd.DataFrame, list[str]]:
    """Rows x (column keys x metrics) of formatted text, and the failure notes."""
    metrics = {m.metric: m for m in spec.metrics}
    with_paper = cells["paper_mean"].notna().any()
    entries, notes = {}, []
    row_order, col_order = [], []
    ratios = {(r.key, r.name) for r in spec.ratios}
    col_rank = {}  # columns in the spec's order, not in order of first appearance (a row may lack one)
    for record in cells.to_dict("records"):
        row = tuple(_label(k, record[k.column]) for k in spec.rows)
        metric = metrics[record["metric"]]
        if any((k, record[k]) in ratios for k in spec.key_columns):
            metric = dataclasses.replace(metric, scale=1.0)  # a ratio of scaled values is unscaled
        column = (*(_label(k, record[k.column]) for k in spec.columns), metric.latex if fmt == "latex" else metric.label)
        for source in (("ours", "paper") if with_paper else ("ours",)):
            full_row = (*row, source) if with_paper else row
            entries[(full_row, column)] = _cell_text(record, metric, fmt, paper=source == "paper")
            if full_row not in row_order:
                row_order.append(full_row)
        if column not in col_order:
            col_order.append(column)
            col_rank[column] = (*(_rank(k, record[k.column]) for k in spec.columns), list(metrics).index(record["metric"]))
        if pd.notna(record["n_failed"]) and int(record["n_failed"]) > 0:
            where = ", ".join([*row, *column[:-1]])
            notes.append(f"{where}: {int(record['n_failed'])} of {int(record['n_samples'])} samples failed")
    col_order.sort(key=col_rank.__getitem__)
    names = [k.title or k.column for k in spec.rows] + (["source"] if with_paper else [])
    index = pd.MultiIndex.from_tuples(row_order, names=names)
    columns = pd.MultiIndex.from_tuples(col_order, names=[k.title or k.column for k in spec.columns] + ["metric"])
    frame = pd.DataFrame([[entries.get((r, c), "--") for c in col_order] for r in row_order], index=index,
                         columns=columns)
    return frame, list(dict.fromkeys(notes))


def caption_text(spec: TableSpec, scale: Mapping[str, object]) -> str:
    """The spec's caption with the run's scale filled in (``{samples:,}`` etc.).

    Raises
    ------
    ValueError
        Naming a placeholder the scale does not provide.
    """
    try:
        return spec.caption.format(**scale)
    except KeyError as error:
        raise ValueError(f"tables.{spec.name}.caption: placeholder {error} is not one of {sorted(scale)}") from None


_LATEX_SPECIAL = re.compile(r"(?<!\\)([_%&#])")


def _latex_label(text: str) -> str:
    return text if "$" in text else _LATEX_SPECIAL.sub(r"\\\1", text)


def render_latex(spec: TableSpec, cells: pd.DataFrame, scale: Mapping[str, object]) -> str:
    """A booktabs ``table`` environment (pandas ``Styler.to_latex``), with the failure note."""
    frame, notes = _layout(spec, cells, "latex")
    frame.index = frame.index.set_levels([level.map(_latex_label) for level in frame.index.levels])
    frame.columns = frame.columns.set_levels([level.map(_latex_label) for level in frame.columns.levels[:-1]]
                                             + [frame.columns.levels[-1]])
    caption = caption_text(spec, scale)
    if notes:
        caption += r" $^\dagger$Failed samples (left out of distances, counted in $T$): " + "; ".join(
            _latex_label(n) for n in notes) + "."
    latex = frame.style.to_latex(hrules=True, caption=caption, label=f"tab:{spec.name}", position="t",
                                 position_float="centering", multicol_align="c", multirow_align="t",
                                 clines=None, column_format="l" * frame.index.nlevels + "r" * frame.shape[1], environment="table")
    return latex if latex.endswith("\n") else latex + "\n"


def render_markdown(spec: TableSpec, cells: pd.DataFrame, scale: Mapping[str, object]) -> str:
    """A GitHub-flavoured Markdown table with the caption above and the failure note below."""
    frame, notes = _layout(spec, cells, "markdown")
    flat = frame.copy()
    flat.columns = [" ".join(part for part in column if part) for column in frame.columns]
    flat.index = [" ".join(part for part in row if part) for row in frame.index]
    flat.index.name = " / ".join(frame.index.names)
    text = f"{caption_text(spec, scale)}\n\n{flat.to_markdown(disable_numparse=True)}\n"
    if notes:
        text += "\n† " + "; ".join(notes) + ".\n"
    return text
