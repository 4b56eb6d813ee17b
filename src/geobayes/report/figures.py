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
from geobayes.methods.labels import method_label  # noqa: E402
from geobayes.report.table_spec import KeySpec  # noqa: E402

__all__ = ["set_style", "logreg_figure", "save_figure"]

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


def logreg_figure(cells: pd.DataFrame, methods: Sequence[str], *, rows: Sequence[KeySpec]) -> Figure:
    """Plot logistic-regression W and T per data set beside the paper's (Yu et al. (2024), Table 2).

    Top row: one panel per input scaling present, x = data set (in the table's order), one dot
    per method with an error bar of :math:`\\pm` one std over repetitions of
    :math:`\\mathcal W`; the paper's values are hollow diamonds at the same position. Bottom
    row: mean function evaluations per sample :math:`T` on a log axis, with the paper's hollow.
    A cell with failed solves is annotated with :math:`\\dagger` (its :math:`\\mathcal W`
    excludes them).

    Parameters
    ----------
    cells : pandas.DataFrame
        The table's cells (:func:`geobayes.report.tables.table_cells`, ``tables/<name>.csv``) with
        key columns ``inputs``, ``dataset``, ``method`` and metrics ``wasserstein1`` and ``T``.
    methods : sequence of str
        Methods to plot, in legend order; each must have cells.
    rows : sequence of KeySpec
        The table's row keys (``inputs`` then ``dataset``): their order and labels.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not registered with pyplot).
    """
    methods = list(methods)
    if not methods:
        raise ValueError("methods must name at least one method")
    absent = [m for m in methods if m not in set(cells["method"])]
    if absent:
        raise ValueError(f"methods {absent} have no results; results hold {sorted(set(cells['method']))}")
    inputs_key, dataset_key = rows
    cells = cells[cells["method"].isin(methods)]
    inputs_present = [i for i in inputs_key.order if (cells["inputs"] == i).any()]
    colours = {m: f"C{k}" for k, m in enumerate(methods)}
    width = 0.8 / len(methods)
    offsets = {m: (k - (len(methods) - 1) / 2) * width for k, m in enumerate(methods)}

    fig = Figure(figsize=(3.4 * len(inputs_present), 4.6), layout="constrained")
    axes = fig.subplots(2, len(inputs_present), squeeze=False, sharex="col")
    for col, inputs in enumerate(inputs_present):
        block = cells[cells["inputs"] == inputs]
        datasets = [d for d in dataset_key.order if (block["dataset"] == d).any()]
        x_of = {d: i for i, d in enumerate(datasets)}
        ax_w, ax_t = axes[0, col], axes[1, col]
        for m in methods:
            for metric, ax in (("wasserstein1", ax_w), ("T", ax_t)):
                shown = block[(block["method"] == m) & (block["metric"] == metric)]
                x = np.array([x_of[d] + offsets[m] for d in shown["dataset"]])
                if metric == "wasserstein1":
                    ax.errorbar(x, shown["mean"], yerr=shown["std"], fmt="o", ms=4, capsize=2, color=colours[m],
                                label=method_label(m), zorder=3)
                    for xi, row in zip(x, shown.itertuples(), strict=True):
                        if row.n_failed > 0:
                            y = row.mean if np.isfinite(row.mean) else 0.0
                            ax.annotate("\u2020", (xi, y), textcoords="offset points", xytext=(0, 5), ha="center",
                                        color=colours[m])
                else:
                    ax.plot(x, shown["mean"], "o", ms=4, color=colours[m], zorder=3)
                if shown["paper_mean"].notna().any():
                    ax.plot(x, shown["paper_mean"], "D", ms=6, mfc="none", color=colours[m], linestyle="none")
        ax_w.set_title(inputs_key.labels.get(inputs, inputs))
        ax_w.set_ylabel(r"$\mathcal{W}$ to NUTS (mean $\pm$ std)")
        ax_t.set_yscale("log")
        ax_t.yaxis.set_major_formatter(_plain)
        low, high = ax_t.get_ylim()
        ax_t.yaxis.set_minor_formatter(_plain if high / low < 30 else NullFormatter())
        ax_t.set_ylabel(r"$T$ (evaluations / sample)")
        ax_t.set_xticks(range(len(datasets)), [dataset_key.labels.get(d, d) for d in datasets])
        ax_t.set_xlim(-0.6, len(datasets) - 0.4)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if cells["paper_mean"].notna().any():
        handles.append(Line2D([], [], marker="D", mfc="none", color="0.3", linestyle="none", ms=6))
        labels.append("Yu et al. (2024), Table 2")
    if (cells["n_failed"] > 0).any():
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
