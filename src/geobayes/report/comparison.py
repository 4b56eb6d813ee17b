"""Ours-vs-paper comparison of any table in the long format of the paper-values files.

The published numbers (``workflow/resources/paper_values/*.csv``, loaded by
:func:`geobayes.report.paper_values.load_paper_values`) are long: one row per key tuple
(e.g. ``inputs, dataset, method``) and ``metric``, with ``mean`` and ``std``. This module
brings our per-run results into the same shape (:func:`aggregate_long`), merges the two
(:func:`compare_long`) and renders the merge as a GitHub-flavoured Markdown table
(:func:`comparison_markdown`). It serves every reproduced table of Yu et al. (2024):
Table 1 (banana), Table 2 (logistic regression), Table 4 (time per sample), Table 6
(Empirical Fisher) and the evaluation counts of Figs. 4 and 8 (squiggle).

Flag rule (:func:`outside_spread`, the rule of
:func:`geobayes.report.logreg_table.logreg_comparison`): a value is *outside the paper's
spread* when :math:`|\\bar x_\\text{ours} - \\bar x_\\text{paper}| > 2\\max(s_\\text{paper},
s_\\text{ours}, \\text{floor})` or our mean is not finite. Metrics the paper reports
without a std (:math:`T`, ``seconds``) carry no flag: their comparison is informational
(difference and ratio only), because a single published number (one run, or a mean whose
spread is not given) has no spread to be outside of, and timings depend on the machine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = [
    "DEFAULT_FLOOR",
    "FLAG_MARK",
    "LONG_COLUMNS",
    "COMPARISON_VALUE_COLUMNS",
    "spread_tolerance",
    "outside_spread",
    "aggregate_long",
    "compare_long",
    "comparison_markdown",
]

#: Smallest spread of the flag rule. The paper prints W to three decimals, so a printed std
#: of ``0.0`` only means "below 0.0005"; twice this floor (0.01) is the smallest difference
#: flagged. Same value as :data:`geobayes.report.logreg_table.DEFAULT_FLOOR`.
DEFAULT_FLOOR = 0.005

#: Mark of a value outside the paper's spread in :func:`comparison_markdown`.
FLAG_MARK = "⚑"

#: Columns :func:`aggregate_long` adds after the key columns.
LONG_COLUMNS = ("metric", "mean", "std", "n_runs", "n_failed", "n_samples")

#: Columns :func:`compare_long` adds after the key columns.
COMPARISON_VALUE_COLUMNS = (
    "metric",
    "ours_mean",
    "ours_std",
    "paper_mean",
    "paper_std",
    "difference",
    "ratio",
    "tolerance",
    "outside_spread",
    "in_ours",
    "in_paper",
    "n_runs",
    "n_failed",
    "n_samples",
)

_COUNT_COLUMNS = ("n_failed", "n_samples")


def spread_tolerance(paper_std, ours_std, floor: float = DEFAULT_FLOOR) -> np.ndarray:
    """Largest difference still inside the paper's spread: ``2 max(paper_std, ours_std, floor)``.

    A missing (NaN) std counts as 0, so the tolerance is never NaN. Array-like inputs
    broadcast; the result is a float64 array.
    """
    _check_floor(floor)
    paper_std = np.nan_to_num(np.asarray(paper_std, dtype=np.float64), nan=0.0)
    ours_std = np.nan_to_num(np.asarray(ours_std, dtype=np.float64), nan=0.0)
    return 2.0 * np.maximum(np.maximum(paper_std, ours_std), floor)


def outside_spread(ours_mean, ours_std, paper_mean, paper_std, floor: float = DEFAULT_FLOOR) -> np.ndarray:
    """The flag rule of Yu et al. (2024) reproductions: is our mean outside the paper's spread?

    True where ``|ours_mean - paper_mean| > spread_tolerance(paper_std, ours_std, floor)``
    or ``ours_mean`` is not finite (e.g. a run without successful samples). This is the rule
    of :func:`geobayes.report.logreg_table.logreg_comparison` for :math:`\\mathcal W`.
    It does not decide *which* rows are compared: :func:`compare_long` applies it only where
    the paper reports a std.

    Parameters
    ----------
    ours_mean, ours_std, paper_mean, paper_std : array_like
        Means and stds over repetitions (NaN std = none reported).
    floor : float, optional
        Smallest spread (default :data:`DEFAULT_FLOOR`).

    Returns
    -------
    numpy.ndarray
        Boolean array of the broadcast shape.
    """
    ours_mean = np.asarray(ours_mean, dtype=np.float64)
    paper_mean = np.asarray(paper_mean, dtype=np.float64)
    tolerance = spread_tolerance(paper_std, ours_std, floor)
    with np.errstate(invalid="ignore"):
        far = np.abs(ours_mean - paper_mean) > tolerance
    return far | ~np.isfinite(ours_mean)


def _check_floor(floor: float) -> None:
    if not (isinstance(floor, (int, float)) and math.isfinite(floor) and floor >= 0):
        raise ValueError(f"floor must be a finite number >= 0; got {floor!r}")


def _check_keys(keys: Sequence[str]) -> list[str]:
    if isinstance(keys, str):
        raise ValueError(f"keys must be a sequence of column names, not the string {keys!r}")
    keys = list(keys)
    if not keys:
        raise ValueError("keys must name at least one column")
    if len(set(keys)) != len(keys):
        raise ValueError(f"keys contains duplicates: {keys}")
    reserved = sorted(set(keys) & (set(COMPARISON_VALUE_COLUMNS) | set(LONG_COLUMNS)))
    if reserved:
        raise ValueError(f"keys {reserved} clash with the columns the comparison adds")
    return keys


def _check_columns(frame: pd.DataFrame, required: Sequence[str], what: str) -> None:
    missing = [column for column in required if column not in frame.columns]
    if missing:
        raise ValueError(f"{what} lacks columns {missing}; has {list(frame.columns)}")


def _check_unique(frame: pd.DataFrame, columns: list[str], what: str) -> None:
    duplicated = frame.duplicated(columns, keep=False)
    if duplicated.any():
        rows = frame.loc[duplicated, columns].drop_duplicates().to_dict("records")
        raise ValueError(f"{what}: duplicated rows for {columns}: {rows}")


def aggregate_long(summary: pd.DataFrame, keys: Sequence[str], metrics: Mapping[str, str]) -> pd.DataFrame:
    """Aggregate per-run results over runs into the long format of the paper-values files.

    Parameters
    ----------
    summary : pandas.DataFrame
        One row per run (e.g. per seed): the ``keys`` columns, the metric columns named by
        ``metrics``, ``n_failed`` (unsuccessful samples of the run) and ``n_samples``.
    keys : sequence of str
        Columns identifying a table cell, e.g. ``["inputs", "dataset", "method"]``.
    metrics : mapping of str to str
        Output metric name -> summary column, e.g. ``{"W": "wasserstein1", "T": "T"}``.

    Returns
    -------
    pandas.DataFrame
        One row per key tuple and metric, with columns ``*keys, metric, mean, std, n_runs,
        n_failed, n_samples``: ``mean`` and ``std`` over runs, the std being the population
        std (``np.std``, ``ddof=0``, as the code of Yu et al. (2024)); ``n_runs`` the number
        of runs, ``n_failed`` and ``n_samples`` totals over runs. A NaN in any run propagates
        to ``mean`` and ``std`` (it is not skipped), so a run without successful samples is
        visible. Key tuples appear in order of first appearance, metrics in the order of
        ``metrics``.

    Raises
    ------
    ValueError
        If ``keys`` or ``metrics`` is empty or clashes with the output columns, a column is
        missing, ``summary`` is empty, a key is missing (NaN), a metric column is not numeric,
        or ``n_failed``/``n_samples`` is not a count with ``0 <= n_failed <= n_samples``.
    """
    keys = _check_keys(keys)
    if not isinstance(metrics, Mapping) or not metrics:
        raise ValueError(f"metrics must be a non-empty mapping of metric name -> summary column; got {metrics!r}")
    clash = sorted(set(metrics) & set(keys))
    if clash:
        raise ValueError(f"metric names {clash} are also key columns")
    _check_columns(summary, [*keys, *metrics.values(), *_COUNT_COLUMNS], "run summary")
    if summary.empty:
        raise ValueError("run summary holds no rows")
    missing_key = summary[keys].isna().any(axis=1)
    if missing_key.any():
        rows = (np.flatnonzero(missing_key.to_numpy())).tolist()
        raise ValueError(f"run summary: missing key values in rows {rows} (columns {keys})")
    values = {}
    for name, column in metrics.items():
        try:
            values[name] = summary[column].to_numpy(dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"run summary: metric column {column!r} (metric {name!r}) is not numeric") from error
    counts = {}
    for column in _COUNT_COLUMNS:
        numbers = pd.to_numeric(summary[column], errors="coerce").to_numpy(dtype=np.float64)
        if not (np.isfinite(numbers).all() and (numbers >= 0).all() and (numbers == np.round(numbers)).all()):
            raise ValueError(
                f"run summary: '{column}' must hold counts (integers >= 0); got {summary[column].tolist()}"
            )
        counts[column] = numbers.astype(np.int64)
    if (counts["n_failed"] > counts["n_samples"]).any():
        raise ValueError("run summary: 'n_failed' exceeds 'n_samples' in some rows")

    records = []
    for key_values, group in summary.reset_index(drop=True).groupby(keys, sort=False):
        rows = group.index.to_numpy()
        key_values = key_values if isinstance(key_values, tuple) else (key_values,)
        for name in metrics:
            run_values = values[name][rows]
            records.append(
                {
                    **dict(zip(keys, key_values)),
                    "metric": name,
                    "mean": float(np.mean(run_values)),
                    "std": float(np.std(run_values)),
                    "n_runs": int(len(rows)),
                    "n_failed": int(counts["n_failed"][rows].sum()),
                    "n_samples": int(counts["n_samples"][rows].sum()),
                }
            )
    return pd.DataFrame.from_records(records, columns=[*keys, *LONG_COLUMNS])


def compare_long(
    ours: pd.DataFrame, paper: pd.DataFrame, *, keys: Sequence[str], floor: float = DEFAULT_FLOOR
) -> pd.DataFrame:
    """Merge our aggregate with the paper's values and flag values outside the paper's spread.

    Parameters
    ----------
    ours : pandas.DataFrame
        Output of :func:`aggregate_long` (columns ``*keys, metric, mean, std, n_runs,
        n_failed, n_samples``).
    paper : pandas.DataFrame
        Output of :func:`geobayes.report.paper_values.load_paper_values` (columns
        ``inputs, dataset, method, metric, mean, std``), or any frame with ``*keys, metric,
        mean, std``.
    keys : sequence of str
        Key columns to merge on (together with ``metric``); each (keys, metric) must be
        unique on both sides.
    floor : float, optional
        Smallest spread of the flag rule (default :data:`DEFAULT_FLOOR`).

    Returns
    -------
    pandas.DataFrame
        One row per (keys, metric) present on either side, with columns ``*keys`` and
        :data:`COMPARISON_VALUE_COLUMNS`:

        * ``ours_mean, ours_std, paper_mean, paper_std`` (NaN on the side a row is missing
          from; ``paper_std`` NaN where the paper reports none);
        * ``difference`` = ours - paper and ``ratio`` = ours / paper;
        * ``tolerance`` = :func:`spread_tolerance` where the flag applies, else NaN;
        * ``outside_spread`` (bool): :func:`outside_spread`, computed only for rows present on
          both sides whose paper value has a std (:math:`\\mathcal W`); False elsewhere: rows
          on one side only, and metrics the paper reports without std (:math:`T`, ``seconds``),
          whose comparison is informational (read ``difference`` and ``ratio``);
        * ``in_ours``, ``in_paper`` (bool): on which side the row exists;
        * ``n_runs, n_failed, n_samples`` (nullable ``Int64``; ``<NA>`` for paper-only rows).

        Rows follow the paper's order of key tuples (then key tuples only we have, in our
        order); within a key tuple, metrics in order of first appearance (paper first).
        ``attrs["floor"]`` records ``floor``.

    Raises
    ------
    ValueError
        If ``floor`` is negative or not finite, ``keys`` is empty or clashes with the added
        columns, a column is missing, or a (keys, metric) is duplicated on one side.
    """
    _check_floor(floor)
    keys = _check_keys(keys)
    merge_on = [*keys, "metric"]
    _check_columns(ours, [*merge_on, *LONG_COLUMNS[1:]], "our aggregate")
    _check_columns(paper, [*merge_on, "mean", "std"], "paper values")
    _check_unique(ours, merge_on, "our aggregate")
    _check_unique(paper, merge_on, "paper values")

    left = ours[[*merge_on, *LONG_COLUMNS[1:]]].rename(columns={"mean": "ours_mean", "std": "ours_std"})
    left = left.assign(in_ours=True, _ours_order=np.arange(len(left)))
    right = paper[[*merge_on, "mean", "std"]].rename(columns={"mean": "paper_mean", "std": "paper_std"})
    right = right.assign(in_paper=True, _paper_order=np.arange(len(right)))
    merged = left.merge(right, on=merge_on, how="outer", sort=False)
    merged["in_ours"] = merged["in_ours"].fillna(False).astype(bool)
    merged["in_paper"] = merged["in_paper"].fillna(False).astype(bool)
    for column in ("ours_mean", "ours_std", "paper_mean", "paper_std"):
        merged[column] = merged[column].astype(np.float64)

    merged["difference"] = merged["ours_mean"] - merged["paper_mean"]
    with np.errstate(divide="ignore", invalid="ignore"):
        merged["ratio"] = merged["ours_mean"].to_numpy() / merged["paper_mean"].to_numpy()
    has_spread = (merged["in_ours"] & merged["in_paper"] & merged["paper_std"].notna()).to_numpy()
    tolerance = spread_tolerance(merged["paper_std"], merged["ours_std"], floor)
    merged["tolerance"] = np.where(has_spread, tolerance, np.nan)
    outside = outside_spread(merged["ours_mean"], merged["ours_std"], merged["paper_mean"], merged["paper_std"], floor)
    merged["outside_spread"] = has_spread & outside
    for column in ("n_runs", *_COUNT_COLUMNS):
        merged[column] = merged[column].astype("Int64")

    # Order: key tuples as the paper lists them, then ours-only ones; metrics by first appearance.
    key_rank: dict[tuple, int] = {}
    for column in ("_paper_order", "_ours_order"):
        for row in merged.sort_values(column, kind="stable").loc[merged[column].notna(), keys].itertuples(index=False):
            key_rank.setdefault(tuple(row), len(key_rank))
    metric_rank: dict[str, int] = {}
    for metric in [*paper["metric"], *ours["metric"]]:
        metric_rank.setdefault(metric, len(metric_rank))
    merged["_key"] = [key_rank[tuple(row)] for row in merged[keys].itertuples(index=False)]
    merged["_metric"] = merged["metric"].map(metric_rank)
    merged = merged.sort_values(["_key", "_metric"], kind="stable").reset_index(drop=True)
    result = merged[[*keys, *COMPARISON_VALUE_COLUMNS]].copy()
    result.attrs["floor"] = floor
    return result


def _format_number(value: float, sign: bool = False) -> str:
    """Four significant digits (one decimal from 1,000 on: the paper's T), or ``n/a``."""
    if value is None or pd.isna(value) or not math.isfinite(float(value)):
        return "n/a"
    value = float(value)
    plus = "+" if sign else ""
    if abs(value) >= 1000:
        return f"{value:{plus},.1f}"
    return f"{value:{plus}.4g}"


def _format_mean_std(mean: float, std: float) -> str:
    if pd.isna(std):
        return _format_number(mean)
    return f"{_format_number(mean)} ± {_format_number(std)}"


def _cell(value) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def comparison_markdown(frame: pd.DataFrame, *, title: str, keys: Sequence[str], caption: str) -> str:
    """Render :func:`compare_long` as a GitHub-flavoured Markdown table.

    Layout: a bold title line, the caption, then one table row per (keys, metric) with the
    columns: the key columns (``method`` shown by its paper name, e.g. ``RLA-F``), metric,
    ``ours (mean ± std)``, ``paper (mean ± std)``, ``difference`` (ours - paper),
    ``ratio`` (ours / paper), ``flag`` (:data:`FLAG_MARK` where ``outside_spread``) and
    ``failures`` (``k of n failed`` where our runs had failed samples). A value missing on
    one side reads ``not run`` (ours) or ``not in paper``; a non-finite mean reads ``n/a``;
    a std is left out where the paper gives none or we have a single run. Numbers have four
    significant digits (one decimal from 1,000 on). A legend below the table states the flag
    rule with the floor used (when some row can be flagged) and which metrics are compared
    without a flag.

    Parameters
    ----------
    frame : pandas.DataFrame
        Output of :func:`compare_long`.
    title : str
        Title of the table (e.g. ``"Yu et al. (2024), Table 1: banana"``).
    keys : sequence of str
        The key columns to show, in order (those given to :func:`compare_long`).
    caption : str
        One paragraph saying what the table holds (scale, units).

    Returns
    -------
    str
        Markdown text ending with a newline.

    Raises
    ------
    ValueError
        If ``title`` is empty, ``keys`` is empty, or a column is missing.
    """
    # Imported here, not at module level, so that logreg_table may import the flag rule from
    # this module without an import cycle.
    from geobayes.report.logreg_table import method_label

    if not isinstance(title, str) or not title.strip():
        raise ValueError("title must be a non-empty string")
    keys = _check_keys(keys)
    _check_columns(frame, [*keys, *COMPARISON_VALUE_COLUMNS], "comparison")
    header = [*keys, "metric", "ours (mean ± std)", "paper (mean ± std)", "difference", "ratio", "flag", "failures"]
    lines = [f"**{title.strip()}**", ""]
    if caption and caption.strip():
        lines += [caption.strip(), ""]
    alignment = ["---"] * (len(keys) + 1) + ["---:"] * 4 + [":---:", "---"]
    lines += ["| " + " | ".join(header) + " |", "|" + "|".join(alignment) + "|"]
    for row in frame.itertuples(index=False):
        record = row._asdict()
        shown_keys = [method_label(record[k]) if k == "method" else record[k] for k in keys]
        single_run = not pd.isna(record["n_runs"]) and int(record["n_runs"]) == 1
        ours_std = math.nan if single_run else record["ours_std"]  # a std over one run says nothing
        ours = _format_mean_std(record["ours_mean"], ours_std) if record["in_ours"] else "not run"
        published = "not in paper"
        if record["in_paper"]:
            published = _format_mean_std(record["paper_mean"], record["paper_std"])
        both = record["in_ours"] and record["in_paper"]
        difference = _format_number(record["difference"], sign=True) if both else ""
        ratio = _format_number(record["ratio"]) if both else ""
        flag = FLAG_MARK if bool(record["outside_spread"]) else ""
        failures = ""
        if record["in_ours"] and not pd.isna(record["n_failed"]) and int(record["n_failed"]) > 0:
            failures = f"{int(record['n_failed']):,} of {int(record['n_samples']):,} failed"
        cells = [*shown_keys, record["metric"], ours, published, difference, ratio, flag, failures]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")

    floor = frame.attrs.get("floor")
    floor_text = f"{floor:g}" if floor is not None else "a floor for the paper's rounding"
    legend = []
    if (frame["in_ours"] & frame["in_paper"] & frame["paper_std"].notna()).any():
        legend.append(
            f"{FLAG_MARK}: outside the paper's spread, |ours − paper| > 2·max(std paper, std ours, {floor_text}), "
            "or our mean is not finite."
        )
    legend.append("std: population std over runs (none shown for a single run).")
    unflagged = [m for m in pd.unique(frame.loc[frame["in_paper"], "metric"])
                 if frame.loc[frame["in_paper"] & (frame["metric"] == m), "paper_std"].isna().all()]
    if unflagged:
        legend.append(
            "The paper gives no std for " + ", ".join(f"`{m}`" for m in unflagged)
            + ": those rows are informational (no flag); compare the ratio."
        )
    if frame["n_failed"].fillna(0).gt(0).any():
        legend.append("failures: samples whose solver failed (left out of W, counted at the step cap in T).")
    lines += ["", " ".join(legend)]
    return "\n".join(lines) + "\n"
