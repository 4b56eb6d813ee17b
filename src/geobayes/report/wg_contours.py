"""Contours of the true posterior, WG and LA on a grid (Hartmann et al. 2026, Figs. 1 and 3).

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
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

import geobayes.report.figures  # noqa: F401  (selects the Agg backend, as every figure module does)
from geobayes.metrics.density_grid import density_grid, hdr_levels, normalised_density_grid

__all__ = [
    "LEVEL_MASSES",
    "GRID_POINTS",
    "CURVE_STYLES",
    "SHAPE_TITLES",
    "ContourPanel",
    "precision_for_map",
    "contour_window",
    "fitted_log_densities",
    "contour_panel",
    "synthetic_layout",
    "synthetic_title",
    "shape_title",
    "contour_figure",
]

#: Contour levels: the true posterior's highest-density regions holding these fractions of its
#: mass on the grid (the same density values are used for WG and LA).
LEVEL_MASSES = (0.5, 0.8, 0.95, 0.99)

#: Default grid points per axis (200 x 200 = 40,000 evaluations per density).
GRID_POINTS = 200

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


class ContourPanel(NamedTuple):
    """Densities of one panel on a common grid.

    Attributes
    ----------
    title : str
        Panel title.
    xx, yy : numpy.ndarray
        Grid coordinates, shape ``(n, n)`` (``numpy.meshgrid`` "xy" layout).
    true, wg, la : numpy.ndarray
        Densities on the grid, shape ``(n, n)``; ``true`` normalised numerically on the
        grid, ``wg`` and ``la`` as given by the approximations. NaN marks grid points where
        a log density was NaN (left blank).
    mode : numpy.ndarray
        The base point ``(2,)`` (MAP, or the Hausdorff MAP for the funnel).
    note : str
        Text shown in the panel (e.g. NaN counts); empty when there is nothing to say.
    """

    title: str
    xx: np.ndarray
    yy: np.ndarray
    true: np.ndarray
    wg: np.ndarray
    la: np.ndarray
    mode: np.ndarray
    note: str = ""


def precision_for_map(map_path: str) -> str:
    """Precision of the fits at a MAP file: ``"fisher"`` at a Hausdorff MAP, else ``"hessian"``.

    The squiggle and the funnel are anchored at their Hausdorff MAP (the funnel's base point
    0 of Hartmann et al. 2026, App. C.2), where the tangent covariance is the inverse Fisher
    metric; the other targets at the Euclidean MAP with the inverse negative Hessian (the
    paper's :math:`\\bar\\Sigma`).
    """
    return "fisher" if str(map_path).endswith("hausdorff.npz") else "hessian"


def contour_window(draws: np.ndarray, mode: np.ndarray, *, quantiles: tuple[float, float] = (0.5, 99.5),
                   pad: float = 0.15) -> tuple[tuple[float, float], tuple[float, float]]:
    """Plot window from the reference draws: per-axis quantile range, widened to hold the mode, padded.

    Parameters
    ----------
    draws : numpy.ndarray
        Reference draws, shape ``(m, 2)``.
    mode : numpy.ndarray
        Base point ``(2,)``; always inside the window.
    quantiles : tuple of float, default (0.5, 99.5)
        Percentiles of each coordinate bounding the window.
    pad : float, default 0.15
        Fraction of each range added on both sides.

    Returns
    -------
    xlim, ylim : tuple of float

    Raises
    ------
    ValueError
        If the draws are not a finite ``(m, 2)`` array with ``m >= 2``, the mode is not a
        finite ``(2,)`` array, or a coordinate has zero range.
    """
    draws = np.asarray(draws, dtype=np.float64)
    mode = np.asarray(mode, dtype=np.float64)
    if draws.ndim != 2 or draws.shape[1] != 2 or draws.shape[0] < 2:
        raise ValueError(f"reference draws must have shape (m, 2) with m >= 2 (a 2-D target); got {draws.shape}")
    if not np.all(np.isfinite(draws)):
        raise ValueError(f"reference draws hold {int((~np.isfinite(draws)).any(axis=1).sum())} non-finite rows")
    if mode.shape != (2,) or not np.all(np.isfinite(mode)):
        raise ValueError(f"mode must be a finite array of shape (2,); got {mode!r}")
    low, high = np.percentile(draws, quantiles, axis=0)
    low, high = np.minimum(low, mode), np.maximum(high, mode)
    span = high - low
    if not np.all(span > 0):
        raise ValueError(f"reference draws have zero range in coordinates {np.flatnonzero(span <= 0).tolist()}")
    low, high = low - pad * span, high + pad * span
    return (float(low[0]), float(high[0])), (float(low[1]), float(high[1]))


def fitted_log_densities(target, mode: np.ndarray, approximation: Mapping[str, Mapping], precision: str
                         ) -> dict[str, Callable[[np.ndarray], np.ndarray]]:
    """Fit WG and LA at ``mode`` and return the vmapped log densities of target, WG and LA.

    Parameters
    ----------
    target
        A 2-D target (``logdensity``, ``dim``; WG needs its contrast description).
    mode : numpy.ndarray
        Base point ``(2,)``.
    approximation : mapping
        ``{"wg": config, "ela": config}``: the ``approximation`` config slice of each
        method (rule parameter ``approximation``); ``precision`` is set here.
    precision : str
        ``"hessian"`` or ``"fisher"`` (:func:`precision_for_map`).

    Returns
    -------
    dict
        ``{"true", "wg", "la"}`` -> callables mapping numpy ``(m, 2)`` to numpy ``(m,)``.
    """
    import jax
    import jax.numpy as jnp

    from geobayes.methods import get_method

    jax.config.update("jax_enable_x64", True)
    if int(target.dim) != 2:
        raise ValueError(f"{target.name}: contour figures need a 2-D target; dim = {target.dim}")
    missing = [m for m in ("wg", "ela") if m not in approximation]
    if missing:
        raise ValueError(f"approximation settings lack {missing}; got {sorted(approximation)}")
    base = jnp.asarray(mode, dtype=jnp.float64)
    key = jax.random.PRNGKey(0)  # unused by the deterministic fits
    fitted = {label: get_method(method).fit(target, {**approximation[method], "precision": precision}, key,
                                            mode=base).approximation
              for label, method in (("wg", "wg"), ("la", "ela"))}

    def wrap(function):
        vmapped = jax.jit(jax.vmap(function))
        return lambda points: np.asarray(vmapped(jnp.asarray(points, dtype=jnp.float64)))

    return {"true": wrap(target.logdensity), "wg": wrap(fitted["wg"].log_prob), "la": wrap(fitted["la"].log_prob)}


def contour_panel(title: str, log_densities: Mapping[str, Callable[[np.ndarray], np.ndarray]], mode: np.ndarray,
                  reference_draws: np.ndarray, *, n: int = GRID_POINTS) -> ContourPanel:
    """Evaluate one panel: window from the reference draws, true (normalised), WG and LA densities.

    Parameters
    ----------
    title : str
        Panel title.
    log_densities : mapping
        ``{"true", "wg", "la"}`` -> log-density callables on ``(m, 2)`` points
        (:func:`fitted_log_densities`).
    mode : numpy.ndarray
        Base point ``(2,)``.
    reference_draws : numpy.ndarray
        Reference draws ``(m, 2)`` (window).
    n : int, default :data:`GRID_POINTS`
        Grid points per axis.

    Returns
    -------
    ContourPanel
    """
    missing = [k for k in ("true", "wg", "la") if k not in log_densities]
    if missing:
        raise ValueError(f"panel {title!r}: log densities lack {missing}")
    xlim, ylim = contour_window(reference_draws, mode)
    xx, yy, true = normalised_density_grid(log_densities["true"], xlim, ylim, n)
    notes, approx = [], {}
    for key, label in (("wg", "WG"), ("la", "LA")):
        _, _, approx[key], n_nan = density_grid(log_densities[key], xlim, ylim, n, name=label)
        if n_nan:
            notes.append(f"{label} log density NaN at {n_nan:,} of {n * n:,} grid points (blank)")
    return ContourPanel(title, xx, yy, true, approx["wg"], approx["la"], np.asarray(mode, dtype=np.float64),
                        "; ".join(notes))


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
