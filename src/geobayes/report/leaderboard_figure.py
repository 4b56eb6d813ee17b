"""The cross-method leaderboard as a figure: W to the reference per posterior, with the floor.

One panel per distance (W1 of Yu et al. 2024, W2 of Hartmann et al. 2026): a row per posterior,
a marker per method at its mean W over repetitions, and the Monte Carlo floor (the same distance
between two disjoint parts of the reference) as a grey band of its mean ± 2 std. A method inside
the band is indistinguishable from an exact sampler at this sample size. Draws the leaderboard
table's cells (``tables/leaderboard.csv``), computes nothing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from geobayes.methods.labels import method_label
from geobayes.report.tidy import FLOOR_METHOD

__all__ = ["leaderboard_figure"]

_DISTANCES = {"wasserstein1": "$W_1$ to the reference", "wasserstein2": "$W_2$ to the reference"}


def leaderboard_figure(cells: pd.DataFrame) -> Figure:
    """Plot the leaderboard cells (columns posterior, anchor, method, metric, mean, std).

    Raises
    ------
    ValueError
        If the cells hold no W1 or W2 value.
    """
    shown = [m for m in _DISTANCES if (cells["metric"] == m).any() and cells.loc[cells["metric"] == m, "mean"].notna().any()]
    if not shown:
        raise ValueError(f"leaderboard cells hold no distance of {list(_DISTANCES)}")
    methods = [m for m in dict.fromkeys(cells["method"]) if m != FLOOR_METHOD]
    colours = {m: f"C{k}" for k, m in enumerate(methods)}
    heights = [cells.loc[cells["metric"] == m, "posterior"].nunique() for m in shown]
    fig = Figure(figsize=(6.5, 1.0 + 0.28 * sum(heights)), layout="constrained")
    axes = fig.subplots(len(shown), 1, squeeze=False, gridspec_kw={"height_ratios": heights})[:, 0]
    for ax, metric in zip(axes, shown, strict=True):
        block = cells[(cells["metric"] == metric) & cells["mean"].notna()]
        posteriors = list(dict.fromkeys(block["posterior"]))
        y_of = {p: i for i, p in enumerate(posteriors)}
        floor = block[block["method"] == FLOOR_METHOD]
        for row in floor.itertuples():
            spread = 2 * (row.std if np.isfinite(row.std) else 0.0)
            ax.fill_betweenx([y_of[row.posterior] - 0.4, y_of[row.posterior] + 0.4], max(row.mean - spread, 1e-6),
                             row.mean + spread, color="0.85", zorder=1)
        for method in methods:
            ours = block[block["method"] == method]
            if ours.empty:
                continue
            jitter = 0.25 * (methods.index(method) / max(len(methods) - 1, 1) - 0.5)
            ax.plot(ours["mean"], [y_of[p] + jitter for p in ours["posterior"]], "o", ms=4, color=colours[method],
                    label=method_label(method), zorder=3, linestyle="none")
        ax.set_xscale("log")
        ax.set_yticks(range(len(posteriors)), posteriors, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel(_DISTANCES[metric] + " (grey: Monte Carlo floor, mean ± 2 std)")
    handles = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    fig.legend(list(handles.values()), list(handles), loc="outside upper center", ncol=min(len(handles), 6),
               frameon=False, fontsize=7)
    return fig
