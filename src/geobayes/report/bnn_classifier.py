"""Hartmann et al. (2026), App. D, Figs. 8-9: the 2-D network classifier at several optima.

Fig. 8: per optimum (a)-(e) a row of three panels -- the MAP decision boundary, the LA and the
WG predictive variance ``V_{theta ~ rho}(p(y = 1 | x, theta))`` over the input plane. Fig. 9: the
eigenvalues of the Fisher information ``I(theta_hat)`` at each optimum, one column per optimum.
The per-optimum numbers (training fit, the spectrum's drop index, the mean predictive variance on
and off the data, WG failures) are tidy rows of ``results/summary/bnn_classifier.csv`` and the
tables ``bnn_classifier_optima`` / ``bnn_classifier_variance`` of ``workflow/resources/tables.yaml``.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.colors import Normalize
from matplotlib.figure import Figure

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)

#: Panel titles of the two approximations.
METHOD_TITLES = {"ela": "LA", "wg": "WG"}


def optimum_label(optimum: int) -> str:
    """``(a)``, ``(b)``, ... for optimum 0, 1, ... (letters as in the paper's Fig. 8)."""
    if not 0 <= int(optimum) < 26:
        raise ValueError(f"optimum index must be in [0, 26), got {optimum!r}")
    return f"({string.ascii_lowercase[int(optimum)]})"


def variance_figure(panels: Sequence[Mapping], X: np.ndarray, y: np.ndarray,
                    methods: Sequence[str] = ("ela", "wg")) -> Figure:
    """Fig. 8: one row per optimum -- MAP decision boundary, then each method's predictive variance.

    Parameters
    ----------
    panels
        Per optimum (in order): ``x1``, ``x2`` (grid axes), ``map_probability`` (P x P, the MAP's
        ``p(y = 1 | x)``) and for each method ``<method>`` (P x P predictive variance).
    X, y
        Training inputs (n, 2) and 0/1 labels, drawn on every panel.
    methods
        Variance columns, left to right.

    Raises
    ------
    ValueError
        If there are no panels or a grid does not match its axes.
    """
    if not panels:
        raise ValueError("variance_figure needs at least one optimum")
    rows, cols = len(panels), 1 + len(methods)
    fig = Figure(figsize=(3.2 * cols, 2.8 * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, sharex=True, sharey=True)
    # One colour scale per method across optima, so "consistent across MAPs" is visible.
    vmax = {m: max(float(np.nanmax(p[m])) for p in panels) for m in methods}
    for i, panel in enumerate(panels):
        x1, x2 = np.asarray(panel["x1"]), np.asarray(panel["x2"])
        shape = (x2.size, x1.size)
        prob = np.asarray(panel["map_probability"]).reshape(shape)
        ax = axes[i, 0]
        ax.contourf(x1, x2, prob, levels=np.linspace(0, 1, 11), cmap="RdBu_r", alpha=0.6)
        ax.contour(x1, x2, prob, levels=[0.5], colors="k", linewidths=1.5)
        ax.set_ylabel(f"{optimum_label(panel.get('optimum', i))}\n$x_2$")
        for j, method in enumerate(methods, start=1):
            ax = axes[i, j]
            image = ax.pcolormesh(x1, x2, np.asarray(panel[method]).reshape(shape), shading="auto", cmap="viridis",
                                  norm=Normalize(0.0, vmax[method] if vmax[method] > 0 else 1.0))
            if i == 0:
                fig.colorbar(image, ax=axes[:, j], shrink=0.6, label=f"{METHOD_TITLES.get(method, method)} "
                             r"$\mathbb{V}[p(y=1\mid x)]$")
        for ax in axes[i]:
            ax.scatter(X[:, 0], X[:, 1], c=np.where(np.asarray(y) > 0.5, "tab:red", "tab:blue"), s=4,
                       edgecolors="none")
    axes[0, 0].set_title("MAP decision boundary")
    for j, method in enumerate(methods, start=1):
        axes[0, j].set_title(f"{METHOD_TITLES.get(method, method)} predictive variance")
    for ax in axes[-1]:
        ax.set_xlabel("$x_1$")
    return fig


def spectra_figure(spectra: Sequence[np.ndarray], drop_indices: Sequence[int] | None = None) -> Figure:
    """Fig. 9: sorted eigenvalues of ``I(theta_hat)`` (log scale), one column per optimum.

    Eigenvalues at or below ``1e-16`` times the largest (numerical zeros; the rank is at most
    n) are drawn at that floor. A dashed line marks each optimum's drop index.
    """
    if not spectra:
        raise ValueError("spectra_figure needs at least one spectrum")
    fig = Figure(figsize=(2.4 * len(spectra), 3.2), layout="constrained")
    axes = fig.subplots(1, len(spectra), squeeze=False, sharey=True)[0]
    for k, (ax, eigenvalues) in enumerate(zip(axes, spectra)):
        eigenvalues = np.sort(np.asarray(eigenvalues, dtype=np.float64))[::-1]
        floor = 1e-16 * eigenvalues[0]
        ax.semilogy(np.arange(1, eigenvalues.size + 1), np.maximum(eigenvalues, floor), ".", ms=2)
        if drop_indices is not None:
            ax.axvline(drop_indices[k] + 0.5, color="tab:red", ls="--", lw=1, label=f"drop after {drop_indices[k]}")
            ax.legend(loc="upper right", fontsize=7, frameon=False)
        ax.set_title(optimum_label(k))
        ax.set_xlabel("index")
    axes[0].set_ylabel(r"eigenvalue of $\mathcal{I}(\hat\theta)$")
    return fig
