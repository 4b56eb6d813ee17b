"""Confidence maps of 2-D classifiers: Bergamin et al. (2023), Fig. 6 and Figs. D.5, D.6.

Each panel fills the confidence ``max_c p(c | x)`` of one method's Monte Carlo predictive on the
grid (their code: Blues, levels 0 to 1 in steps of 0.1), draws the training points coloured by
class over it and, for two classes, the decision boundary ``p(class 1 | x) = 0.5`` in black. Rows
are methods, columns the prior settings. Only draws: the grid's predictive is computed upstream
(rule predict_classifier) and checked here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from geobayes.methods.labels import method_label
from geobayes.report.figures import set_style

__all__ = ["ConfidencePanel", "check_grid_probabilities", "confidence_map_figure"]

#: Filled-contour levels of the confidence (their code: 0 to 1 in steps of 0.1).
LEVELS = np.linspace(0.0, 1.0, 11)


class ConfidencePanel:
    """One panel's data: the grid axis, the mean predictive on the grid and the training points.

    Parameters
    ----------
    axis : array_like, shape (G,)
    probabilities : array_like, shape (G * G, C)
        Mean predictive at ``(axis[j], axis[i])`` in row ``i * G + j`` (``x1`` fastest).
    X_train : array_like, shape (N, 2)
    y_train : array_like, shape (N,)
    """

    def __init__(self, axis, probabilities, X_train, y_train):
        self.axis = np.asarray(axis, dtype=np.float64)
        self.probabilities = np.asarray(probabilities, dtype=np.float64)
        self.X_train = np.asarray(X_train, dtype=np.float64)
        self.y_train = np.asarray(y_train).astype(int)


def check_grid_probabilities(panel: ConfidencePanel, where: str) -> None:
    """One-line ValueError if a panel's grid predictive is not a (G*G, C) array of probabilities.

    Raises
    ------
    ValueError
        Naming ``where``: a shape that does not match the axis, non-finite entries, rows that do
        not sum to 1, or training inputs that are not 2-D points.
    """
    g = panel.axis.shape[0]
    p = panel.probabilities
    if p.ndim != 2 or p.shape[0] != g * g or p.shape[1] < 2:
        raise ValueError(f"{where}: grid probabilities must be ({g * g}, C >= 2) for a {g}-point axis; got {p.shape}")
    if not np.all(np.isfinite(p)):
        raise ValueError(f"{where}: {int(np.sum(~np.isfinite(p)))} non-finite grid probabilities")
    worst = float(np.max(np.abs(p.sum(axis=1) - 1.0)))
    if worst > 1e-6:
        raise ValueError(f"{where}: grid probabilities do not sum to 1 (worst row off by {worst:.3g})")
    if panel.X_train.ndim != 2 or panel.X_train.shape[1] != 2 or panel.X_train.shape[0] != panel.y_train.shape[0]:
        raise ValueError(f"{where}: training points must be (N, 2) with N labels; got {panel.X_train.shape} and "
                         f"{panel.y_train.shape}")


def confidence_map_figure(panels: Mapping[tuple[str, str], ConfidencePanel], methods: Sequence[str],
                          priors: Sequence[str], *, prior_labels: Mapping[str, str] | None = None) -> Figure:
    """The grid of confidence maps: one row per method, one column per prior setting.

    Parameters
    ----------
    panels
        ``(method, prior) -> ConfidencePanel``; a missing pair leaves its panel empty (e.g. a
        method whose every solve failed), titled so.
    methods, priors
        Row and column order.
    prior_labels
        Column titles (default the prior names).

    Raises
    ------
    ValueError
        If no panel is given, or a panel's data is malformed (:func:`check_grid_probabilities`).
    """
    if not panels:
        raise ValueError("confidence_map_figure: no panel to draw")
    for (method, prior), panel in panels.items():
        check_grid_probabilities(panel, f"confidence map {method}/{prior}")
    set_style()
    fig = Figure(figsize=(2.2 * len(priors) + 0.6, 2.0 * len(methods)), constrained_layout=True)
    axes = np.atleast_2d(fig.subplots(len(methods), len(priors), squeeze=False))
    filled = None
    for i, method in enumerate(methods):
        for j, prior in enumerate(priors):
            ax = axes[i, j]
            panel = panels.get((method, prior))
            title = f"{method_label(method)}, {(prior_labels or {}).get(prior, prior)}"
            if panel is None:
                ax.set_title(f"{title}: no draws", fontsize=7)
                ax.set_axis_off()
                continue
            g = panel.axis.shape[0]
            grid = panel.probabilities.reshape(g, g, -1)
            filled = ax.contourf(panel.axis, panel.axis, grid.max(axis=2), levels=LEVELS, cmap="Blues", vmin=0, vmax=1)
            if grid.shape[2] == 2:
                ax.contour(panel.axis, panel.axis, grid[:, :, 1], levels=[0.5], colors="black", linewidths=0.8)
            ax.scatter(panel.X_train[:, 0], panel.X_train[:, 1], c=panel.y_train, cmap="tab10", s=3,
                       vmin=0, vmax=9, linewidths=0)
            ax.set_xlim(panel.axis[0], panel.axis[-1])
            ax.set_ylim(panel.axis[0], panel.axis[-1])
            ax.set_title(title, fontsize=7)
            ax.set_xticks([])
            ax.set_yticks([])
    if filled is not None:
        fig.colorbar(filled, ax=axes, shrink=0.6, label=r"confidence $\max_c p(c \mid x)$")
    return fig
