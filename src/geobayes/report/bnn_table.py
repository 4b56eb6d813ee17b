"""BNN regression on Snelson's data in the layout of Yu et al. (2024), Tables 3 and 5.

Yu, Hartmann, Williams, Girolami, Klami, "Riemannian Laplace Approximation with the
Fisher Metric", AISTATS 2024, Sec. 5.4 (Table 3, raw data) and Supp. 16.5.2 (Table 5,
standardised data) report for an MLP 1-10-1 with tanh on the 1-D data of Snelson and
Ghahramani (2005), per split (Complete, Gap) and method (ELA, RLA-B, RLA-BLog, RLA-F,
NUTS): MSE and NLL of the predictive as ``[mean, std]`` over repetitions, the mean
number of function evaluations per sample :math:`T` and the mean time per sample
(``N/A`` for ELA and NUTS). MSE and NLL are :func:`geobayes.metrics.predictive.predictive_mse`
and :func:`geobayes.metrics.predictive.predictive_nll`.

Here the table is built from *our* per-repetition results (:data:`RESULT_COLUMNS`; one row
per split, method and seed) and shows, for every method, a row ``ours`` and beneath it a
row ``paper`` with the published values, read from the cited paper-values files
``workflow/resources/paper_values/yu2024_table3.csv`` (raw) and ``yu2024_table5.csv``
(standardised) by :func:`load_bnn_paper_values`. A separate row was chosen over
``ours / paper`` inside each cell because every cell already holds two numbers
``[mean, std]``; stacked rows keep the paper's cell format and column widths. Stds are
population stds (``np.std``, ``ddof=0``), as everywhere in this project.

Failed solves are never hidden: a split/method cell whose repetitions counted failures
(column ``failures``) carries :math:`^\\dagger` on its MSE and the table's note gives the
number of failures and of repetitions affected.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from geobayes.io import save_csv, save_text
from geobayes.methods.labels import method_label
from geobayes.report.paper_values import PAPER_VALUE_COLUMNS
from geobayes.report.wg_glm_table import read_cited_csv

__all__ = [
    "RESULT_COLUMNS",
    "SPLIT_ORDER",
    "SPLIT_LABELS",
    "METHOD_ORDER",
    "INPUTS_ORDER",
    "BNN_PAPER_METRICS",
    "PAPER_TABLE_FILES",
    "PAPER_TABLE_NUMBERS",
    "TABLE_COLUMNS",
    "load_bnn_paper_values",
    "aggregate_bnn",
    "bnn_table_frame",
    "bnn_table_latex",
    "write_bnn_table",
    "format_mean_std",
]

#: Columns of our per-repetition results (one row per split, method and seed). ``T`` and
#: ``time_per_sample_s`` are NaN where not applicable (ELA, NUTS); ``failures`` counts the
#: failed solves of that repetition.
RESULT_COLUMNS = ("split", "method", "seed", "mse", "nll", "T", "time_per_sample_s", "failures")

#: Splits in the column order of Yu et al. (2024), Tables 3 and 5, and their headers there.
SPLIT_ORDER = ("complete", "gap")
SPLIT_LABELS = {"complete": "Complete", "gap": "Gap"}

#: Methods in the row order of Tables 3 and 5. Other methods follow, in order of appearance.
METHOD_ORDER = ("ela", "rla_b", "rla_blog", "rla_f", "nuts")

#: Input scalings: raw data (Table 3) and standardised data (Table 5).
INPUTS_ORDER = ("raw", "standardised")

#: Metrics of the BNN paper-values files: ``MSE``, ``NLL`` (with std), ``T`` and
#: ``seconds`` (time per sample; both without std).
BNN_PAPER_METRICS = ("MSE", "NLL", "T", "seconds")

#: Paper-values file and table number of each input scaling.
PAPER_TABLE_FILES = {"raw": "yu2024_table3.csv", "standardised": "yu2024_table5.csv"}
PAPER_TABLE_NUMBERS = {"raw": 3, "standardised": 5}

#: Columns of :func:`bnn_table_frame` (and of the CSV written by :func:`write_bnn_table`).
TABLE_COLUMNS = (
    "inputs",
    "split",
    "method",
    "n_runs",
    "mse_mean",
    "mse_std",
    "nll_mean",
    "nll_std",
    "T_mean",
    "T_std",
    "time_mean_s",
    "time_std_s",
    "failures",
    "runs_with_failures",
    "paper_mse_mean",
    "paper_mse_std",
    "paper_nll_mean",
    "paper_nll_std",
    "paper_T",
    "paper_time_s",
)

_AGG_COLUMNS = TABLE_COLUMNS[1:14]
_PAPER_COLUMNS = TABLE_COLUMNS[14:]
_PAPER_FIELDS = {
    ("MSE", "mean"): "paper_mse_mean",
    ("MSE", "std"): "paper_mse_std",
    ("NLL", "mean"): "paper_nll_mean",
    ("NLL", "std"): "paper_nll_std",
    ("T", "mean"): "paper_T",
    ("seconds", "mean"): "paper_time_s",
}
_PAPER_KEYS = ["inputs", "dataset", "method", "metric"]
_DAGGER = r"\dagger"


# ---------------------------------------------------------------- paper values


def load_bnn_paper_values(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Load and validate Yu et al. (2024), Table 3 or Table 5, as transcribed.

    The file has the long format of every paper-values file of Yu et al. (2024)
    (:data:`geobayes.report.paper_values.PAPER_VALUE_COLUMNS`: ``inputs, dataset, method,
    metric, mean, std``) with ``inputs`` in :data:`INPUTS_ORDER`, ``dataset`` the split
    (:data:`SPLIT_ORDER`) and ``metric`` in :data:`BNN_PAPER_METRICS`. It is read by the
    shared cited-CSV reader :func:`geobayes.report.wg_glm_table.read_cited_csv` (which
    insists on the citing ``#`` lines); :func:`geobayes.report.paper_values.load_paper_values`
    cannot read it while its :data:`~geobayes.report.paper_values.PAPER_METRICS` lacks
    ``MSE`` and ``NLL``.

    Parameters
    ----------
    path : str or os.PathLike
        ``workflow/resources/paper_values/yu2024_table3.csv`` or ``yu2024_table5.csv``.

    Returns
    -------
    pandas.DataFrame
        One row per (inputs, dataset, method, metric), in file order; key columns are
        strings, ``mean`` and ``std`` float64 (``std`` NaN for ``T`` and ``seconds``).

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    ValueError
        If it lacks the citing comment or the columns, a key is unknown or duplicated, a
        ``mean`` is missing or not finite, a ``std`` is negative, an ``MSE``/``NLL`` row has
        no ``std`` or a ``T``/``seconds`` row has one. The message names the file.
    """
    frame = read_cited_csv(path, PAPER_VALUE_COLUMNS, "Yu et al. (2024), Table 3 or 5")
    for column in _PAPER_KEYS:
        frame[column] = frame[column].astype(str).str.strip()
    allowed = {"inputs": INPUTS_ORDER, "dataset": SPLIT_ORDER, "metric": BNN_PAPER_METRICS}
    for column, values in allowed.items():
        bad = ~frame[column].isin(values)
        if bad.any():
            raise ValueError(
                f"paper-values file {path}: column '{column}' must be one of {list(values)}; "
                f"got {sorted(set(frame.loc[bad, column]))}"
            )
    for column in ("mean", "std"):
        values = pd.to_numeric(frame[column], errors="coerce")
        if (values.isna() & frame[column].notna()).any():
            raise ValueError(f"paper-values file {path}: non-numeric '{column}'")
        frame[column] = values.astype(np.float64)
    records = lambda mask: frame.loc[mask, _PAPER_KEYS].to_dict("records")  # noqa: E731
    finite = np.isfinite(frame["mean"])
    if not finite.all():
        raise ValueError(f"paper-values file {path}: missing or non-finite 'mean' in {records(~finite)}")
    if (frame["std"] < 0).any():
        raise ValueError(f"paper-values file {path}: negative 'std' in {records(frame['std'] < 0)}")
    with_std = frame["metric"].isin(("MSE", "NLL"))
    no_std = with_std & frame["std"].isna()
    if no_std.any():
        raise ValueError(f"paper-values file {path}: MSE and NLL need a 'std'; missing in {records(no_std)}")
    if (~with_std & frame["std"].notna()).any():
        raise ValueError(f"paper-values file {path}: T and seconds are printed without std; got one in "
                         f"{records(~with_std & frame['std'].notna())}")
    duplicated = frame.duplicated(_PAPER_KEYS, keep=False)
    if duplicated.any():
        raise ValueError(f"paper-values file {path}: duplicated keys {records(duplicated)}")
    return frame.reset_index(drop=True)


