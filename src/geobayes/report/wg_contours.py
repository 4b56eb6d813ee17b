"""Contours of the true posterior, WG and LA on a grid (Hartmann et al. 2026, Figs. 1 and 3).

This module draws; the grids and fits are computed upstream
(:mod:`geobayes.metrics.contour_grids`, rule ``contour_grids``).

* Fig. 1 (notes Sec. 2, E1): 2-D Bernoulli and Poisson regressions with random inputs and a
  Wishart-drawn prior covariance, for :math:`n \\in \\{5, 10, 15, 30\\}`; rows = likelihood
  family, columns = :math:`n` (posterior names ``n<n>-synthbern`` / ``n<n>-synthpois``).
* Fig. 3 (notes Sec. 2, E4): the Gaussian-manifold cases -- squiggle (:math:`a = 1.5`,
  :math:`\\Sigma_y = \\mathrm{diag}(2, 0.1)`), Rosenbrock, Neal's funnel (base point 0, the
  Hausdorff MAP) and the Gaussian linear model; one panel each.

Each panel draws, at the same levels (the density values whose highest-density regions of
the true posterior hold the mass fractions :data:`LEVEL_MASSES` on the grid), contour lines of

* the true posterior, :math:`\\exp(\\text{logdensity})` normalised numerically on the grid
  (the posteriors with data are known only up to a constant), a wide grey line (visible
  under WG where WG is exact);
* the closed-form wrapped Gaussian, :math:`\\exp` of ``WrappedGaussian.log_prob`` =
  :math:`\\mathcal N(\\overline{\\mathrm{Log}}(\\theta) \\mid 0, \\bar\\Sigma)\\,|\\det
  D\\overline{\\mathrm{Log}}(\\theta)|` (Eq. (9) with Eq. (15)), a normalised density, blue;
* the Laplace approximation :math:`\\mathcal N(\\hat\\theta, \\bar\\Sigma)` (``ela``), red dashed.

The plot window is the 0.5-99.5 % quantile box of the reference draws (NUTS, or exact
draws for the closed-form targets), padded, and always contains the base point. Grid points
where an approximation's log density is NaN are left blank and counted in the panel (never
silently dropped).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.metrics.contour_grids import ContourPanel
from geobayes.metrics.density_grid import hdr_levels

__all__ = [
    "LEVEL_MASSES",
    "CURVE_STYLES",
    "SHAPE_TITLES",
    "synthetic_layout",
    "synthetic_title",
    "shape_title",
    "contour_figure",
]

#: Contour levels: the true posterior's highest-density regions holding these fractions of its
#: mass on the grid (the same density values are used for WG and LA).
LEVEL_MASSES = (0.5, 0.8, 0.95, 0.99)

#: Line styles of the three densities.
#: The true posterior is drawn wide and light under WG, so that it stays visible where WG is exact.
CURVE_STYLES = {
    "true": {"colors": "0.55", "linewidths": 2.4, "linestyles": "solid"},
    "wg": {"colors": "C0", "linewidths": 0.9, "linestyles": "solid"},
    "la": {"colors": "C3", "linewidths": 0.9, "linestyles": "dashed"},
}
_LEGEND = {"true": "true posterior", "wg": "WG", "la": "LA"}

#: Panel titles of Fig. 3 per model part of the posterior name.
SHAPE_TITLES = {"squiggle": "Squiggle", "rosenbrock": "Rosenbrock", "funnel": "Neal's funnel",
                "lingauss": "Gaussian linear model"}
_FAMILY_TITLES = {"synthbern": "Bernoulli", "synthpois": "Poisson"}
_SYNTHETIC_NAME = re.compile(r"^n(\d+)-(synthbern|synthpois)$")


def synthetic_layout(names: Sequence[str]) -> list[list[str | None]]:
    """Fig. 1 grid of posterior names: rows = family (Bernoulli, Poisson), columns = sorted ``n``.

    Parameters
    ----------
    names : sequence of str
        Names ``n<n>-synthbern`` / ``n<n>-synthpois``.

    Returns
    -------
    list of list
        ``rows x columns`` of names, ``None`` where a (family, n) was not run.

    Raises
    ------
    ValueError
        If a name does not match ``n<n>-synthbern|synthpois``.
    """
    parsed = []
    for name in names:
        match = _SYNTHETIC_NAME.match(str(name))
        if match is None:
            raise ValueError(f"Fig. 1 posterior {name!r} is not named n<n>-synthbern or n<n>-synthpois")
        parsed.append((match.group(2), int(match.group(1)), str(name)))
    families = [f for f in _FAMILY_TITLES if any(p[0] == f for p in parsed)]
    sizes = sorted({p[1] for p in parsed})
    lookup = {(family, size): name for family, size, name in parsed}
    return [[lookup.get((family, size)) for size in sizes] for family in families]


def synthetic_title(name: str) -> str:
    """Fig. 1 panel title, e.g. ``"Bernoulli, n = 5"``."""
    match = _SYNTHETIC_NAME.match(name)
    if match is None:
        raise ValueError(f"Fig. 1 posterior {name!r} is not named n<n>-synthbern or n<n>-synthpois")
    return f"{_FAMILY_TITLES[match.group(2)]}, $n = {int(match.group(1))}$"


def shape_title(name: str) -> str:
    """Fig. 3 panel title from the model part of the name (``hartmann-squiggle`` -> ``"Squiggle"``)."""
    model = name.split("-")[-1]
    return SHAPE_TITLES.get(model, name)


def contour_figure(panels: Sequence[Sequence[ContourPanel | None]], *, masses: Sequence[float] = LEVEL_MASSES,
                   axis_labels: tuple[str, str] = (r"$\theta_1$", r"$\theta_2$"), panel_size: float = 2.3,
                   base_label: str = "MAP") -> Figure:
    """Grid of contour panels: true posterior, WG and LA at the same levels, one legend.

    Parameters
    ----------
    panels : sequence of sequence of ContourPanel or None
        Rows of panels (``None`` leaves a cell empty), e.g. Fig. 1 rows = family, columns =
        :math:`n`; Fig. 3 one row.
    masses : sequence of float, default :data:`LEVEL_MASSES`
        Levels: density values of the true posterior's highest-density regions holding
        these fractions of its mass on the panel's grid (:func:`geobayes.metrics.density_grid.hdr_levels`).
    axis_labels : tuple of str
        Horizontal and vertical axis labels.
    panel_size : float, default 2.3
        Inches per panel.
    base_label : str, default "MAP"
        Legend label of the base point (dot).

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not registered with pyplot); each panel has its own window.

    Raises
    ------
    ValueError
        If there is no panel, rows differ in length, a cell is not a ContourPanel or None,
        or the level masses are not in (0, 1).
    """
    rows = [list(row) for row in panels]
    if not rows or not any(p is not None for row in rows for p in row):
        raise ValueError("contour_figure needs at least one ContourPanel")
    ncols = max(len(row) for row in rows)
    if any(len(row) != ncols for row in rows):
        raise ValueError(f"every row needs {ncols} cells (None for an empty one); got {[len(r) for r in rows]}")
    for row in rows:
        for panel in row:
            if panel is not None and not isinstance(panel, ContourPanel):
                raise ValueError(f"panels must be ContourPanel or None; got {type(panel).__name__}")
    narrow = ncols < 3
    fig = Figure(figsize=(max(panel_size * ncols, 4.2), panel_size * len(rows) + (0.8 if narrow else 0.4)),
                 layout="constrained")
    axes = fig.subplots(len(rows), ncols, squeeze=False)
    for r, row in enumerate(rows):
        for c, panel in enumerate(row):
            ax = axes[r, c]
            if panel is None:
                ax.set_axis_off()
                ax.text(0.5, 0.5, "not run", transform=ax.transAxes, ha="center", va="center", color="0.5")
                continue
            levels = hdr_levels(panel.true, masses)
            for key in ("true", "wg", "la"):
                density = np.ma.masked_invalid(getattr(panel, key))
                ax.contour(panel.xx, panel.yy, density, levels=levels, zorder=2 if key == "true" else 3,
                           **CURVE_STYLES[key])
            ax.plot(panel.mode[0], panel.mode[1], "o", ms=3, color="black", zorder=4)
            if panel.note:
                ax.text(0.03, 0.03, panel.note, transform=ax.transAxes, ha="left", va="bottom", fontsize=5,
                        color="C3", wrap=True)
            ax.set_title(panel.title)
            ax.set_xlim(panel.xx[0, 0], panel.xx[0, -1])
            ax.set_ylim(panel.yy[0, 0], panel.yy[-1, 0])
            ax.set_xlabel(axis_labels[0])
            if c == 0:
                ax.set_ylabel(axis_labels[1])
    handles = [Line2D([], [], color=CURVE_STYLES[k]["colors"], linestyle=CURVE_STYLES[k]["linestyles"],
                      linewidth=CURVE_STYLES[k]["linewidths"]) for k in ("true", "wg", "la")]
    labels = [_LEGEND[k] for k in ("true", "wg", "la")]
    handles.append(Line2D([], [], marker="o", ms=3, color="black", linestyle="none"))
    labels.append(base_label)
    masses_text = ", ".join(f"{100 * m:g}" for m in sorted(set(float(m) for m in masses)))
    title = (f"contours at the density values enclosing {masses_text} % of the true posterior's mass"
             + ("\n" if narrow else " ") + "(same values for WG and LA)")
    fig.legend(handles, labels, loc="outside upper center", ncol=2 if narrow else 4, frameon=False, title=title,
               title_fontsize=7 if not narrow else 6)
    return fig
