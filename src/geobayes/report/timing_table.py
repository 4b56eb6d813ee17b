"""Seconds per sample on logistic regression, Yu et al. (2024), Table 4, measured two ways.

The paper timed one sample at a time (SciPy ``solve_ivp``, 2,500 samples, 2 cores). geobayes
times, in one process on one machine, one sample at a time (a jitted Diffrax solve) and
batched (vmapped) throughput, and reports both with their ratio beside the paper's seconds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import pandas as pd

from geobayes.report.logreg_table import DATASET_LABELS, DATASET_ORDER, INPUTS_LABELS, INPUTS_ORDER, method_label

__all__ = ["TIMING_COLUMNS", "timing_frame", "timing_table_latex"]

#: Fields a timing record must have (rule ``time_sampling``).
_RECORD_FIELDS = ("posterior", "method", "per_sample_s", "batched_s_per_sample", "ratio", "n_sequential",
                  "n_batched", "failed_sequential", "failed_batched")

#: Columns of :func:`timing_frame`.
TIMING_COLUMNS = ("inputs", "dataset", "method", "per_sample_s", "batched_s_per_sample", "ratio",
                  "paper_s", "n_sequential", "n_batched", "failed_sequential", "failed_batched")


def timing_frame(records: Iterable[Mapping], paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per (inputs, dataset, method) from the timing records of the DAG.

    Parameters
    ----------
    records : iterable of mapping
        Decoded ``results/timing/<posterior>/<method>.json`` records (fields ``posterior``,
        ``method``, ``per_sample_s``, ``batched_s_per_sample``, ``ratio``, ``n_sequential``,
        ``n_batched``, ``failed_sequential``, ``failed_batched``).
    paper : pandas.DataFrame, optional
        Paper values (long format, metric ``seconds``), joined as ``paper_s``.

    Raises
    ------
    ValueError
        If a record lacks a field or names a posterior that is not a logistic regression.
    """
    rows = []
    for record in records:
        missing = [k for k in _RECORD_FIELDS if k not in record]
        if missing:
            raise ValueError(f"timing record of {record.get('posterior', '?')} lacks {missing}")
        setting, model = record["posterior"].split("-")
        if model != "logreg":
            raise ValueError(f"timing record names {record['posterior']!r}, not a logistic regression")
        dataset, inputs = setting.rsplit("_", 1)
        rows.append({"inputs": inputs, "dataset": dataset, "method": record["method"],
                     **{k: record[k] for k in _RECORD_FIELDS[2:]}})
    if not rows:
        raise ValueError("no timing records")
    frame = pd.DataFrame(rows)
    frame["paper_s"] = math.nan
    if paper is not None:
        seconds = paper[paper["metric"] == "seconds"].set_index(["inputs", "dataset", "method"])["mean"]
        frame["paper_s"] = [seconds.get((r.inputs, r.dataset, r.method), math.nan) for r in frame.itertuples()]
    frame["_i"] = frame["inputs"].map({k: i for i, k in enumerate(INPUTS_ORDER)})
    frame["_d"] = frame["dataset"].map({k: i for i, k in enumerate(DATASET_ORDER)})
    frame = frame.sort_values(["_i", "_d", "method"]).drop(columns=["_i", "_d"]).reset_index(drop=True)
    return frame[list(TIMING_COLUMNS)]


def _seconds(value: float) -> str:
    if not math.isfinite(value):
        return "--"
    return f"{value:.2g}" if value < 0.01 else f"{value:.3f}"


def timing_table_latex(frame: pd.DataFrame, *, label: str = "tab:timing") -> str:
    """Booktabs table: per (inputs, data set, method) seconds per sample one at a time, batched,
    their ratio, and the paper's seconds (Yu et al. 2024, Table 4)."""
    lines = [
        "\\begin{table}[t]", "\\centering",
        "\\caption{Time per sample (seconds) on logistic regression (Yu et al.\\ 2024, Table 4), measured on one "
        "machine in one process: one sample at a time (as the paper) and batched (vmapped), with their ratio; "
        "the paper's one-at-a-time seconds (SciPy, Xeon Gold 6230, 2 cores) for reference.}",
        f"\\label{{{label}}}", "\\begin{tabular}{lllrrrr}", "\\toprule",
        "inputs & data & method & one at a time & batched & ratio & paper \\\\", "\\midrule",
    ]
    for r in frame.itertuples():
        failed = int(r.failed_sequential) + int(r.failed_batched)
        mark = "${}^{\\dagger}$" if failed else ""
        lines.append(f"{INPUTS_LABELS.get(r.inputs, r.inputs)} & {DATASET_LABELS.get(r.dataset, r.dataset)} & "
                     f"{method_label(r.method)}{mark} & {_seconds(r.per_sample_s)} & "
                     f"{_seconds(r.batched_s_per_sample)} & {r.ratio:.1f} & {_seconds(r.paper_s)} \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    if ((frame["failed_sequential"] + frame["failed_batched"]) > 0).any():
        lines.append("\\par\\footnotesize ${}^{\\dagger}$Some timed samples failed (step cap); they are timed "
                     "as run.")
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"
