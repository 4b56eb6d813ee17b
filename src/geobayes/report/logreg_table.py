"""Bayesian logistic-regression results in the layout of Yu et al. (2024), Table 2.

Yu, Hartmann, Williams, Girolami, Klami, "Riemannian Laplace Approximation with the
Fisher Metric", AISTATS 2024, Table 2 reports, per input scaling (z-scored "stand." or
"raw") and data set (Ripl, Pima, Hear, Aust, Germ), the Wasserstein distance
:math:`\\mathcal W` to NUTS draws as ``[mean, std]`` over 5 runs for every method, and the
mean number of function evaluations per sample :math:`T` for the ODE-based methods. Its
code computes the std with ``np.std`` (population, ``ddof=0``); so do we.

Failed solves (Yu et al. 2024, Supp. 15.5): samples whose exponential map hit the step cap
are left out of :math:`\\mathcal W` and counted at the cap in :math:`T`. Here every such
cell is marked and its failure count is printed in the table's note: a failure is never
hidden.

Input: the tidy summary written by the evaluation rule (one row per posterior, method and
seed; see :data:`SUMMARY_COLUMNS`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from geobayes.report.comparison import DEFAULT_FLOOR, outside_spread, spread_tolerance

__all__ = [
    "SUMMARY_COLUMNS",
    "INPUTS_ORDER",
    "INPUTS_LABELS",
    "DATASET_ORDER",
    "DATASET_LABELS",
    "METHOD_LABELS",
    "DEFAULT_FLOOR",
    "method_label",
    "load_summary",
    "aggregate_logreg",
    "ode_methods",
    "logreg_table_latex",
    "logreg_comparison",
    "comparison_latex",
]

#: Columns the tidy summary ``results/summary/logreg.csv`` must have.
SUMMARY_COLUMNS = (
    "dataset",
    "inputs",
    "posterior",
    "method",
    "seed",
    "wasserstein1",
    "T",
    "n_samples",
    "n_failed",
    "failed_fraction",
    "mean_steps",
)

#: Input scalings in the row order of Yu et al. (2024), Table 2, and their labels there.
INPUTS_ORDER = ("standardised", "raw")
INPUTS_LABELS = {"standardised": "stand.", "raw": "raw"}

#: Data sets in the row order of Yu et al. (2024), Table 2, and their abbreviations there.
DATASET_ORDER = ("ripley", "pima", "heart", "australian", "german")
DATASET_LABELS = {"ripley": "Ripl", "pima": "Pima", "heart": "Hear", "australian": "Aust", "german": "Germ"}

#: Display names of the methods as in the paper; other names are shown upper-cased with
#: ``_`` replaced by ``-`` (see :func:`method_label`).
METHOD_LABELS = {"ela": "ELA", "rla_b": "RLA-B", "rla_blog": "RLA-BLog", "rla_f": "RLA-F"}


_KEYS = ["inputs", "dataset", "method"]
_DAGGER = r"\dagger"
_STAR = r"\star"


def method_label(method: str) -> str:
    """Display name of a method (``rla_blog`` -> ``RLA-BLog``, as in the paper)."""
    return METHOD_LABELS.get(method, method.upper().replace("_", "-"))


def _latex_escape(text: str) -> str:
    replacements = {"\\": r"\textbackslash{}", "_": r"\_", "%": r"\%", "&": r"\&", "#": r"\#", "$": r"\$"}
    return "".join(replacements.get(char, char) for char in str(text))


def _check_columns(frame: pd.DataFrame, required: Sequence[str], what: str) -> None:
    missing = [column for column in required if column not in frame.columns]
    if missing:
        raise ValueError(f"{what} lacks columns {missing}; has {list(frame.columns)}")


def load_summary(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read the tidy logistic-regression summary CSV and check its columns.

    Parameters
    ----------
    path : str or os.PathLike
        ``results/summary/logreg.csv`` (columns :data:`SUMMARY_COLUMNS`).

    Returns
    -------
    pandas.DataFrame
        The summary, unchanged.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If a column of :data:`SUMMARY_COLUMNS` is missing (the message names the file).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"summary file {path} does not exist")
    frame = pd.read_csv(path)
    _check_columns(frame, SUMMARY_COLUMNS, f"summary file {path}")
    return frame


def aggregate_logreg(summary: pd.DataFrame) -> pd.DataFrame:
    """Aggregate the per-seed summary over seeds, as in Yu et al. (2024), Table 2.

    Parameters
    ----------
    summary : pandas.DataFrame
        One row per (posterior, method, seed) with the columns :data:`SUMMARY_COLUMNS`;
        ``wasserstein1`` is W1 over the successful samples of that seed (NaN if none
        succeeded) and ``T`` the mean function evaluations per sample (0 for ELA).

    Returns
    -------
    pandas.DataFrame
        One row per (inputs, dataset, method), ordered as the paper's table (inputs, then
        data set, then method name), with columns ``inputs, dataset, method, n_seeds,
        W_mean, W_std, T_mean, T_std, n_failed, n_samples, failed_fraction``. Means and
        stds are over seeds, the std is the population std (``np.std``, ``ddof=0``, as in
        the paper's code). A NaN in any seed propagates to the mean (it is not skipped), so
        a seed without successful samples is visible. ``n_failed`` and ``n_samples`` are
        totals over seeds and ``failed_fraction = n_failed / n_samples``.

    Raises
    ------
    ValueError
        If a column is missing, ``inputs`` or ``dataset`` holds a value the paper's table
        does not know, a (posterior, method, seed) appears twice, or a posterior is
        paired with more than one (dataset, inputs).
    """
    _check_columns(summary, SUMMARY_COLUMNS, "logistic-regression summary")
    if summary.empty:
        raise ValueError("logistic-regression summary holds no rows")
    for column, allowed in (("inputs", INPUTS_ORDER), ("dataset", DATASET_ORDER)):
        unknown = sorted(set(summary[column].astype(str)) - set(allowed))
        if unknown:
            raise ValueError(f"logistic-regression summary: '{column}' must be one of {list(allowed)}; got {unknown}")
    duplicated = summary.duplicated(["posterior", "method", "seed"], keep=False)
    if duplicated.any():
        rows = summary.loc[duplicated, ["posterior", "method", "seed"]].drop_duplicates().to_dict("records")
        raise ValueError(f"logistic-regression summary: duplicated (posterior, method, seed) rows {rows}")
    pairing = summary.groupby("posterior")[["dataset", "inputs"]].nunique()
    ambiguous = pairing.index[(pairing > 1).any(axis=1)].tolist()
    if ambiguous:
        raise ValueError(f"logistic-regression summary: posteriors {ambiguous} have more than one (dataset, inputs)")

    records = []
    for (inputs, dataset, method), group in summary.groupby(_KEYS, sort=False):
        w = group["wasserstein1"].to_numpy(dtype=np.float64)
        t = group["T"].to_numpy(dtype=np.float64)
        n_failed = int(group["n_failed"].sum())
        n_samples = int(group["n_samples"].sum())
        records.append(
            {
                "inputs": inputs,
                "dataset": dataset,
                "method": method,
                "n_seeds": len(group),
                "W_mean": float(np.mean(w)),
                "W_std": float(np.std(w)),
                "T_mean": float(np.mean(t)),
                "T_std": float(np.std(t)),
                "n_failed": n_failed,
                "n_samples": n_samples,
                "failed_fraction": n_failed / n_samples if n_samples else math.nan,
            }
        )
    agg = pd.DataFrame.from_records(records)
    return _sorted(agg)


def _sorted(frame: pd.DataFrame, method_order: Sequence[str] | None = None, extra: Sequence[str] = ()) -> pd.DataFrame:
    frame = frame.copy()
    order = {"inputs": INPUTS_ORDER, "dataset": DATASET_ORDER}
    sort_keys = []
    for column in ("inputs", "dataset"):
        frame[f"_{column}"] = frame[column].map({name: i for i, name in enumerate(order[column])})
        sort_keys.append(f"_{column}")
    if method_order is not None:
        rank = {name: i for i, name in enumerate(method_order)}
        frame["_method"] = frame["method"].map(lambda m: rank.get(m, len(rank)))
        sort_keys.append("_method")
    sort_keys += ["method", *extra]
    frame = frame.sort_values(sort_keys, kind="stable")
    return frame.drop(columns=[key for key in sort_keys if key.startswith("_")]).reset_index(drop=True)


def ode_methods(agg: pd.DataFrame, methods: Sequence[str]) -> list[str]:
    """The methods of ``methods`` that solve ODEs, i.e. report some ``T_mean > 0``.

    ELA draws Gaussian samples without integration (``T = 0``), so it gets no :math:`T`
    column, as in Yu et al. (2024), Table 2. The rule is read from the data, not from a
    list of names, so new ODE-based methods get their :math:`T` column automatically.
    """
    return [m for m in methods if bool((agg.loc[agg["method"] == m, "T_mean"] > 0).any())]


def _present_rows(agg: pd.DataFrame) -> list[tuple[str, str]]:
    rows = agg[["inputs", "dataset"]].drop_duplicates()
    return [
        (inputs, dataset)
        for inputs in INPUTS_ORDER
        for dataset in DATASET_ORDER
        if ((rows["inputs"] == inputs) & (rows["dataset"] == dataset)).any()
    ]


def _check_methods(agg: pd.DataFrame, methods: Sequence[str]) -> list[str]:
    methods = list(methods)
    if not methods:
        raise ValueError("methods must name at least one method")
    if len(set(methods)) != len(methods):
        raise ValueError(f"methods contains duplicates: {methods}")
    absent = [m for m in methods if m not in set(agg["method"])]
    if absent:
        raise ValueError(f"methods {absent} have no results; results hold {sorted(set(agg['method']))}")
    return methods


def _format_pm(mean: float, std: float, bold: bool = False, mark: str = "") -> str:
    """``$mean \\pm std$`` (3 decimals as the paper), optionally bold and with a superscript mark inside the math."""
    suffix = f"{{}}^{{{mark}}}" if mark else ""
    if not math.isfinite(mean):
        return f"n/a${suffix}$" if mark else "n/a"
    body = f"{mean:.3f} \\pm {std:.3f}"
    return f"$\\mathbf{{{body}}}{suffix}$" if bold else f"${body}{suffix}$"


def _format_t(value: float) -> str:
    return f"{value:.1f}" if math.isfinite(value) else "n/a"


def _failure_note(frame: pd.DataFrame) -> str:
    failed = frame[frame["n_failed"] > 0]
    if failed.empty:
        return ""
    items = [
        f"{INPUTS_LABELS[r.inputs]} {DATASET_LABELS[r.dataset]} {_latex_escape(method_label(r.method))}: "
        f"{int(r.n_failed):,} of {int(r.n_samples):,} samples"
        for r in failed.itertuples()
    ]
    return (
        f"${{}}^{{{_DAGGER}}}$Failed solves (the integrator reached its step cap; excluded from $\\mathcal{{W}}$, "
        f"counted at the cap in $T$): " + "; ".join(items) + "."
    )


def logreg_table_latex(
    agg: pd.DataFrame,
    methods: Sequence[str],
    *,
    samples: int,
    repetitions: int,
    reference_draws: int,
    label: str = "tab:logreg",
) -> str:
    """Render the aggregate as a booktabs table in the layout of Yu et al. (2024), Table 2.

    Rows are inputs (stand., raw) x data set (Ripl, Pima, Hear, Aust, Germ), in the paper's
    order; only (inputs, data set) cells present in ``agg`` are shown. Columns are, per
    method in the order of ``methods``, :math:`\\mathcal W` as ``mean ± std`` and, for
    the ODE methods (:func:`ode_methods`), :math:`T`. The lowest mean :math:`\\mathcal W`
    of each row is bold (by value; ties all bold). A cell whose runs had failed solves
    carries :math:`^\\dagger` and the note below the table gives its failure count; a cell
    missing for one method shows ``--``, and a :math:`\\mathcal W` without successful
    samples shows ``n/a``. Cells with a number of seeds other than ``repetitions``, or a
    number of samples other than ``samples`` per seed, are listed in the note too.

    Parameters
    ----------
    agg : pandas.DataFrame
        Output of :func:`aggregate_logreg`.
    methods : sequence of str
        Methods to show, in column order (e.g. ``["ela", "rla_b", "rla_f"]``); each must
        have results in ``agg``.
    samples : int
        Approximate samples per repetition (stated in the caption).
    repetitions : int
        Repetitions (seeds) per cell (stated in the caption).
    reference_draws : int
        NUTS reference draws that :math:`\\mathcal W` compares against (in the caption).
    label : str, optional
        LaTeX label of the table.

    Returns
    -------
    str
        A complete ``table`` environment (needs ``booktabs``), ending with a newline.

    Raises
    ------
    ValueError
        If ``methods`` is empty, has duplicates, or names a method without results.
    """
    methods = _check_methods(agg, methods)
    shown = agg[agg["method"].isin(methods)]
    with_t = set(ode_methods(shown, methods))
    rows = _present_rows(shown)

    colspec = "ll" + "".join("cr" if m in with_t else "c" for m in methods)
    top, rules, sub = ["", ""], [], ["inputs", "data"]
    column = 3
    for m in methods:
        name = _latex_escape(method_label(m))
        if m in with_t:
            top.append(f"\\multicolumn{{2}}{{c}}{{{name}}}")
            rules.append(f"\\cmidrule(lr){{{column}-{column + 1}}}")
            sub += ["$\\mathcal{W}$", "$T$"]
            column += 2
        else:
            top.append(name)
            rules.append(f"\\cmidrule(lr){{{column}-{column}}}")
            sub.append("$\\mathcal{W}$")
            column += 1

    lines = [
        "\\begin{table}[t]",
        "\\centering",
        "\\caption{"
        + (
            "Bayesian logistic regression, in the layout of Yu et al.\\ (2024), Table~2. "
            f"$\\mathcal{{W}}$: Wasserstein-1 distance between {samples:,} samples of the approximation and "
            f"{reference_draws:,} NUTS reference draws, as mean $\\pm$ std (population std, ddof\\,=\\,0) over "
            f"{repetitions} repetitions; $T$: mean number of function evaluations per sample. "
            "stand.: z-scored inputs; raw: inputs as given. Bold: lowest mean $\\mathcal{W}$ in the row. "
            "Smaller is better."
        )
        + "}",
        f"\\label{{{label}}}",
        f"\\begin{{tabular}}{{{colspec}}}",
        "\\toprule",
        " & ".join(top) + " \\\\",
        " ".join(rules),
        " & ".join(sub) + " \\\\",
    ]
    previous_inputs = None
    for inputs, dataset in rows:
        if inputs != previous_inputs:
            lines.append("\\midrule")
        cells = shown[(shown["inputs"] == inputs) & (shown["dataset"] == dataset)].set_index("method")
        finite = cells["W_mean"][np.isfinite(cells["W_mean"].to_numpy(dtype=np.float64))]
        best = finite.min() if len(finite) else math.nan
        row = [INPUTS_LABELS[inputs] if inputs != previous_inputs else "", DATASET_LABELS[dataset]]
        for m in methods:
            if m not in cells.index:
                row.append("--")
                if m in with_t:
                    row.append("--")
                continue
            cell = cells.loc[m]
            mark = _DAGGER if int(cell["n_failed"]) > 0 else ""
            bold = bool(cell["W_mean"] == best)
            row.append(_format_pm(float(cell["W_mean"]), float(cell["W_std"]), bold=bold, mark=mark))
            if m in with_t:
                row.append(_format_t(float(cell["T_mean"])))
        lines.append(" & ".join(row) + " \\\\")
        previous_inputs = inputs
    lines += ["\\bottomrule", "\\end{tabular}"]

    notes = []
    failure = _failure_note(shown)
    if failure:
        notes.append(failure)
    off_scale = shown[(shown["n_seeds"] != repetitions) | (shown["n_samples"] != shown["n_seeds"] * samples)]
    if not off_scale.empty:
        items = [
            f"{INPUTS_LABELS[r.inputs]} {DATASET_LABELS[r.dataset]} {_latex_escape(method_label(r.method))}: "
            f"{int(r.n_seeds)} repetitions, {int(r.n_samples):,} samples in all"
            for r in off_scale.itertuples()
        ]
        notes.append("Cells off the stated scale: " + "; ".join(items) + ".")
    if notes:
        lines += ["", "\\smallskip", "{\\footnotesize " + " \\\\\n".join(notes) + "\\par}"]
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


def logreg_comparison(agg: pd.DataFrame, paper: pd.DataFrame, *, floor: float = DEFAULT_FLOOR) -> pd.DataFrame:
    """Compare our aggregate with the published values of Yu et al. (2024), Table 2.

    Rule: for :math:`\\mathcal W`, a row is flagged ``outside_paper_spread`` when

    .. math:: |\\bar W_\\text{ours} - \\bar W_\\text{paper}|
              > 2 \\max(s_\\text{paper}, s_\\text{ours}, \\text{floor}),

    where :math:`s` are the stds over repetitions (the paper's and ours) and ``floor``
    (default :data:`DEFAULT_FLOOR`) covers the paper's rounding to three decimals
    (printed stds of ``0.0``). A non-finite mean of ours (no successful samples) is flagged
    too. For :math:`T` (a count of function evaluations, reported without std) no flag
    is computed (``<NA>``); compare ``ratio`` = ours / paper instead. Note that ours and
    the paper's :math:`T` both count failed solves at the step cap, and caps may differ.

    Parameters
    ----------
    agg : pandas.DataFrame
        Output of :func:`aggregate_logreg`.
    paper : pandas.DataFrame
        Output of :func:`geobayes.report.paper_values.load_paper_values`.
    floor : float, optional
        Smallest spread for the :math:`\\mathcal W` flag.

    Returns
    -------
    pandas.DataFrame
        One row per (inputs, dataset, method, metric) present in both, in the paper's row
        order and method order, with columns ``inputs, dataset, method, metric,
        ours_mean, ours_std, paper_mean, paper_std, difference (ours - paper), ratio
        (ours / paper), tolerance (W only), outside_paper_spread (nullable boolean; W
        only), ours_n_seeds, ours_n_failed, ours_n_samples``. ``attrs["floor"]`` records
        ``floor``.
    """
    if not (floor >= 0 and math.isfinite(floor)):
        raise ValueError(f"floor must be a finite number >= 0; got {floor}")
    _check_columns(paper, ["inputs", "dataset", "method", "metric", "mean", "std"], "paper values")
    parts = []
    for metric in ("W", "T"):
        part = agg[_KEYS + ["n_seeds", "n_failed", "n_samples"]].copy()
        part["metric"] = metric
        part["ours_mean"] = agg[f"{metric}_mean"]
        part["ours_std"] = agg[f"{metric}_std"]
        parts.append(part)
    ours = pd.concat(parts, ignore_index=True).rename(
        columns={"n_seeds": "ours_n_seeds", "n_failed": "ours_n_failed", "n_samples": "ours_n_samples"}
    )
    published = paper.rename(columns={"mean": "paper_mean", "std": "paper_std"})
    merged = ours.merge(published, on=_KEYS + ["metric"], how="inner", validate="one_to_one")
    merged["difference"] = merged["ours_mean"] - merged["paper_mean"]
    merged["ratio"] = merged["ours_mean"] / merged["paper_mean"]
    is_w = merged["metric"] == "W"
    merged["tolerance"] = np.where(is_w, spread_tolerance(merged["paper_std"], merged["ours_std"], floor), np.nan)
    outside = outside_spread(merged["ours_mean"], merged["ours_std"], merged["paper_mean"], merged["paper_std"], floor)
    merged["outside_paper_spread"] = pd.array(np.where(is_w, outside, False), dtype="boolean")
    merged.loc[~is_w, "outside_paper_spread"] = pd.NA
    columns = [
        *_KEYS,
        "metric",
        "ours_mean",
        "ours_std",
        "paper_mean",
        "paper_std",
        "difference",
        "ratio",
        "tolerance",
        "outside_paper_spread",
        "ours_n_seeds",
        "ours_n_failed",
        "ours_n_samples",
    ]
    merged["_metric"] = merged["metric"].map({"W": 0, "T": 1})
    result = _sorted(merged, method_order=list(pd.unique(paper["method"])), extra=["_metric"])[columns]
    result.attrs["floor"] = floor
    return result


def comparison_latex(
    comparison: pd.DataFrame,
    *,
    source: str = "workflow/resources/paper_values/yu2024_table2.csv",
    label: str = "tab:logreg-vs-paper",
) -> str:
    """Render :func:`logreg_comparison` as a booktabs table (ours vs Yu et al. (2024), Table 2).

    One row per (inputs, data set, method); columns: our :math:`\\mathcal W` and the
    paper's (``mean ± std``), the difference ours - paper (marked :math:`^\\star` when
    outside the paper's spread), our :math:`T`, the paper's :math:`T` and their ratio.
    Cells with failed solves carry :math:`^\\dagger` and their counts are given below.

    Parameters
    ----------
    comparison : pandas.DataFrame
        Output of :func:`logreg_comparison`.
    source : str, optional
        The paper-values file the paper's numbers were read from (named in the caption).
    label : str, optional
        LaTeX label of the table.

    Returns
    -------
    str
        A complete ``table`` environment (needs ``booktabs``), ending with a newline.
    """
    floor = comparison.attrs.get("floor")
    floor_text = f"{floor:g}" if floor is not None else "a floor for the paper's rounding"
    caption = (
        "Reproduction versus Yu, Hartmann, Williams, Girolami and Klami, ``Riemannian Laplace Approximation with "
        "the Fisher Metric'', AISTATS 2024, Table~2 (Bayesian logistic regression). Paper values are read from the "
        f"data file \\texttt{{{_latex_escape(source)}}}, transcribed from that table. $\\Delta\\mathcal{{W}}$ = ours "
        "$-$ paper; $^\\star$: $|\\Delta\\mathcal{W}| > 2\\max(\\text{std}_\\text{paper}, \\text{std}_\\text{ours}, "
        f"{floor_text})$. $T$ ratio = ours / paper (both count failed solves at the step cap)."
    )
    lines = [
        "\\begin{table}[t]",
        "\\centering",
        f"\\caption{{{caption}}}",
        f"\\label{{{label}}}",
        "\\begin{tabular}{lllcccrrr}",
        "\\toprule",
        " & & & \\multicolumn{3}{c}{$\\mathcal{W}$} & \\multicolumn{3}{c}{$T$} \\\\",
        "\\cmidrule(lr){4-6} \\cmidrule(lr){7-9}",
        "inputs & data & method & ours & paper & $\\Delta$ & ours & paper & ratio \\\\",
    ]
    keys = comparison[_KEYS].drop_duplicates()
    previous_inputs = None
    failed_rows = []
    for inputs, dataset, method in keys.itertuples(index=False):
        rows = comparison[
            (comparison["inputs"] == inputs) & (comparison["dataset"] == dataset) & (comparison["method"] == method)
        ].set_index("metric")
        if inputs != previous_inputs:
            lines.append("\\midrule")
        row = [INPUTS_LABELS[inputs] if inputs != previous_inputs else "", DATASET_LABELS[dataset]]
        row.append(_latex_escape(method_label(method)))
        if "W" in rows.index:
            w = rows.loc["W"]
            failed = int(w["ours_n_failed"]) > 0
            if failed:
                failed_rows.append(w)
            ours = _format_pm(float(w["ours_mean"]), float(w["ours_std"]), mark=_DAGGER if failed else "")
            star = f"{{}}^{{{_STAR}}}" if bool(w["outside_paper_spread"]) else ""
            difference = float(w["difference"])
            delta = f"${difference:+.3f}{star}$" if math.isfinite(difference) else (f"n/a${star}$" if star else "n/a")
            row += [ours, _format_pm(float(w["paper_mean"]), float(w["paper_std"])), delta]
        else:
            row += ["--", "--", "--"]
        if "T" in rows.index:
            t = rows.loc["T"]
            ratio = float(t["ratio"])
            row += [
                _format_t(float(t["ours_mean"])),
                _format_t(float(t["paper_mean"])),
                f"{ratio:.2f}" if math.isfinite(ratio) else "n/a",
            ]
        else:
            row += ["--", "--", "--"]
        lines.append(" & ".join(row) + " \\\\")
        previous_inputs = inputs
    lines += ["\\bottomrule", "\\end{tabular}"]
    if failed_rows:
        failed = pd.DataFrame(failed_rows).rename(columns={"ours_n_failed": "n_failed", "ours_n_samples": "n_samples"})
        lines += ["", "\\smallskip", "{\\footnotesize " + _failure_note(failed) + "\\par}"]
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"
