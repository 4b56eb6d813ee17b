"""Hartmann et al.'s (2026) figures of the network's push-forward predictive on Snelson's data.

* :func:`build_pushforward_figure` -- Fig. 5: predictive means of WG, NUTS, LA and the MAP curve; the
  predictive samples at a few inputs; per method the predictive mean with a 95 % credible band.
* :func:`build_wasserstein_across_maps_figure` -- App. D, Fig. 7: mean and variance over pairs of MAP
  estimates of the push-forward :math:`W_2` against :math:`x`
  (:func:`geobayes.metrics.pushforward_w2.pairwise_pushforward_wasserstein2`).

As in :mod:`geobayes.report.bnn_figures`, the ``build_*`` functions return the
:class:`matplotlib.figure.Figure`; :func:`geobayes.report.figures.save_figure` writes it, atomically.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from geobayes.metrics.density_grid import check_window
from geobayes.metrics.map_robustness import training_intervals
from geobayes.metrics.predictive import predictive_quantiles
from geobayes.report.bnn_figures import DATA_COLOUR, SHADE_COLOUR
import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.report.function_checks import check_grid, check_positive_int, check_samples, check_vector

__all__ = ["build_pushforward_figure", "build_wasserstein_across_maps_figure"]


# ---------------------------------------------------------------- Hartmann Fig. 5


def _method_samples(samples: Mapping[str, Any], n_inputs: int) -> dict[str, np.ndarray]:
    if not isinstance(samples, Mapping) or not samples:
        raise ValueError("samples must be a non-empty mapping from method label to (S, M) function samples")
    return {str(k): check_samples(v, f"samples[{k!r}]", n_inputs) for k, v in samples.items()}


def _probe_columns(x: np.ndarray, probe_x: Sequence[float] | None) -> list[int]:
    if probe_x is None:
        return sorted({int(round(q * (x.shape[0] - 1))) for q in (1 / 6, 1 / 2, 5 / 6)})
    values = np.atleast_1d(np.asarray(probe_x, dtype=np.float64))
    if values.ndim != 1 or not 1 <= values.shape[0] <= 4 or not np.all(np.isfinite(values)):
        raise ValueError(f"probe_x must hold 1 to 4 finite inputs; got {probe_x!r}")
    outside = values[(values < x[0]) | (values > x[-1])]
    if outside.size:
        raise ValueError(f"probe_x {outside.tolist()} lie outside the grid [{x[0]}, {x[-1]}]")
    return [int(np.argmin(np.abs(x - v))) for v in values]


def build_pushforward_figure(
    x: Any,
    samples: Mapping[str, Any],
    *,
    x_train: Any = None,
    y_train: Any = None,
    map_f: Any = None,
    noise_std: Mapping[str, Any] | None = None,
    probe_x: Sequence[float] | None = None,
    level: float = 0.95,
    xlim: Sequence[float] | None = None,
    ylim: Sequence[float] | None = None,
    bins: int = 40,
    gap_fraction: float = 0.1,
) -> Figure:
    """Hartmann et al. (2026), Fig. 5: push-forward predictives of WG, NUTS and LA on Snelson's data.

    Top left: the predictive mean :math:`\\mathbb E[Y(x)] = \\frac1S\\sum_s f_{\\theta_s}(x)`
    along ``x`` for each method, the MAP curve :math:`f_{\\hat\\theta}(x)` (dashed), the
    training points and the grey training-data intervals; the probe inputs are dotted
    vertical lines. Top right: one panel per probe input with a histogram (density) of
    each method's predictive samples :math:`f_{\\theta_s}(x)` there (the paper's
    "scatter plot of the predictive distributions ... at particular inputs"; the input
    used is the grid point nearest each ``probe_x``). Bottom row: per method, the
    predictive mean and the central ``level`` credible band from the quantiles of the
    predictive (:func:`geobayes.metrics.predictive.predictive_quantiles`: the mixture
    with the observation noise when ``noise_std`` has the method, else of :math:`f`).

    Parameters
    ----------
    x : array_like, shape (M,)
        Increasing grid of inputs.
    samples : mapping of str to array_like of shape (S_k, M)
        Method label (e.g. ``"WG"``, ``"NUTS"``, ``"LA"``) to its function samples on ``x``;
        the order is the colour and panel order.
    x_train, y_train : array_like, shape (N,), optional
        Training data.
    map_f : array_like, shape (M,), optional
        The MAP network :math:`f_{\\hat\\theta}` on ``x``.
    noise_std : mapping of str to float or array_like of shape (S_k,), optional
        Observation-noise std per method (Hartmann et al. infer :math:`\\sigma^2`, so one
        value per sample); methods not in the mapping get bands of :math:`f` alone.
    probe_x : sequence of float, optional
        One to four inputs for the histograms; default the grid points at 1/6, 1/2 and
        5/6 of the grid.
    level : float, default 0.95
        Credible level of the bands.
    xlim, ylim : (float, float), optional
        Plot window (``ylim`` is also the value range of the histograms); default the
        grid's range and automatic limits. LA is "essentially uncontrolled" in the
        paper, so a ``ylim`` is usually needed.
    bins : int, default 40
        Histogram bins.
    gap_fraction : float, default 0.1
        Passed to :func:`training_intervals`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If the grid is not increasing, a method's samples do not have one column per grid
        input, ``map_f``/training data do not match, ``noise_std`` names an unknown method,
        a probe input lies outside the grid, or ``level`` is not in (0, 1).
    """
    x = check_grid(x, "x")
    methods = _method_samples(samples, x.shape[0])
    if not 0 < level < 1:
        raise ValueError(f"level must lie in (0, 1); got {level!r}")
    bins = check_positive_int(bins, "bins")
    noise_std = dict(noise_std or {})
    unknown = sorted(set(map(str, noise_std)) - set(methods))
    if unknown:
        raise ValueError(f"noise_std names methods {unknown} that have no samples; methods: {list(methods)}")
    map_curve = check_vector(map_f, "map_f", x.shape[0]) if map_f is not None else None
    if (x_train is None) != (y_train is None):
        raise ValueError("give both x_train and y_train or neither")
    data = None
    if x_train is not None:
        xt = check_vector(x_train, "x_train")
        data = (xt, check_vector(y_train, "y_train", xt.shape[0]), training_intervals(xt, gap_fraction=gap_fraction))
    xlim = check_window(xlim, "xlim") if xlim is not None else (float(x[0]), float(x[-1]))
    ylim = check_window(ylim, "ylim") if ylim is not None else None
    columns = _probe_columns(x, probe_x)
    colours = {name: f"C{k}" for k, name in enumerate(methods)}
    tail = (1 - level) / 2
    bands = {name: predictive_quantiles(f, [tail, 1 - tail], noise_std.get(name)) for name, f in methods.items()}

    fig = Figure(figsize=(2.4 * max(len(methods), 3), 5.2), layout="constrained")
    top, bottom = fig.subfigures(2, 1)
    top_axes = top.subplots(1, 1 + len(columns), width_ratios=[2.2] + [1.0] * len(columns), squeeze=False)[0]
    bottom_axes = bottom.subplots(1, len(methods), squeeze=False, sharey=True)[0]

    def draw_data(ax: Axes) -> None:
        if data is not None:
            for low, high in data[2]:
                ax.axvspan(low, high, color=SHADE_COLOUR, lw=0, zorder=0)
            ax.scatter(data[0], data[1], s=3, color=DATA_COLOUR, lw=0, zorder=4, label="data")
        ax.set_xlim(*xlim)
        if ylim is not None:
            ax.set_ylim(*ylim)
        ax.set_xlabel("$x$")

    ax = top_axes[0]
    draw_data(ax)
    for name, f in methods.items():
        ax.plot(x, f.mean(axis=0), color=colours[name], lw=1.3, label=name, zorder=3)
    if map_curve is not None:
        ax.plot(x, map_curve, color="black", lw=1.0, ls="--", label="MAP", zorder=3)
    for column in columns:
        ax.axvline(x[column], color="0.4", lw=0.7, ls=":", zorder=1)
    ax.set_ylabel(r"$\mathbb{E}[Y(x)]$")
    ax.legend(loc="best", frameon=False)

    for ax, column in zip(top_axes[1:], columns, strict=True):
        values = {name: f[:, column] for name, f in methods.items()}
        if ylim is not None:
            value_range = ylim
        else:
            pooled = np.concatenate(list(values.values()))
            value_range = tuple(np.quantile(pooled, [0.005, 0.995]))
            if value_range[0] == value_range[1]:
                value_range = (value_range[0] - 0.5, value_range[1] + 0.5)
        for name, v in values.items():
            ax.hist(v, bins=bins, range=value_range, density=True, histtype="step", color=colours[name], lw=1.0)
        if map_curve is not None:
            ax.axvline(map_curve[column], color="black", lw=0.8, ls="--")
        ax.set_title(f"$x = {x[column]:.3g}$")
        ax.set_xlabel(r"$f_\theta(x)$")
        ax.set_yticks([])

    for ax, (name, f) in zip(bottom_axes, methods.items(), strict=True):
        draw_data(ax)
        low, high = bands[name]
        ax.fill_between(x, low, high, color=colours[name], alpha=0.3, lw=0, zorder=2)
        ax.plot(x, f.mean(axis=0), color=colours[name], lw=1.3, zorder=3)
        ax.set_title(name if name in noise_std else f"{name} ($f$ only)")
    bottom_axes[0].set_ylabel("$y$")
    bottom.suptitle(f"Predictive mean and {100 * level:g}% credible band", fontsize=9)
    return fig


# ---------------------------------------------------------------- Hartmann Fig. 7


def _mean_and_variance(value: Any, name: str, n_inputs: int) -> tuple[np.ndarray, np.ndarray]:
    if hasattr(value, "mean") and hasattr(value, "variance") and not isinstance(value, np.ndarray):
        mean, variance = value.mean, value.variance
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        mean, variance = value
    else:
        raise ValueError(
            f"per_method[{name!r}] must be a PairwiseW2 (from pairwise_pushforward_wasserstein2) or a "
            f"(mean, variance) pair; got {type(value).__name__}"
        )
    mean = check_vector(mean, f"mean of per_method[{name!r}]", n_inputs)
    variance = check_vector(variance, f"variance of per_method[{name!r}]", n_inputs)
    if np.any(variance < 0):
        raise ValueError(f"variance of per_method[{name!r}] must be >= 0")
    return mean, variance


def build_wasserstein_across_maps_figure(
    x: Any,
    per_method: Mapping[str, Any],
    *,
    band: str = "variance",
    yscale: str = "linear",
    x_train: Any = None,
    gap_fraction: float = 0.1,
) -> Figure:
    """Hartmann et al. (2026), App. D, Fig. 7: pairwise push-forward :math:`W_2` across MAP estimates vs :math:`x`.

    For every method (LA, WG) a line of the mean over the pairs of MAP estimates of the
    per-input :math:`W_2` and a band of mean :math:`\\pm` variance (the paper: "the
    resulting mean and variance are plotted"; ``band="std"`` draws :math:`\\pm` std
    instead). The band is clipped at 0 (a distance is never negative).

    Parameters
    ----------
    x : array_like, shape (M,)
        Increasing grid of inputs (the paper: :math:`x \\in [-3, 10]`).
    per_method : mapping of str to PairwiseW2 or (mean, variance)
        Method label to the result of
        :func:`geobayes.metrics.pushforward_w2.pairwise_pushforward_wasserstein2` (or a pair of
        arrays of shape ``(M,)``).
    band : {"variance", "std"}, default "variance"
        Half-width of the band.
    yscale : {"linear", "log", "symlog"}, default "linear"
        Scale of the :math:`W_2` axis (LA's distances can be orders of magnitude larger).
    x_train : array_like, shape (N,), optional
        Training inputs, shaded as in the other figures.
    gap_fraction : float, default 0.1
        Passed to :func:`training_intervals`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        On an empty mapping, arrays that do not match the grid, a negative variance, or
        an unknown ``band``/``yscale``.
    """
    x = check_grid(x, "x")
    if not isinstance(per_method, Mapping) or not per_method:
        raise ValueError("per_method must be a non-empty mapping from method label to PairwiseW2 or (mean, variance)")
    if band not in ("variance", "std"):
        raise ValueError(f"band must be 'variance' or 'std'; got {band!r}")
    if yscale not in ("linear", "log", "symlog"):
        raise ValueError(f"yscale must be 'linear', 'log' or 'symlog'; got {yscale!r}")
    curves = {str(k): _mean_and_variance(v, str(k), x.shape[0]) for k, v in per_method.items()}
    fig = Figure(figsize=(4.4, 3.0), layout="constrained")
    ax = fig.subplots()
    if x_train is not None:
        for low, high in training_intervals(x_train, gap_fraction=gap_fraction):
            ax.axvspan(low, high, color=SHADE_COLOUR, lw=0, zorder=0)
    for k, (name, (mean, variance)) in enumerate(curves.items()):
        half = variance if band == "variance" else np.sqrt(variance)
        ax.fill_between(x, np.maximum(mean - half, 0.0), mean + half, color=f"C{k}", alpha=0.25, lw=0, zorder=1)
        ax.plot(x, mean, color=f"C{k}", lw=1.3, label=name, zorder=2)
    ax.set_xlim(float(x[0]), float(x[-1]))
    ax.set_yscale(yscale)
    ax.set_xlabel("$x$")
    ax.set_ylabel(r"pairwise $W_2$ across MAPs")
    ax.set_title(rf"mean $\pm$ {band} over pairs of MAP estimates")
    ax.legend(frameon=False)
    return fig
