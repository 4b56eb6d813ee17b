"""Yu et al. (2023), Fig. 3: test LP and accuracy of the cumulative sample ensemble after each epoch.

The curves are computed upstream (rule ``yu2023_select`` stacks the selected grid point's
per-seed curves); this module only draws: the mean over seeds with a band of +-1.96 std, as the
paper's code (notes Sec. 5, 8.4 item 11: a band of the spread, not a confidence interval).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)

__all__ = ["convergence_figure"]

#: The paper's colours (Fig. 4 of the code: Identity blue, Wenzel black, RMSprop red, Shampoo green, Monge cyan).
SAMPLER_COLOURS = {"identity": "tab:blue", "wenzel": "black", "rmsprop": "tab:red", "shampoo": "tab:green",
                   "monge": "tab:cyan"}


def _checked(name: str, values: object) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] < 1 or array.shape[1] < 1:
        raise ValueError(f"{name} must have shape (seeds, epochs); got {array.shape}")
    return array


def convergence_figure(curves: Mapping[str, Mapping[str, np.ndarray]], labels: Mapping[str, str]) -> Figure:
    """Two panels side by side (the code's layout): test LP and test accuracy against the epoch.

    Parameters
    ----------
    curves
        Sampler name -> ``{"test_lp": (seeds, epochs), "test_accuracy": (seeds, epochs)}``; NaN
        before the first kept sample (burn-in) is left out of the lines.
    labels
        Sampler name -> legend label.
    """
    if not curves:
        raise ValueError("curves must hold at least one sampler")
    fig = Figure(figsize=(6.4, 2.6), constrained_layout=True)
    axes = fig.subplots(1, 2)
    for sampler, values in curves.items():
        colour = SAMPLER_COLOURS.get(sampler)
        for ax, metric in zip(axes, ("test_lp", "test_accuracy")):
            array = _checked(f"{sampler} {metric}", values[metric])
            epochs = np.arange(1, array.shape[1] + 1)
            mean, std = np.mean(array, axis=0), np.std(array, axis=0)
            ax.plot(epochs, mean, color=colour, lw=1.2, label=labels.get(sampler, sampler))
            ax.fill_between(epochs, mean - 1.96 * std, mean + 1.96 * std, color=colour, alpha=0.2, linewidth=0)
    axes[0].set_ylabel("test log p(y | X)")
    axes[1].set_ylabel("test accuracy")
    for ax in axes:
        ax.set_xlabel("epoch")
    axes[1].legend(loc="lower right", frameon=False)
    return fig
