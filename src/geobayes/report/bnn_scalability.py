"""Fig. 15 of Yu et al. (2024), Supp. 16.5.3: seconds per sample of RLA-B and RLA-F vs N.

Fig. 15 (file ``../shared/papers/yu2024-rla-fisher-metric.txt``, lines 1036-1043) shows "the
average time to obtain one sample in seconds of RLA-B and RLA-F under different number of data
points and different number of parameters" of ``[1, h, h, 1]`` tanh networks, one line per
(#parameters, method) against the number of data points on a log axis; the claim is that "RLA-F
can be faster than RLA-B for D up to 1000" and that RLA-F slows down with many data points.

geobayes times each (width, N, repetition) cell two ways in one process (rule
``time_bnn_scalability``): one sample at a time, as the paper, and one batched call, as the
pipeline samples. Its records are tidy rows (``results/summary/bnn_scalability.csv``,
:mod:`geobayes.report.tidy`); the table of the numbers is the entry ``yu2024_fig15`` of
``workflow/resources/tables.yaml`` (medians over repetitions, RLA-B / RLA-F). This module draws
the figure from the same tidy rows: the median line and the repetitions' min-max band.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.methods.labels import method_label

__all__ = ["PROTOCOLS", "SCALABILITY_COLUMNS", "scalability_lines", "scalability_figure"]

#: The two timing protocols: column stem -> the tidy metric and its label.
PROTOCOLS = {"sequential": ("seconds_per_sample", "one at a time"),
             "batched": ("batched_seconds_per_sample", "batched")}

#: Columns of :func:`scalability_lines` (what :func:`scalability_figure` draws).
SCALABILITY_COLUMNS = ("width", "parameters", "size", "method", "repetitions",
                       *(f"{p}_s_{s}" for p in PROTOCOLS for s in ("median", "min", "max")))

_POSTERIOR = r"^h(?P<width>\d+)_n(?P<size>\d+)-scalability$"


def scalability_lines(tidy: pd.DataFrame) -> pd.DataFrame:
    """Per (width, N, method): median, min and max over repetitions of both protocols' seconds.

    Parameters
    ----------
    tidy : pandas.DataFrame
        Tidy rows of experiment ``bnn_scalability`` (posteriors ``h<width>_n<N>-scalability``,
        metrics ``seconds_per_sample``, ``batched_seconds_per_sample``, ``parameters``).

    Returns
    -------
    pandas.DataFrame
        :data:`SCALABILITY_COLUMNS`, sorted by parameters, N and method.

    Raises
    ------
    ValueError
        If no row has a scalability posterior, or a metric is missing.
    """
    parsed = tidy["posterior"].str.extract(_POSTERIOR)
    rows = tidy[parsed.notna().all(axis=1)].assign(width=parsed["width"].astype(float).astype("Int64"),
                                                   size=parsed["size"].astype(float).astype("Int64"))
    metrics = ["parameters", *(metric for metric, _ in PROTOCOLS.values())]
    missing = [m for m in metrics if m not in set(rows["metric"])]
    if rows.empty or missing:
        raise ValueError(f"scalability tidy rows lack posteriors h<w>_n<N>-scalability or metrics {missing or metrics}")
    runs = rows.pivot_table(index=["width", "size", "method", "repetition"], columns="metric", values="value",
                            aggfunc="first")
    grouped = runs.groupby(["width", "size", "method"])
    frame = pd.DataFrame({"parameters": grouped["parameters"].first().astype(int),
                          "repetitions": grouped.size()})
    for protocol, (metric, _) in PROTOCOLS.items():
        for statistic in ("median", "min", "max"):
            frame[f"{protocol}_s_{statistic}"] = grouped[metric].agg(statistic)
    frame = frame.reset_index().astype({"width": int, "size": int})
    return frame.sort_values(["parameters", "size", "method"]).reset_index(drop=True)[list(SCALABILITY_COLUMNS)]


_METHOD_STYLES = {"rla_f": {"linestyle": "-", "marker": "o"}, "rla_b": {"linestyle": "--", "marker": "s"}}


def scalability_figure(frame: pd.DataFrame, example: Mapping[str, np.ndarray] | None = None) -> Figure:
    """Fig. 15 of Yu et al. (2024): an example data set, then seconds per sample against the
    number of training points (log axes), one line per (#parameters, method); one panel per
    timing protocol (one at a time, as the paper; batched, as the pipeline). The band around
    each line spans the repetitions' minimum to maximum.

    Parameters
    ----------
    frame : pandas.DataFrame
        :func:`scalability_lines`.
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