# ---------------------------------------------------------------- aggregation


def _as_frame(results: pd.DataFrame | Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    frame = results.copy() if isinstance(results, pd.DataFrame) else pd.DataFrame.from_records(list(results))
    missing = [column for column in RESULT_COLUMNS if column not in frame.columns]
    if missing:
        raise ValueError(f"BNN results lack columns {missing}; have {list(frame.columns)}")
    if frame.empty:
        raise ValueError("BNN results hold no rows")
    return frame


def _method_order(methods: Iterable[str]) -> list[str]:
    present = list(dict.fromkeys(methods))
    return [m for m in METHOD_ORDER if m in present] + [m for m in present if m not in METHOD_ORDER]


def aggregate_bnn(results: pd.DataFrame | Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Aggregate per-repetition BNN results over seeds, as in Yu et al. (2024), Tables 3 and 5.

    Parameters
    ----------
    results : pandas.DataFrame or iterable of dict
        One row per (split, method, seed) with the columns :data:`RESULT_COLUMNS`. ``mse``
        and ``nll`` may be NaN (a repetition without a usable predictive; it propagates to
        the mean, so it is visible). ``T`` and ``time_per_sample_s`` are NaN for methods
        without them (ELA, NUTS), for all seeds of a cell or for none.

    Returns
    -------
    pandas.DataFrame
        One row per (split, method) in the paper's order (splits :data:`SPLIT_ORDER`,
        methods :data:`METHOD_ORDER`, then others in order of appearance) with columns
        ``split, method, n_runs, mse_mean, mse_std, nll_mean, nll_std, T_mean, T_std,
        time_mean_s, time_std_s, failures`` (total over seeds) and
        ``runs_with_failures``. Means and population stds (``ddof=0``) over seeds.

    Raises
    ------
    ValueError
        If a column is missing, a split is unknown, a (split, method, seed) repeats,
        ``failures`` is not a non-negative integer, or ``T``/``time_per_sample_s`` is NaN
        for some seeds of a cell and not for others.
    """
    frame = _as_frame(results)
    frame["split"] = frame["split"].astype(str)
    frame["method"] = frame["method"].astype(str)
    unknown = sorted(set(frame["split"]) - set(SPLIT_ORDER))
    if unknown:
        raise ValueError(f"BNN results: 'split' must be one of {list(SPLIT_ORDER)}; got {unknown}")
    duplicated = frame.duplicated(["split", "method", "seed"], keep=False)
    if duplicated.any():
        rows = frame.loc[duplicated, ["split", "method", "seed"]].drop_duplicates().to_dict("records")
        raise ValueError(f"BNN results: duplicated (split, method, seed) rows {rows}")
    for column in ("mse", "nll", "T", "time_per_sample_s", "failures"):
        values = pd.to_numeric(frame[column], errors="coerce")
        if (values.isna() & frame[column].notna()).any():
            raise ValueError(f"BNN results: non-numeric '{column}'")
        frame[column] = values.astype(np.float64)
    failures = frame["failures"].to_numpy()
    good = np.isfinite(failures) & (failures >= 0) & (failures == np.round(failures))
    if not good.all():
        rows = frame.loc[~good, ["split", "method", "seed", "failures"]]
        raise ValueError(f"BNN results: 'failures' must be non-negative integers; bad rows {rows.to_dict('records')}")

    records = []
    for split in SPLIT_ORDER:
        block = frame[frame["split"] == split]
        for method in _method_order(block["method"]):
            group = block[block["method"] == method]
            record: dict[str, Any] = {"split": split, "method": method, "n_runs": len(group)}
            for column, name in (("mse", "mse"), ("nll", "nll"), ("T", "T"), ("time_per_sample_s", "time")):
                values = group[column].to_numpy(dtype=np.float64)
                nan = np.isnan(values)
                if column in ("T", "time_per_sample_s") and nan.any() and not nan.all():
                    raise ValueError(
                        f"BNN results: '{column}' of split {split}, method {method} is NaN for seeds "
                        f"{group.loc[nan, 'seed'].tolist()} but not for others; give it for all seeds or none"
                    )
                suffix = "_s" if name == "time" else ""
                record[f"{name}_mean{suffix}"] = float(np.mean(values))
                record[f"{name}_std{suffix}"] = float(np.std(values))
            record["failures"] = int(group["failures"].sum())
            record["runs_with_failures"] = int((group["failures"] > 0).sum())
            records.append(record)
    return pd.DataFrame.from_records(records, columns=list(_AGG_COLUMNS))


def bnn_table_frame(
    agg: pd.DataFrame, paper: pd.DataFrame | None = None, *, inputs: str
) -> pd.DataFrame:
    """Our aggregate beside the paper's values: the numbers of the LaTeX table, one row per cell.

    Parameters
    ----------
    agg : pandas.DataFrame
        Output of :func:`aggregate_bnn`.
    paper : pandas.DataFrame, optional
        Output of :func:`load_bnn_paper_values` for the same ``inputs``.
    inputs : {"raw", "standardised"}
        Input scaling of our results (Table 3 or Table 5).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`TABLE_COLUMNS`: one row per (split, method) present in ours or in
        the paper, in the paper's order; our columns are NaN (``n_runs`` 0) for a method
        we did not run, the ``paper_*`` columns NaN where the paper has no value (e.g.
        ``paper_T`` of ELA and NUTS, or a method the paper does not show).

    Raises
    ------
    ValueError
        If ``inputs`` is unknown or ``paper`` holds another input scaling.
    """
    if inputs not in INPUTS_ORDER:
        raise ValueError(f"inputs must be one of {list(INPUTS_ORDER)}; got {inputs!r}")
    missing = [column for column in _AGG_COLUMNS if column not in agg.columns]
    if missing:
        raise ValueError(f"BNN aggregate lacks columns {missing}; pass the output of aggregate_bnn")
    paper_cells: dict[tuple[str, str], dict[str, float]] = {}
    if paper is not None:
        other = sorted(set(paper["inputs"]) - {inputs})
        if other:
            raise ValueError(f"paper values hold inputs {other}, but the table is for inputs {inputs!r}; "
                             f"load {PAPER_TABLE_FILES[inputs]}")
        for row in paper.itertuples(index=False):
            cell = paper_cells.setdefault((row.dataset, row.method), {})
            for part in ("mean", "std"):
                field = _PAPER_FIELDS.get((row.metric, part))
                if field is not None:
                    cell[field] = float(getattr(row, part))
    ours = {(r["split"], r["method"]): r for r in agg.to_dict("records")}
    records = []
    for split in SPLIT_ORDER:
        methods = [m for s, m in ours if s == split] + [m for s, m in paper_cells if s == split]
        for method in _method_order(methods):
            record: dict[str, Any] = {"inputs": inputs, "split": split, "method": method}
            mine = ours.get((split, method))
            for column in _AGG_COLUMNS[2:]:
                if mine is not None:
                    record[column] = mine[column]
                else:
                    record[column] = 0 if column in ("n_runs", "failures", "runs_with_failures") else math.nan
            theirs = paper_cells.get((split, method), {})
            for column in _PAPER_COLUMNS:
                record[column] = theirs.get(column, math.nan)
            records.append(record)
    return pd.DataFrame.from_records(records, columns=list(TABLE_COLUMNS))


# ---------------------------------------------------------------- LaTeX


def _paper_number(value: float) -> str:
    """A number as Yu et al. print them: rounded to three decimals, trailing zeros dropped (``0.0``, ``3.02``)."""
    rounded = round(float(value), 3)
    if rounded == 0:
        rounded = 0.0  # no "-0.0"
    return repr(rounded)


def format_mean_std(mean: float, std: float) -> str:
    """A ``[mean, std]`` cell as printed in Yu et al. (2024), Tables 3 and 5 (e.g. ``[0.072, 0.0]``).

    Numbers are rounded to three decimals and printed without trailing zeros; a non-finite
    mean gives ``n/a``.
    """
    if not math.isfinite(mean):
        return "n/a"
    return f"[{_paper_number(mean)}, {_paper_number(std) if math.isfinite(std) else 'n/a'}]"


def _format_t(value: float) -> str:
    return f"{value:.1f}" if math.isfinite(value) else "N/A"


def _format_seconds(value: float) -> str:
    """Seconds per sample: one decimal as the paper; two significant digits below 0.1 s."""
    if not math.isfinite(value):
        return "N/A"
    return f"{value:.1f}" if value == 0 or abs(value) >= 0.1 else f"{value:.2g}"


def _cells(row: Mapping[str, Any], source: str) -> list[str]:
    if source == "ours":
        if int(row["n_runs"]) == 0:
            return ["--"] * 4
        mark = f"$^{{{_DAGGER}}}$" if int(row["failures"]) > 0 else ""
        return [
            format_mean_std(float(row["mse_mean"]), float(row["mse_std"])) + mark,
            format_mean_std(float(row["nll_mean"]), float(row["nll_std"])),
            _format_t(float(row["T_mean"])),
            _format_seconds(float(row["time_mean_s"])),
        ]
    if not math.isfinite(float(row["paper_mse_mean"])) and not math.isfinite(float(row["paper_nll_mean"])):
        return ["--"] * 4
    return [
        format_mean_std(float(row["paper_mse_mean"]), float(row["paper_mse_std"])),
        format_mean_std(float(row["paper_nll_mean"]), float(row["paper_nll_std"])),
        _format_t(float(row["paper_T"])),
        _format_seconds(float(row["paper_time_s"])),
    ]


def bnn_table_latex(
    table: pd.DataFrame,
    *,
    samples: int,
    repetitions: int,
    with_paper: bool = True,
    source: str | None = None,
    failure_treatment: str = "",
    label: str | None = None,
) -> str:
    """Render :func:`bnn_table_frame` as a booktabs table in the layout of Yu et al. (2024), Table 3 or 5.

    Rows are methods in the order ELA, RLA-B, RLA-BLog, RLA-F, NUTS (then any others);
    with ``with_paper`` each method has a row ``ours`` and a row ``paper`` (the published
    values) beneath it. Column groups Complete | Gap (the splits present), each with MSE,
    NLL, :math:`T` and time (s per sample). MSE and NLL cells are ``[mean, std]`` as the
    paper prints them; ``N/A``: not applicable (no ODE, so no :math:`T`/time);
    ``--``: no results (not run, or not in the paper). A cell with failed solves carries
    :math:`^\\dagger` on its MSE and the note below the table gives the failure counts.
    Cells with a number of repetitions other than ``repetitions`` are listed in the note.

    Parameters
    ----------
    table : pandas.DataFrame
        Output of :func:`bnn_table_frame` (one input scaling).
    samples : int
        Posterior samples per repetition (stated in the caption; the paper used 500).
    repetitions : int
        Repetitions (seeds) per cell (stated in the caption).
    with_paper : bool, optional
        Show the paper's rows (default). Without them, one row per method.
    source : str, optional
        The paper-values file named in the caption; default
        ``workflow/resources/paper_values/`` + :data:`PAPER_TABLE_FILES` ``[inputs]``.
    failure_treatment : str, optional
        A sentence appended to the failure note saying how failed solves enter MSE and NLL
        (e.g. ``"Failed samples are left out of MSE and NLL."``).
    label : str, optional
        LaTeX label; default ``tab:bnn-<inputs>``.

    Returns
    -------
    str
        A complete ``table`` environment (needs ``booktabs``), ending with a newline.

    Raises
    ------
    ValueError
        If ``table`` is empty, lacks columns, or mixes input scalings.
    """
    missing = [column for column in TABLE_COLUMNS if column not in table.columns]
    if missing:
        raise ValueError(f"BNN table lacks columns {missing}; pass the output of bnn_table_frame")
    if table.empty:
        raise ValueError("BNN table holds no rows")
    scalings = sorted(set(table["inputs"]))
    if len(scalings) != 1 or scalings[0] not in INPUTS_ORDER:
        raise ValueError(f"BNN table must hold one input scaling of {list(INPUTS_ORDER)}; got {scalings}")
    inputs = scalings[0]
    number = PAPER_TABLE_NUMBERS[inputs]
    source = source if source is not None else f"workflow/resources/paper_values/{PAPER_TABLE_FILES[inputs]}"
    label = label if label is not None else f"tab:bnn-{inputs}"
    splits = [s for s in SPLIT_ORDER if (table["split"] == s).any()]
    methods = _method_order(table["method"])
    rows = {(r["split"], r["method"]): r for r in table.to_dict("records")}

    n_lead = 2 if with_paper else 1
    colspec = "l" * n_lead + "ccrr" * len(splits)
    top = [""] * n_lead
    rules = []
    for k, split in enumerate(splits):
        first = n_lead + 4 * k + 1
        top.append(f"\\multicolumn{{4}}{{c}}{{{SPLIT_LABELS[split]}}}")
        rules.append(f"\\cmidrule(lr){{{first}-{first + 3}}}")
    sub = ["method"] + ([""] if with_paper else []) + ["MSE", "NLL", "$T$", "time (s)"] * len(splits)

    data_text = "raw" if inputs == "raw" else "standardised"
    caption = (
        f"Neural-network regression on Snelson's data ({data_text} data), in the layout of Yu et al.\\ (2024), "
        f"Table~{number}. MSE of the posterior-mean prediction and NLL of the predictive, from {samples:,} "
        f"posterior samples per repetition, as [mean, std] over {repetitions} repetitions (population std, "
        "ddof\\,=\\,0), rounded to three decimals as the paper prints them; $T$: mean number of function "
        "evaluations per sample; time: mean wall-clock seconds per sample (ours on our machine; the paper's on "
        "two cores of an Intel Xeon Gold 6230). N/A: not applicable; --: no results. Smaller is better."
    )
    if with_paper:
        caption += (
            " For each method, the row `ours' holds our results and the row `paper' beneath it the published "
            f"values of Yu et al.\\ (2024), Table~{number}, read from \\texttt{{{_escape(source)}}}."
        )
    lines = [
        "\\begin{table}[t]",
        "\\centering",
        f"\\caption{{{caption}}}",
        f"\\label{{{label}}}",
        f"\\begin{{tabular}}{{{colspec}}}",
        "\\toprule",
        " & ".join(top) + " \\\\",
        " ".join(rules),
        " & ".join(sub) + " \\\\",
        "\\midrule",
    ]
    empty = {**{c: math.nan for c in TABLE_COLUMNS}, "n_runs": 0, "failures": 0, "runs_with_failures": 0}
    for k, method in enumerate(methods):
        if with_paper and k > 0:
            lines.append("\\addlinespace")
        sources = ("ours", "paper") if with_paper else ("ours",)
        for source_name in sources:
            name = _escape(method_label(method)) if source_name == "ours" else ""
            row = [name] + ([source_name] if with_paper else [])
            for split in splits:
                row += _cells(rows.get((split, method), empty), source_name)
            lines.append(" & ".join(row) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]

    notes = []
    failed = table[table["failures"] > 0]
    if len(failed):
        items = [
            f"{SPLIT_LABELS[r.split]} {_escape(method_label(r.method))}: {int(r.failures):,} failed "
            f"solve{'s' if int(r.failures) != 1 else ''} in {int(r.runs_with_failures)} of {int(r.n_runs)} "
            "repetitions"
            for r in failed.itertuples()
        ]
        note = "$^{\\dagger}$Failed solves (summed over repetitions): " + "; ".join(items) + "."
        if failure_treatment:
            note += " " + failure_treatment.strip()
        notes.append(note)
    off_scale = table[(table["n_runs"] > 0) & (table["n_runs"] != repetitions)]
    if len(off_scale):
        items = [f"{SPLIT_LABELS[r.split]} {_escape(method_label(r.method))}: {int(r.n_runs)} repetitions"
                 for r in off_scale.itertuples()]
        notes.append("Cells off the stated scale: " + "; ".join(items) + ".")
    if notes:
        lines += ["", "\\smallskip", "{\\footnotesize " + " \\\\\n".join(notes) + "\\par}"]
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    replacements = {"\\": r"\textbackslash{}", "_": r"\_", "%": r"\%", "&": r"\&", "#": r"\#", "$": r"\$"}
    return "".join(replacements.get(char, char) for char in str(text))


def write_bnn_table(
    results: pd.DataFrame | Iterable[Mapping[str, Any]],
    tex_path: str | os.PathLike[str],
    csv_path: str | os.PathLike[str],
    *,
    inputs: str,
    samples: int,
    repetitions: int,
    paper: pd.DataFrame | str | os.PathLike[str] | None = None,
    failure_treatment: str = "",
    label: str | None = None,
) -> tuple[Path, Path]:
    """Aggregate per-repetition results and write the LaTeX table and its CSV, each atomically.

    Parameters
    ----------
    results : pandas.DataFrame or iterable of dict
        Per-repetition results (:data:`RESULT_COLUMNS`) of one input scaling.
    tex_path, csv_path : str or os.PathLike
        Destinations of the LaTeX table (:func:`bnn_table_latex`) and of the CSV
        (:func:`bnn_table_frame`, columns :data:`TABLE_COLUMNS`).
    inputs : {"raw", "standardised"}
        Input scaling (Table 3 or Table 5).
    samples, repetitions : int
        Stated in the caption (see :func:`bnn_table_latex`).
    paper : pandas.DataFrame or path, optional
        The paper's values (output of :func:`load_bnn_paper_values`, or the file to load);
        ``None`` leaves the paper rows out.
    failure_treatment : str, optional
        Passed to :func:`bnn_table_latex`.
    label : str, optional
        LaTeX label.

    Returns
    -------
    tuple of pathlib.Path
        ``(tex_path, csv_path)``.
    """
    if paper is not None and not isinstance(paper, pd.DataFrame):
        source = os.fspath(paper)
        paper = load_bnn_paper_values(paper)
    else:
        source = None
    table = bnn_table_frame(aggregate_bnn(results), paper, inputs=inputs)
    text = bnn_table_latex(
        table,
        samples=samples,
        repetitions=repetitions,
        with_paper=paper is not None,
        source=source,
        failure_treatment=failure_treatment,
        label=label,
    )
    tex = save_text(tex_path, text)
    csv = save_csv(table, csv_path)
    return tex, csv
