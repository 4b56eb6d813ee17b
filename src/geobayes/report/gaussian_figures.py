"""Isotropic-Gaussian figures of Yu et al. (2024): Fig. 2 (ELA vs. RLA-B) and Fig. 3 (bias vs. D).

* Fig. 2: for the 2-D target :math:`\\mathcal N(0, I)`, each method's samples over the
  true contours (log-pdf at radius 1, 2, 3, on :math:`[-3, 3]^2`) with histograms of both
  coordinates and the true :math:`\\mathcal N(0, 1)` marginal density. ELA is exact;
  RLA-B is too narrow.
* Fig. 3: the 1-D Wasserstein distance of the first coordinate to exact draws for
  :math:`\\mathcal N(0, I_D)`, :math:`D = 1, \\dots, 10`; lines are means over runs and
  bands are means :math:`\\pm 2` std (``np.std``, population, as the paper's code). The
  RLA-B bias grows with :math:`D`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from scipy.stats import norm

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.methods.labels import METHOD_LABELS, method_label
from geobayes.report.sample_panels import SAMPLE_COLOUR, check_points, draw_target_contours, thin_rows

__all__ = [
    "GAUSSIAN_WINDOW",
    "GAUSSIAN_RADII",
    "BIAS_COLUMNS",
    "standard_normal_logdensity",
    "gaussian_marginals_figure",
    "bias_vs_dimension_figure",
]

#: Plot window of Fig. 2 (both coordinates), from the paper's code.
GAUSSIAN_WINDOW = (-3.0, 3.0)
#: Radii of the contour circles of Fig. 2 (levels are the 2-D log-pdf there).
GAUSSIAN_RADII = (1.0, 2.0, 3.0)
#: Columns :func:`bias_vs_dimension_figure` needs (one row per dimension, method and run).
BIAS_COLUMNS = ("dim", "method", "seed", "w1_first")

_HISTOGRAM_BINS = 30


def standard_normal_logdensity(points: np.ndarray) -> np.ndarray:
    """Log density of :math:`\\mathcal N(0, I_2)` at ``(m, 2)`` points (normalised)."""
    points = np.asarray(points, dtype=np.float64)
    return -0.5 * np.sum(points**2, axis=1) - np.log(2.0 * np.pi)


def _gaussian_grid(n: int = 200) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    axis = np.linspace(*GAUSSIAN_WINDOW, n)
    xx, yy = np.meshgrid(axis, axis)
    zz = standard_normal_logdensity(np.column_stack([xx.ravel(), yy.ravel()])).reshape(n, n)
    return xx, yy, zz


def _marginal_histogram(ax, values: np.ndarray, *, horizontal: bool) -> None:
    """Histogram on the plot window, normalised by *all* samples, with the N(0, 1) density."""
    edges = np.linspace(*GAUSSIAN_WINDOW, _HISTOGRAM_BINS + 1)
    weights = np.full(values.shape, 1.0 / (values.size * (edges[1] - edges[0])))
    ax.hist(values, bins=edges, weights=weights, color=SAMPLE_COLOUR, alpha=0.5,
            orientation="horizontal" if horizontal else "vertical")
    grid = np.linspace(*GAUSSIAN_WINDOW, 400)
    if horizontal:
        ax.plot(norm.pdf(grid), grid, color="black", lw=0.9)
        ax.set_ylim(GAUSSIAN_WINDOW)
        ax.tick_params(labelleft=False)
        ax.set_xticks([])
        ax.spines["bottom"].set_visible(False)
    else:
        ax.plot(grid, norm.pdf(grid), color="black", lw=0.9)
        ax.set_xlim(GAUSSIAN_WINDOW)
        ax.tick_params(labelbottom=False)
        ax.set_yticks([])
        ax.spines["left"].set_visible(False)


def gaussian_marginals_figure(samples_by_method: Mapping[str, np.ndarray], max_points: int = 2000) -> Figure:
    """Samples and marginals of each method on the 2-D standard Gaussian (Yu et al. 2024, Fig. 2).

    Per method (left to right, in mapping order; the paper shows ELA then RLA-B): a scatter
    of the samples over the true contours (log-pdf at radius 1, 2, 3) on
    :math:`[-3, 3]^2`, with the histogram of :math:`\\theta_1` above and of
    :math:`\\theta_2` to the right, each with the true :math:`\\mathcal N(0, 1)` density as
    a black line. Histograms use all samples, normalised by their total number (so mass
    outside the window is not redistributed); the scatter a deterministic subsample.

    Parameters
    ----------
    samples_by_method : mapping of str to numpy.ndarray
        Method name (``"ela"``, ``"rla_b"``; shown via
        :func:`geobayes.methods.labels.method_label`) -> samples of shape ``(n, 2)``.
    max_points : int, default 2000
        Most samples in each scatter.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not registered with pyplot).

    Raises
    ------
    ValueError
        If the mapping is empty or some samples are not a finite ``(n, 2)`` array.
    """
    if not isinstance(samples_by_method, Mapping) or not samples_by_method:
        raise ValueError("samples_by_method must map at least one method name to its (n, 2) samples")
    checked = {method: check_points(samples, f"samples of {method!r}") for method, samples in samples_by_method.items()}
    thin_rows(next(iter(checked.values())), max_points)  # validates max_points before drawing
    grid = _gaussian_grid()
    levels = sorted(float(standard_normal_logdensity(np.array([[r, 0.0]]))[0]) for r in GAUSSIAN_RADII)

    fig = Figure(figsize=(3.0 * len(checked), 3.1), layout="constrained")
    outer = fig.add_gridspec(1, len(checked))
    for k, (method, samples) in enumerate(checked.items()):
        cell = outer[0, k].subgridspec(2, 2, width_ratios=(4, 1), height_ratios=(1, 4), wspace=0.02, hspace=0.02)
        ax = fig.add_subplot(cell[1, 0])
        top = fig.add_subplot(cell[0, 0], sharex=ax)
        right = fig.add_subplot(cell[1, 1], sharey=ax)
        draw_target_contours(ax, grid, levels)
        shown = thin_rows(samples, max_points)
        ax.scatter(shown[:, 0], shown[:, 1], s=2, alpha=0.35, color=SAMPLE_COLOUR, linewidths=0, zorder=2,
                   rasterized=True)
        ax.set_xlim(GAUSSIAN_WINDOW)
        ax.set_ylim(GAUSSIAN_WINDOW)
        ax.set_aspect("equal")
        ax.set_xlabel(r"$\theta_1$")
        ax.set_ylabel(r"$\theta_2$")
        _marginal_histogram(top, samples[:, 0], horizontal=False)
        _marginal_histogram(right, samples[:, 1], horizontal=True)
        top.set_title(method_label(method))
    return fig


def _method_order(methods: pd.Series) -> list[str]:
    present = list(dict.fromkeys(methods))
    known = [m for m in METHOD_LABELS if m in present]
    return known + [m for m in present if m not in known]


def _method_colour(method: str, position: int) -> str:
    """Fixed colour per known method (ELA blue, RLA-B orange, as the paper); others follow."""
    known = list(METHOD_LABELS)
    return f"C{known.index(method)}" if method in known else f"C{len(known) + position}"


#: Line styles of successive methods in Fig. 3 (coinciding lines stay visible).
_LINE_STYLES = ("-", "--", "-.", ":")


def bias_vs_dimension_figure(frame: pd.DataFrame) -> Figure:
    """Wasserstein distance of the first coordinate vs. dimension (Yu et al. 2024, Fig. 3).

    One line per method: the mean over runs of ``w1_first`` at each dimension; a band of
    the mean :math:`\\pm 2` std (population std, ``ddof=0``, as ``np.std`` in the paper's
    code). Methods appear in the paper's order (ELA, RLA-B, RLA-BLog, RLA-F, then others).

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns :data:`BIAS_COLUMNS`: ``dim`` (:math:`D`), ``method``, ``seed`` (run) and
        ``w1_first`` (1-D :math:`\\mathcal W_1` of the first coordinate to exact draws);
        one row per (dim, method, seed).

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not registered with pyplot); ``axes[0].lines[k]`` is the mean line and
        ``axes[0].collections[k]`` the band of the ``k``-th method.

    Raises
    ------
    ValueError
        If the frame is empty, lacks a column, repeats a (dim, method, seed) row, or holds
        a non-finite ``w1_first`` or ``dim``.
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas DataFrame; got {type(frame).__name__}")
    missing = [column for column in BIAS_COLUMNS if column not in frame.columns]
    if missing:
        raise ValueError(f"bias frame lacks columns {missing}; has {list(frame.columns)}")
    if frame.empty:
        raise ValueError("bias frame is empty: no (dim, method, seed) results to plot")
    values = frame[["dim", "w1_first"]].to_numpy(dtype=np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError("bias frame holds non-finite dim or w1_first values")
    repeated = frame.duplicated(subset=["dim", "method", "seed"])
    if repeated.any():
        first = frame.loc[repeated, ["dim", "method", "seed"]].iloc[0].to_dict()
        raise ValueError(f"bias frame repeats {int(repeated.sum())} (dim, method, seed) rows, e.g. {first}")

    fig = Figure(figsize=(3.4, 2.6), layout="constrained")
    ax = fig.subplots()
    for k, method in enumerate(_method_order(frame["method"])):
        per_dim = (
            frame[frame["method"] == method]
            .groupby("dim")["w1_first"]
            .agg(mean="mean", std=lambda w: float(np.std(w.to_numpy(), ddof=0)))
            .sort_index()
        )
        dims = per_dim.index.to_numpy(dtype=np.float64)
        mean, std = per_dim["mean"].to_numpy(), per_dim["std"].to_numpy()
        colour = _method_colour(method, k)
        # Exact methods give identical samples (ELA, RLA-BLog, RLA-F on N(0, I)): successive
        # methods get thinner, dashed lines and smaller markers so that coinciding lines stay visible.
        style = _LINE_STYLES[k % len(_LINE_STYLES)]
        ax.plot(dims, mean, linestyle=style, marker="o", ms=max(4.0 - k, 1.5), lw=max(2.2 - 0.4 * k, 0.8),
                color=colour, label=method_label(method), zorder=3 + k)
        ax.fill_between(dims, mean - 2.0 * std, mean + 2.0 * std, color=colour, alpha=0.3, linewidth=0)
    ax.set_xlabel(r"$D$")
    ax.set_ylabel(r"$\mathcal{W}$ (first coordinate)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(frameon=False)
    return fig
