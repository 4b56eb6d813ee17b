"""Figures of the reproduction (PDF for the paper, PNG for the report).

The non-interactive Agg backend is selected once, here, when the module is imported and
before anything of ``matplotlib.pyplot`` is loaded (showyourwork: figure scripts only
load small result files and plot). Figures are built as :class:`matplotlib.figure.Figure`
objects without pyplot, so no global figure state leaks between calls.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FuncFormatter, NullFormatter  # noqa: E402

from geobayes.io import atomic_path  # noqa: E402
from geobayes.report.logreg_table import (  # noqa: E402
    DATASET_LABELS,
    DATASET_ORDER,
    INPUTS_ORDER,
    method_label,
    ode_methods,
)

__all__ = ["set_style", "logreg_figure", "save_figure"]

_INPUTS_TITLES = {"standardised": "standardised inputs", "raw": "raw inputs"}
_plain = FuncFormatter(lambda value, _position: f"{value:g}")


def set_style() -> None:
    """Set the project's matplotlib style (fonts embedded as TrueType, small sizes).

    The Agg backend itself is set at import of this module.
    """
    matplotlib.rcParams.update(
        {
            "font.size": 8,
            "axes.titlesize": 9,
            "axes.labelsize": 8,
            "legend.fontsize": 7,
            "xtick.labelsize": 7,
            "ytick.labelsize": 7,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "pdf.fonttype": 42,
            "ps.fonttype": 42,
            "savefig.dpi": 200,
        }
    )


def _paper_value(paper: pd.DataFrame | None, inputs: str, dataset: str, method: str, metric: str) -> float:
    if paper is None:
        return np.nan
    hit = paper[
        (paper["inputs"] == inputs)
        & (paper["dataset"] == dataset)
        & (paper["method"] == method)
        & (paper["metric"] == metric)
    ]
    return float(hit["mean"].iloc[0]) if len(hit) else np.nan


def logreg_figure(agg: pd.DataFrame, methods: Sequence[str], paper: pd.DataFrame | None = None) -> Figure:
    """Plot logistic-regression W and T per data set (the numbers of Yu et al. (2024), Table 2).

    Top row: one panel per input scaling present (standardised, raw), x = data set (the
    paper's order, only those present), one dot per method with an error bar of
    :math:`\\pm` one std over repetitions of :math:`\\mathcal W`; the paper's values, when
    given, are hollow markers at the same position. Bottom row: mean function evaluations
    per sample :math:`T` on a log axis for the ODE methods (:func:`ode_methods`), with the
    paper's :math:`T` hollow. A method cell with failed solves is annotated with
    :math:`\\dagger` (its :math:`\\mathcal W` excludes them).

    Parameters
    ----------
    agg : pandas.DataFrame
        Output of :func:`geobayes.report.logreg_table.aggregate_logreg`.
    methods : sequence of str
        Methods to plot, in legend order.
    paper : pandas.DataFrame, optional
        Output of :func:`geobayes.report.paper_values.load_paper_values`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not registered with pyplot).
    """
    methods = list(methods)
    if not methods:
        raise ValueError("methods must name at least one method")
    absent = [m for m in methods if m not in set(agg["method"])]
    if absent:
        raise ValueError(f"methods {absent} have no results; results hold {sorted(set(agg['method']))}")
    shown = agg[agg["method"].isin(methods)]
    inputs_present = [i for i in INPUTS_ORDER if (shown["inputs"] == i).any()]
    with_t = ode_methods(shown, methods)
    colours = {m: f"C{k}" for k, m in enumerate(methods)}
    width = 0.8 / len(methods)
    offsets = {m: (k - (len(methods) - 1) / 2) * width for k, m in enumerate(methods)}

    fig = Figure(figsize=(3.4 * len(inputs_present), 4.6), layout="constrained")
    axes = fig.subplots(2, len(inputs_present), squeeze=False, sharex="col")
    for col, inputs in enumerate(inputs_present):
        block = shown[shown["inputs"] == inputs]
        datasets = [d for d in DATASET_ORDER if (block["dataset"] == d).any()]
        x_of = {d: i for i, d in enumerate(datasets)}
        ax_w, ax_t = axes[0, col], axes[1, col]
        for m in methods:
            cells = block[block["method"] == m]
            x = np.array([x_of[d] + offsets[m] for d in cells["dataset"]])
            ax_w.errorbar(
                x, cells["W_mean"], yerr=cells["W_std"], fmt="o", ms=4, capsize=2, color=colours[m],
                label=method_label(m), zorder=3,
            )
            for xi, row in zip(x, cells.itertuples(), strict=True):
                if row.n_failed > 0:
                    y = row.W_mean if np.isfinite(row.W_mean) else 0.0
                    ax_w.annotate("\u2020", (xi, y), textcoords="offset points", xytext=(0, 5), ha="center",
                                  color=colours[m])
            paper_w = [_paper_value(paper, inputs, d, m, "W") for d in cells["dataset"]]
            if np.isfinite(paper_w).any():
                ax_w.plot(x, paper_w, "D", ms=6, mfc="none", color=colours[m], linestyle="none")
            if m in with_t:
                ax_t.plot(x, cells["T_mean"], "o", ms=4, color=colours[m], zorder=3)
                paper_t = [_paper_value(paper, inputs, d, m, "T") for d in cells["dataset"]]
                if np.isfinite(paper_t).any():
                    ax_t.plot(x, paper_t, "D", ms=6, mfc="none", color=colours[m], linestyle="none")
        ax_w.set_title(_INPUTS_TITLES[inputs])
        ax_w.set_ylabel(r"$\mathcal{W}$ to NUTS (mean $\pm$ std)")
        ax_t.set_yscale("log")
        ax_t.yaxis.set_major_formatter(_plain)
        low, high = ax_t.get_ylim()
        ax_t.yaxis.set_minor_formatter(_plain if high / low < 30 else NullFormatter())
        ax_t.set_ylabel(r"$T$ (evaluations / sample)")
        ax_t.set_xticks(range(len(datasets)), [DATASET_LABELS[d] for d in datasets])
        ax_t.set_xlim(-0.6, len(datasets) - 0.4)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if paper is not None:
        handles.append(Line2D([], [], marker="D", mfc="none", color="0.3", linestyle="none", ms=6))
        labels.append("Yu et al. (2024), Table 2")
    if (shown["n_failed"] > 0).any():
        handles.append(Line2D([], [], marker="$\u2020$", color="0.3", linestyle="none", ms=6))
        labels.append("failed solves (excluded from $\\mathcal{W}$)")
    fig.legend(handles, labels, loc="outside upper center", ncol=min(len(handles), 3), frameon=False)
    return fig


#: Figure formats by file suffix.
FIGURE_FORMATS = {".pdf": "pdf", ".png": "png", ".svg": "svg"}


def save_figure(fig: Figure, *paths: str | os.PathLike[str]) -> tuple[Path, ...]:
    """Write ``fig`` to each path, in the format its suffix names, each atomically.

    Every destination goes through :func:`geobayes.io.atomic_path`, so a killed job leaves the
    previous file or the whole new one. The figure rules write a PDF for the paper and a PNG for
    the report (``save_figure(fig, pdf, png)``); a ``None`` destination is skipped, so a writer
    with an optional PNG copy passes its ``png_path`` as it is.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    *paths : str or os.PathLike or None
        Destinations, each ending in one of :data:`FIGURE_FORMATS` (checked before any write);
        ``None`` entries are skipped.

    Returns
    -------
    tuple of pathlib.Path
        The destinations written, in order.
    """
    targets = tuple(Path(path) for path in paths if path is not None)
    if not targets:
        raise ValueError("save_figure: no destination given")
    for target in targets:
        if target.suffix.lower() not in FIGURE_FORMATS:
            raise ValueError(f"figure path {target} must end in one of {sorted(FIGURE_FORMATS)}")
    for target in targets:
        with atomic_path(target) as tmp:
            fig.savefig(tmp, format=FIGURE_FORMATS[target.suffix.lower()])
    return targets
