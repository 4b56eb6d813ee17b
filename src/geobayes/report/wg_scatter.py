"""Scatter panels WG | NUTS | LA of two coordinates (Hartmann et al. 2026, Figs. 2 and 4).

* Fig. 2 (notes Sec. 2, E3): the 3-class multinomial GP on USPS digits 3/5/7. The paper
  plots "particular function values" without saying which (notes Sec. 6.2, item 6); we plot
  the two latent values of the first data point: :math:`\\theta_1 = f_1(x_1)` (class-1
  latent function at image 0) against :math:`\\theta_{N+1} = f_2(x_1)` (class-2 latent at
  image 0), where :math:`N = D/2` is the number of images (:math:`\\theta` stacks the class-1
  latents, then the class-2 latents; class 3 is the reference class).
* Fig. 4 (notes Sec. 2, E5): the logistic growth model, :math:`\\theta = (\\log r, \\log C_0,
  \\log K, \\log\\sigma^2)`. The paper does not say which pair it plots (notes Sec. 6.2,
  item 9); we plot :math:`\\theta_1 = \\log r` against :math:`\\theta_3 = \\log K`.

Left WG, middle NUTS, right LA, as in the paper; the MAP is a black dot; all three panels
share their axis limits. Each approximation panel's title carries our :math:`W_2` to the
NUTS reference (mean ± std over repetitions of the experiment's tidy ``wasserstein2`` rows,
:func:`geobayes.report.tidy.aggregate`) and the failed samples summed over those
repetitions; the scattered samples are the successful ones of repetition 0 (their failed count
is printed in the panel).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.report.sample_panels import thin_rows

__all__ = [
    "ScatterAxes",
    "scatter_axes",
    "successful_samples",
    "approximation_title",
    "shared_limits",
    "scatter_figure",
]

_APPROXIMATIONS = {"wg": "WG", "ela": "LA"}


class ScatterAxes(NamedTuple):
    """The two coordinates plotted and their axis labels."""

    i: int
    j: int
    xlabel: str
    ylabel: str


def scatter_axes(posterior: str, dim: int) -> ScatterAxes:
    """Coordinates of Fig. 2 (USPS, ``*-multigp``) or Fig. 4 (growth, ``*-growth``) and their labels.

    Parameters
    ----------
    posterior : str
        Posterior name ``<dataset>-<model>``.
    dim : int
        Its dimension ``D``.

    Returns
    -------
    ScatterAxes
        Growth: ``(0, 2)`` = (log r, log K). Multinomial GP: ``(0, D/2)`` = class-1 and
        class-2 latent values at image 0.

    Raises
    ------
    ValueError
        For another model, a growth posterior with ``D < 3`` or an odd ``D`` for the
        multinomial GP.
    """
    model = posterior.split("-")[-1]
    if model == "growth":
        if dim < 3:
            raise ValueError(f"{posterior}: the growth model has theta = (log r, log C0, log K, log sigma^2); "
                             f"D = {dim}")
        return ScatterAxes(0, 2, r"$\theta_1 = \log r$", r"$\theta_3 = \log K$")
    if model == "multigp":
        if dim < 2 or dim % 2:
            raise ValueError(f"{posterior}: the 3-class GP has D = 2 x images (two latent functions); D = {dim}")
        n = dim // 2
        return ScatterAxes(0, n, r"$\theta_1 = f_1(x_1)$ (class-1 latent, image 0)",
                           rf"$\theta_{{{n + 1}}} = f_2(x_1)$ (class-2 latent, image 0)")
    raise ValueError(f"{posterior}: no scatter figure for model {model!r} (growth: Fig. 4, multigp: Fig. 2)")


def successful_samples(arrays: Mapping[str, np.ndarray], name: str) -> tuple[np.ndarray, int]:
    """The successful rows of an approximation's ``samples.npz`` and the number of failed ones.

    Parameters
    ----------
    arrays : mapping
        The npz arrays, with ``theta`` ``(n, D)`` and ``successful`` ``(n,)``.
    name : str
        File name for messages.

    Returns
    -------
    theta, n_failed
    """
    missing = [k for k in ("theta", "successful") if k not in arrays]
    if missing:
        raise ValueError(f"{name}: lacks arrays {missing}; has {sorted(arrays)}")
    theta = np.asarray(arrays["theta"], dtype=np.float64)
    ok = np.asarray(arrays["successful"]).astype(bool)
    if theta.ndim != 2 or ok.shape != (theta.shape[0],):
        raise ValueError(f"{name}: theta must be (n, D) and successful (n,); got {theta.shape} and {ok.shape}")
    kept = theta[ok]
    if not np.all(np.isfinite(kept)):
        raise ValueError(f"{name}: {int((~np.isfinite(kept)).any(axis=1).sum())} successful samples are not finite")
    return kept, int((~ok).sum())


def approximation_title(label: str, stats: Mapping) -> str:
    """Panel title, e.g. ``"WG\\n$W_2$ = 0.521 ± 0.004 (5 runs; 3 of 25,000 failed)"`` (ours, never the paper's).

    Parameters
    ----------
    label : str
        The method's label.
    stats : mapping
        One row of :func:`geobayes.report.tidy.aggregate` over the method's ``wasserstein2`` tidy
        rows: ``mean``, ``std``, ``n_runs``, ``n_failed``, ``n_samples`` (a NaN mean: a run
        without a successful sample).
    """
    mean, std = float(stats["mean"]), float(stats["std"])
    value = f"$W_2$ = {mean:.3f} ± {std:.3f}" if math.isfinite(mean) else "$W_2$ n/a"
    n_runs = int(stats["n_runs"])
    n_failed = 0 if pd.isna(stats["n_failed"]) else int(stats["n_failed"])
    n_samples = 0 if pd.isna(stats["n_samples"]) else int(stats["n_samples"])
    parts = [f"{n_runs} run{'s' if n_runs != 1 else ''}", f"{n_failed:,} of {n_samples:,} failed"]
    return f"{label}\n{value} ({'; '.join(parts)})"


def shared_limits(clouds: Sequence[np.ndarray], mode: np.ndarray | None = None, *,
                  quantiles: tuple[float, float] = (0.5, 99.5), pad: float = 0.08
                  ) -> tuple[tuple[float, float], tuple[float, float]]:
    """Common axis limits of 2-D point clouds: union of per-cloud quantile boxes (and the mode), padded."""
    lows, highs = [], []
    for cloud in clouds:
        cloud = np.asarray(cloud, dtype=np.float64)
        if cloud.ndim != 2 or cloud.shape[1] != 2 or cloud.shape[0] == 0:
            raise ValueError(f"each cloud must have shape (n, 2) with n >= 1; got {cloud.shape}")
        low, high = np.percentile(cloud, quantiles, axis=0)
        lows.append(low)
        highs.append(high)
    if mode is not None:
        lows.append(np.asarray(mode, dtype=np.float64))
        highs.append(np.asarray(mode, dtype=np.float64))
    low, high = np.min(lows, axis=0), np.max(highs, axis=0)
    span = np.where(high > low, high - low, 1.0)
    low, high = low - pad * span, high + pad * span
    return (float(low[0]), float(high[0])), (float(low[1]), float(high[1]))


def scatter_figure(wg: np.ndarray, nuts: np.ndarray, la: np.ndarray, mode: np.ndarray, axes: ScatterAxes, *,
                   wg_stats: Mapping, la_stats: Mapping, wg_failed_shown: int = 0, la_failed_shown: int = 0,
                   max_points: int = 3000) -> Figure:
    """Three panels WG | NUTS | LA of two coordinates with the MAP, shared limits (Figs. 2 and 4).

    Parameters
    ----------
    wg, nuts, la : numpy.ndarray
        Successful samples ``(n, D)`` of WG, the NUTS reference and LA (repetition 0).
    mode : numpy.ndarray
        The MAP ``(D,)``.
    axes : ScatterAxes
        Coordinates and labels (:func:`scatter_axes`).
    wg_stats, la_stats : mapping
        Our W2 over repetitions (rows of :func:`geobayes.report.tidy.aggregate`), shown in the
        titles (:func:`approximation_title`).
    wg_failed_shown, la_failed_shown : int, default 0
        Failed samples of the plotted repetition (not drawn), printed in the panel.
    max_points : int, default 3000
        Most points drawn per panel (deterministic stride).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If the arrays have different dimensions, a coordinate is out of range, or a
        cloud is empty or not finite.
    """
    clouds = {"wg": np.asarray(wg, dtype=np.float64), "nuts": np.asarray(nuts, dtype=np.float64),
              "la": np.asarray(la, dtype=np.float64)}
    mode = np.asarray(mode, dtype=np.float64)
    dims = {k: v.shape[1] if v.ndim == 2 else None for k, v in clouds.items()}
    if len(set(dims.values()) | {mode.shape[0] if mode.ndim == 1 else None}) != 1:
        raise ValueError(f"samples and mode must share D: samples {dims}, mode {mode.shape}")
    dim = mode.shape[0]
    if not (0 <= axes.i < dim and 0 <= axes.j < dim and axes.i != axes.j):
        raise ValueError(f"coordinates ({axes.i}, {axes.j}) must be distinct and in [0, {dim})")
    for key, cloud in clouds.items():
        if cloud.shape[0] == 0:
            raise ValueError(f"{key} holds no samples to plot")
        if not np.all(np.isfinite(cloud)):
            raise ValueError(f"{key} samples are not all finite (drop failed samples first)")
    projected = {k: v[:, [axes.i, axes.j]] for k, v in clouds.items()}
    point = mode[[axes.i, axes.j]]
    xlim, ylim = shared_limits(list(projected.values()), point)
    titles = {"wg": approximation_title("WG", wg_stats), "nuts": f"NUTS (reference)\n{clouds['nuts'].shape[0]:,} draws",
              "la": approximation_title("LA", la_stats)}
    shown_failed = {"wg": wg_failed_shown, "la": la_failed_shown}
    fig = Figure(figsize=(8.4, 3.1), layout="constrained")
    panels = fig.subplots(1, 3, sharex=True, sharey=True)
    colours = {"wg": "C0", "nuts": "0.3", "la": "C3"}
    for ax, key in zip(panels, ("wg", "nuts", "la"), strict=True):
        shown = thin_rows(projected[key], max_points)
        ax.scatter(shown[:, 0], shown[:, 1], s=2, alpha=0.35, color=colours[key], linewidths=0, rasterized=True)
        ax.plot(point[0], point[1], "o", ms=5, color="black", mec="white", mew=0.6, zorder=3, label="MAP")
        ax.set_title(titles[key], fontsize=7)
        ax.set_xlabel(axes.xlabel)
        if key != "nuts":
            ax.text(0.03, 0.97, f"repetition 0: {clouds[key].shape[0]:,} shown, {int(shown_failed[key]):,} failed",
                    transform=ax.transAxes, ha="left", va="top", fontsize=6,
                    bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.8})
        ax.set_xlim(xlim)
        ax.set_ylim(ylim)
    panels[0].set_ylabel(axes.ylabel)
    panels[0].legend(loc="lower right", frameon=True, framealpha=0.8)
    return fig
