"""Banana results in the layout of Yu et al. (2024), Table 1.

Rows are the MAP anchors (Euclidean MAP with Hessian precision, Hausdorff MAP with Fisher
precision); columns, per method, :math:`\\mathcal W` (W1 to the NUTS draws, ``mean ± std``
over runs, population std as the paper's ``np.std``) and, for the ODE-based methods, the
mean number of function evaluations per sample :math:`T`. Failed samples are counted beside
every cell, never hidden.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from geobayes.report.logreg_table import method_label

__all__ = ["ANCHOR_LABELS", "aggregate_banana", "banana_table_latex"]

#: Row labels of Yu et al. (2024), Table 1.
ANCHOR_LABELS = {"euclidean": "Euclidean", "hausdorff": "Hausdorff"}

_REQUIRED = ("anchor", "method", "seed", "wasserstein1", "T", "n_samples", "n_failed")


def aggregate_banana(summary: pd.DataFrame) -> pd.DataFrame:
    """Mean and population std over runs of W and T per (anchor, method).

    Parameters
    ----------
    summary : pandas.DataFrame
        One row per run (``results/summary/banana.csv``) with at least the columns
        ``anchor, method, seed, wasserstein1, T, n_samples, n_failed``.

    Returns
    -------
    pandas.DataFrame
        Columns ``anchor, method, n_seeds, W_mean, W_std, T_mean, T_std, n_failed,
        n_samples``, anchors in the paper's row order. A NaN W of one run propagates.

    Raises
    ------
    ValueError
        If a column is missing, the frame is empty or an anchor is unknown.
    """
    missing = [c for c in _REQUIRED if c not in summary.columns]
    if missing:
        raise ValueError(f"banana summary lacks columns {missing}; has {list(summary.columns)}")
    if summary.empty:
        raise ValueError("banana summary holds no rows")
    unknown = sorted(set(summary["anchor"]) - set(ANCHOR_LABELS))
    if unknown:
        raise ValueError(f"banana summary: unknown anchors {unknown}; known {list(ANCHOR_LABELS)}")
    records = []
    for (anchor, method), group in summary.groupby(["anchor", "method"], sort=False):
        w = group["wasserstein1"].to_numpy(dtype=np.float64)
        t = group["T"].to_numpy(dtype=np.float64)
        records.append({"anchor": anchor, "method": method, "n_seeds": len(group),
                        "W_mean": float(np.mean(w)), "W_std": float(np.std(w)),
                        "T_mean": float(np.mean(t)), "T_std": float(np.std(t)),
                        "n_failed": int(group["n_failed"].sum()), "n_samples": int(group["n_samples"].sum())})
    frame = pd.DataFrame(records)
    frame["_rank"] = frame["anchor"].map({a: i for i, a in enumerate(ANCHOR_LABELS)})
    return frame.sort_values(["_rank", "method"]).drop(columns="_rank").reset_index(drop=True)


def _cell(row: pd.Series | None, bold: bool) -> str:
    if row is None:
        return "--"
    if not math.isfinite(row.W_mean):
        return "n/a"
    body = f"{row.W_mean:.3f} \\pm {row.W_std:.3f}"
    mark = "{}^{\\dagger}" if row.n_failed > 0 else ""
    return f"$\\mathbf{{{body}}}{mark}$" if bold else f"${body}{mark}$"


def banana_table_latex(agg: pd.DataFrame, methods: Sequence[str], *, samples: int, repetitions: int,
                       reference_draws: int, label: str = "tab:banana") -> str:
    """Booktabs table in the layout of Yu et al. (2024), Table 1 (best W per row in bold).

    Parameters
    ----------
    agg : pandas.DataFrame
        Output of :func:`aggregate_banana`.
    methods : sequence of str
        Column order; methods with some ``T_mean > 0`` get a :math:`T` column.
    samples, repetitions, reference_draws : int
        Run scale, quoted in the caption.
    """
    methods = list(methods)
    absent = [m for m in methods if m not in set(agg["method"])]
    if absent:
        raise ValueError(f"methods {absent} have no banana results; results hold {sorted(set(agg['method']))}")
    ode = [m for m in methods if bool((agg.loc[agg["method"] == m, "T_mean"] > 0).any())]
    spec = "l" + "".join("c" + ("c" if m in ode else "") for m in methods)
    head = " & ".join(
        f"\\multicolumn{{{2 if m in ode else 1}}}{{c}}{{{method_label(m)}}}" for m in methods)
    sub = " & ".join("$\\mathcal{W}$ & $T$" if m in ode else "$\\mathcal{W}$" for m in methods)
    lines = [
        "\\begin{table}[t]", "\\centering",
        f"\\caption{{Banana (Yu et al.\\ 2024, Table 1): $\\mathcal{{W}}$ to {reference_draws:,} NUTS draws "
        f"(mean $\\pm$ std over {repetitions} runs of {samples:,} samples) and mean function evaluations $T$. "
        "Euclidean MAP with Hessian precision, Hausdorff MAP with Fisher precision.}",
        f"\\label{{{label}}}", f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
        f"MAP & {head} \\\\", f" & {sub} \\\\", "\\midrule",
    ]
    notes = []
    for anchor, name in ANCHOR_LABELS.items():
        rows = agg[agg["anchor"] == anchor].set_index("method")
        if rows.empty:
            continue
        finite = rows.loc[[m for m in methods if m in rows.index], "W_mean"].dropna()
        best = finite.min() if not finite.empty else math.nan
        cells = []
        for m in methods:
            row = rows.loc[m] if m in rows.index else None
            cells.append(_cell(row, row is not None and row.W_mean == best))
            if m in ode:
                cells.append(f"{row.T_mean:.1f}" if row is not None else "--")
            if row is not None and row.n_failed > 0:
                notes.append(f"{name} {method_label(m)}: {int(row.n_failed):,} of {int(row.n_samples):,}")
        lines.append(f"{name} & " + " & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    if notes:
        lines.append("\\par\\footnotesize ${}^{\\dagger}$Failed samples (excluded from $\\mathcal{W}$, counted "
                     "at the step cap in $T$): " + "; ".join(notes) + ".")
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"
