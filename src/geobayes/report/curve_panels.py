"""One figure shape for metric-against-progress curves: panels side by side, a line per method with a
band of one standard deviation over runs.

Liu & Zhu (2018) plot all their results this way: Fig. 1 (test accuracy along iterations, a panel
per data set) and Fig. 2 (log-perplexity along epochs, and at the last epoch against the number of
particles). The curves are computed upstream; this module only draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
from matplotlib.figure import Figure

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)

__all__ = ["Curves", "curve_panels_figure"]


class Curves(NamedTuple):
    """One method's runs in one panel: ``values[r, i]`` is run ``r`` at ``x[i]`` (NaN: not measured)."""

    x: np.ndarray
    values: np.ndarray


def _checked(where: str, curves: Curves) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(curves.x, dtype=np.float64)
    values = np.asarray(curves.values, dtype=np.float64)
    if values.ndim == 1:
        values = values[None, :]
    if x.ndim != 1 or values.ndim != 2 or values.shape[1] != x.size or x.size == 0:
        raise ValueError(f"{where}: expected x of shape (points,) and values of shape (runs, points); got "
                         f"{x.shape} and {values.shape}")
    return x, values


def curve_panels_figure(panels: Mapping[str, Mapping[str, Curves]], labels: Mapping[str, str], *,
                        xlabel: str | Mapping[str, str], ylabel: str, log_x: bool | Sequence[str] = False,
                        markers: bool = False,
                        colours: Mapping[str, str] | None = None, order: Sequence[str] = ()) -> Figure:
    """A row of panels (title -> method -> :class:`Curves`), the mean over runs with a +-1 std band.

    Parameters
    ----------
    panels
        Panel title -> method name -> its runs.
    labels
        Method name -> legend label.
    xlabel, ylabel
        Axis labels; ``xlabel`` may map a panel title to its own.
    log_x
        Logarithmic x axes: True for every panel, or the titles of those (Fig. 2b's particle counts).
    markers
        Mark the measured points (sparse x values).
    colours
        Method name -> colour; otherwise the default cycle, one colour per method across panels.
    order
        Methods drawn first, in this order; the rest follow in the mapping's order.
    """
    if not panels:
        raise ValueError("curve_panels_figure: no panel to draw")
    fig = Figure(figsize=(3.4 * len(panels), 2.8), constrained_layout=True)
    axes = np.atleast_1d(fig.subplots(1, len(panels), squeeze=False)[0])
    every = [m for m in order if any(m in methods for methods in panels.values())]
    every += [m for methods in panels.values() for m in methods if m not in every]
    every = list(dict.fromkeys(every))
    cycle = [f"C{i % 10}" for i in range(len(every))]
    colours = {**dict(zip(every, cycle)), **(colours or {})}
    for ax, (title, methods) in zip(axes, panels.items()):
        names = [m for m in every if m in methods]
        for method in names:
            x, values = _checked(f"{title}, {method}", methods[method])
            finite = np.isfinite(values)
            counts = finite.sum(axis=0)
            with np.errstate(invalid="ignore"):
                mean = np.where(counts > 0, np.nansum(values, axis=0) / np.maximum(counts, 1), np.nan)
                std = np.sqrt(np.where(counts > 0, np.nansum((values - mean) ** 2, axis=0) / np.maximum(counts, 1),
                                       np.nan))
            colour = colours[method]
            (line,) = ax.plot(x, mean, color=colour, marker="o" if markers else None, markersize=3,
                              label=labels.get(method, method))
            if values.shape[0] > 1:
                ax.fill_between(x, mean - std, mean + std, color=line.get_color(), alpha=0.2, linewidth=0)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(xlabel if isinstance(xlabel, str) else xlabel[title])
        if log_x is True or (not isinstance(log_x, bool) and title in log_x):
            ax.set_xscale("log")
        ax.legend(fontsize=6, frameon=False)
    axes[0].set_ylabel(ylabel)
    return fig
