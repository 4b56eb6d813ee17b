"""The BNN scalability study of Yu et al. (2024), Supp. 16.5.3 and Fig. 15: table and figure.

Fig. 15 (file ``../shared/papers/yu2024-rla-fisher-metric.txt``, lines 1036-1043) shows "the
average time to obtain one sample in seconds of RLA-B and RLA-F under different number of data
points and different number of parameters" of ``[1, h, h, 1]`` tanh networks, one line per
(#parameters, method) against the number of data points on a log axis; the claim is that "RLA-F
can be faster than RLA-B for D up to 1000" and that RLA-F slows down with many data points.
The paper gives no numbers, so there is no paper column here.

geobayes times each (width, N, repetition) cell two ways in one process (rule
``time_bnn_scalability``, :func:`geobayes.metrics.sampling_time.time_sampling`): one sample at
a time, as the paper, and one batched (vmapped) call, as the pipeline samples. This module
takes the median over repetitions per (width, N, method), keeps the failure counts and mean ODE
steps beside each time, and forms the RLA-B / RLA-F ratio per cell (above 1: RLA-F is faster).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.methods.labels import method_label

__all__ = [
    "SCALABILITY_COLUMNS",
    "PROTOCOLS",
    "scalability_frame",
    "method_ratios",
    "scalability_table_latex",
    "scalability_figure",
]

#: Fields a timing record must have (rule ``time_bnn_scalability``).
_RECORD_FIELDS = ("method", "width", "size", "repetition", "parameters", "per_sample_s", "batched_s_per_sample",
                  "n_sequential", "n_batched", "failed_sequential", "failed_batched", "mean_steps_sequential",
                  "mean_steps_batched")

#: The two timing protocols: column stem -> the record field and its label.
PROTOCOLS = {"sequential": ("per_sample_s", "one at a time"), "batched": ("batched_s_per_sample", "batched")}

#: Columns of :func:`scalability_frame`.
SCALABILITY_COLUMNS = (
    "width", "parameters", "size", "method", "repetitions",
    "sequential_s_median", "sequential_s_min", "sequential_s_max",
    "batched_s_median", "batched_s_min", "batched_s_max",
    "mean_steps_sequential", "mean_steps_batched",
    "failed_sequential", "failed_batched", "n_sequential", "n_batched",
)


def _check_record(record: Mapping) -> None:
    missing = [k for k in _RECORD_FIELDS if k not in record]
    if missing:
        raise ValueError(f"scalability timing record of {record.get('method', '?')} at width "
                         f"{record.get('width', '?')}, N {record.get('size', '?')} lacks {missing}")
    for field in ("per_sample_s", "batched_s_per_sample"):
        value = record[field]
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise ValueError(f"scalability timing record of {record['method']} at width {record['width']}, "
                             f"N {record['size']}, repetition {record['repetition']}: {field} = {value!r} is not a "
                             "positive number")
    expected = record["width"] ** 2 + 4 * record["width"] + 1
    if record["parameters"] != expected:
        raise ValueError(f"scalability timing record at width {record['width']} has {record['parameters']} "
                         f"parameters; a [1, h, h, 1] network has h^2 + 4h + 1 = {expected}")


def scalability_frame(records: Iterable[Mapping]) -> pd.DataFrame:
    """One row per (width, N, method): seconds per sample over the repetitions.

    Parameters
    ----------
    records : iterable of mapping
        Decoded ``results/bnn_scalability/timing/h<w>_n<N>_rep<r>/<method>.json`` records (the
        fields of :class:`geobayes.metrics.sampling_time.SamplingTime` plus ``method``,
        ``width``, ``size``, ``repetition``, ``parameters``).

    Returns
    -------
    pandas.DataFrame
        :data:`SCALABILITY_COLUMNS`, sorted by parameters, N and method:
        ``<protocol>_s_{median,min,max}`` over the repetitions of the seconds per sample one at a
        time (the mean over the sequential calls of one repetition) and batched; the mean
        solver steps per sample (mean over repetitions); the failed samples summed over the
        repetitions, beside ``n_sequential`` / ``n_batched`` samples per repetition.

    Raises
    ------
    ValueError
        If there are no records, a record lacks a field or has a non-positive time, the
        parameter count is not ``h^2 + 4h + 1``, a (width, N, method, repetition) appears twice,
        or the cells do not all have the same repetitions and sample counts (a partial grid
        would bias the medians silently).
    """
    rows = []
    for record in records:
        _check_record(record)
        rows.append({k: record[k] for k in _RECORD_FIELDS})
    if not rows:
        raise ValueError("no scalability timing records")
    raw = pd.DataFrame(rows)
    key = ["width", "size", "method"]
    duplicated = raw.duplicated(key + ["repetition"])
    if duplicated.any():
        raise ValueError(f"duplicate scalability timing records: {raw.loc[duplicated, key + ['repetition']].to_dict('records')}")
    repetitions = raw.groupby(key)["repetition"].apply(lambda s: tuple(sorted(s)))
    counts = raw.groupby(key)[["n_sequential", "n_batched"]].nunique()
    if repetitions.nunique() != 1 or (counts > 1).any().any() or raw[["n_sequential", "n_batched"]].nunique().max() > 1:
        raise ValueError("scalability timing records differ in their repetitions or sample counts between cells: "
                         f"{repetitions.to_dict()}")
    grouped = raw.groupby(key + ["parameters"])
    frame = grouped.agg(
        repetitions=("repetition", "size"),
        sequential_s_median=("per_sample_s", "median"), sequential_s_min=("per_sample_s", "min"),
        sequential_s_max=("per_sample_s", "max"),
        batched_s_median=("batched_s_per_sample", "median"), batched_s_min=("batched_s_per_sample", "min"),
        batched_s_max=("batched_s_per_sample", "max"),
        mean_steps_sequential=("mean_steps_sequential", "mean"), mean_steps_batched=("mean_steps_batched", "mean"),
        failed_sequential=("failed_sequential", "sum"), failed_batched=("failed_batched", "sum"),
        n_sequential=("n_sequential", "first"), n_batched=("n_batched", "first"),
    ).reset_index()
    frame = frame.sort_values(["parameters", "size", "method"]).reset_index(drop=True)
    return frame[list(SCALABILITY_COLUMNS)]


def method_ratios(frame: pd.DataFrame, numerator: str = "rla_b", denominator: str = "rla_f") -> pd.DataFrame:
    """Per (width, N): median seconds of ``numerator`` / ``denominator``, for both protocols.

    With the defaults a ratio above 1 means RLA-F is faster than RLA-B (the paper's claim for
    ``D`` up to about 1000).

    Returns
    -------
    pandas.DataFrame
        Columns ``width, parameters, size, ratio_sequential, ratio_batched``.

    Raises
    ------
    ValueError
        If a method is missing from a cell of the frame.
    """
    wide = frame.pivot_table(index=["width", "parameters", "size"], columns="method",
                             values=[f"{p}_s_median" for p in PROTOCOLS])
    for method in (numerator, denominator):
        present = wide.columns.get_level_values("method")
        if method not in present or wide.xs(method, axis=1, level="method").isna().any().any():
            raise ValueError(f"method {method!r} is missing from some cells of the scalability frame")
    out = pd.DataFrame(index=wide.index)
    for protocol in PROTOCOLS:
        column = f"{protocol}_s_median"
        out[f"ratio_{protocol}"] = wide[(column, numerator)] / wide[(column, denominator)]
    return out.reset_index()


def _seconds(value: float) -> str:
    if not math.isfinite(value):
        return "--"
    return f"{value:.2g}" if value < 0.01 else f"{value:.3g}"


def scalability_table_latex(frame: pd.DataFrame, *, label: str = "tab:bnn-scalability") -> str:
    """Booktabs table of Fig. 15's numbers: per (D, N) the median seconds per sample of RLA-B
    and RLA-F one at a time and batched, and RLA-B / RLA-F (above 1: RLA-F faster).

    Cells with failed samples are marked with a dagger and the failures are counted beneath.
    """
    ratios = method_ratios(frame).set_index(["parameters", "size"])
    cells = frame.set_index(["parameters", "size", "method"])
    repetitions = int(frame["repetitions"].iloc[0])
    n_seq, n_bat = int(frame["n_sequential"].iloc[0]), int(frame["n_batched"].iloc[0])
    lines = [
        "\\begin{table}[t]", "\\centering",
        "\\caption{Seconds per sample of RLA-B and RLA-F on $[1,h,h,1]$ tanh networks ($D = h^2 + 4h + 1$) "
        "trained on $N$ standardised sine points (Yu et al.\\ 2024, Supp.~16.5.3, Fig.~15), median over "
        f"{repetitions} repetitions: one sample at a time ({n_seq} samples, as the paper) and batched "
        f"(one vmapped call of {n_bat}); B/F = RLA-B / RLA-F (above 1: RLA-F is faster).}}",
        f"\\label{{{label}}}", "\\begin{tabular}{rrrrrrrr}", "\\toprule",
        " & & \\multicolumn{3}{c}{one at a time} & \\multicolumn{3}{c}{batched} \\\\",
        "$D$ & $N$ & RLA-B & RLA-F & B/F & RLA-B & RLA-F & B/F \\\\", "\\midrule",
    ]
    failures = []
    for (parameters, size), ratio in ratios.iterrows():
        row = [str(parameters), str(size)]
        for protocol in PROTOCOLS:
            for method in ("rla_b", "rla_f"):
                cell = cells.loc[(parameters, size, method)]
                failed = int(cell[f"failed_{protocol}"])
                row.append(_seconds(cell[f"{protocol}_s_median"]) + ("${}^{\\dagger}$" if failed else ""))
                if failed:
                    total = repetitions * int(cell[f"n_{protocol}"])
                    failures.append(f"{method_label(method)}, $D={parameters}$, $N={size}$, {PROTOCOLS[protocol][1]}: "
                                    f"{failed} of {total}")
            row.append(f"{ratio[f'ratio_{protocol}']:.2g}")
        lines.append(" & ".join(row) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    if failures:
        lines.append("\\par\\footnotesize ${}^{\\dagger}$Failed samples (ODE step cap), timed as run: "
                     + "; ".join(failures) + ".")
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


_METHOD_STYLES = {"rla_f": {"linestyle": "-", "marker": "o"}, "rla_b": {"linestyle": "--", "marker": "s"}}


def scalability_figure(frame: pd.DataFrame, example: Mapping[str, np.ndarray] | None = None) -> Figure:
    """Fig. 15 of Yu et al. (2024): an example data set, then seconds per sample against the
    number of training points (log axes), one line per (#parameters, method); one panel per
    timing protocol (one at a time, as the paper; batched, as the pipeline). The band around
    each line spans the repetitions' minimum to maximum.

    Parameters
    ----------
    frame : pandas.DataFrame
        :func:`scalability_frame`.
    example : mapping, optional
        A data file of rule ``prepare_sine`` (``X``, ``y``, ``X_test``, ``y_test`` standardised,
        ``x_mean``, ``x_std``, ``y_mean``, ``y_std``), drawn on the original scale in the left
        panel; without it the figure has only the timing panels.

    Raises
    ------
    ValueError
        If the frame lacks a column of :data:`SCALABILITY_COLUMNS` or has a non-positive time.
    """
    missing = [c for c in SCALABILITY_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"scalability frame lacks columns {missing}")
    for protocol in PROTOCOLS:
        values = frame[[f"{protocol}_s_median", f"{protocol}_s_min", f"{protocol}_s_max"]].to_numpy(dtype=float)
        if not (np.isfinite(values).all() and (values > 0).all()):
            raise ValueError(f"scalability frame has non-positive or non-finite {protocol} seconds")
    panels = len(PROTOCOLS) + (example is not None)
    fig = Figure(figsize=(4.2 * panels, 3.6), layout="constrained")
    axes = fig.subplots(1, panels, squeeze=False)[0]
    if example is not None:
        ax = axes[0]
        for x_key, y_key, label, color in (("X", "y", "train", "tab:blue"), ("X_test", "y_test", "test", "tab:orange")):
            x = np.asarray(example[x_key], dtype=float).reshape(-1) * float(example["x_std"]) + float(example["x_mean"])
            y = np.asarray(example[y_key], dtype=float) * float(example["y_std"]) + float(example["y_mean"])
            ax.scatter(x, y, s=4, alpha=0.5, color=color, label=f"{label} ({x.size})")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.set_title("example data set")
        ax.legend(fontsize=7, loc="lower left")
        axes = axes[1:]
    dims = sorted(frame["parameters"].unique())
    palette = {d: f"C{i % 10}" for i, d in enumerate(dims)}
    for ax, (protocol, (_, title)) in zip(axes, PROTOCOLS.items()):
        for (parameters, method), rows in frame.groupby(["parameters", "method"]):
            rows = rows.sort_values("size")
            style = _METHOD_STYLES.get(method, {"linestyle": ":", "marker": "^"})
            ax.plot(rows["size"], rows[f"{protocol}_s_median"], color=palette[parameters], markersize=4,
                    label=f"{method_label(method)}, D={parameters}", **style)
            ax.fill_between(rows["size"], rows[f"{protocol}_s_min"], rows[f"{protocol}_s_max"],
                            color=palette[parameters], alpha=0.15, linewidth=0)
        ax.set_xscale("log")
        ax.set_yscale("log")
        sizes = sorted(int(n) for n in frame["size"].unique())
        ax.set_xticks(sizes, labels=[str(n) for n in sizes])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("number of training points N")
        ax.set_ylabel("seconds per sample")
        ax.set_title(f"time per sample, {title}")
        ax.grid(True, which="major", alpha=0.3)
    axes[-1].legend(fontsize=7, ncol=1, loc="center left", bbox_to_anchor=(1.02, 0.5))
    return fig
