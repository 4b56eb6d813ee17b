"""The numbers of Hartmann et al.'s (2026) contour figures (Figs. 1 and 3), computed upstream.

For each 2-D posterior: the plot window (the reference draws' 0.5-99.5 % box, padded, holding the
base point), WG and LA fitted at the MAP, and the three densities on one grid -- the true
posterior normalised numerically on the grid, the closed-form wrapped Gaussian
(:math:`\\mathcal N(\\overline{\\mathrm{Log}}(\\theta) \\mid 0, \\bar\\Sigma)\\,|\\det
D\\overline{\\mathrm{Log}}(\\theta)|`, Eqs. (9) and (15)) and the Laplace Gaussian, as given.
Grid points where an approximation's log density is NaN are counted in the panel's note, never
dropped. The rule ``contour_grids`` writes the panels of a figure with :func:`save_panels`; the
figure (:mod:`geobayes.report.wg_contours`) only draws what :func:`load_panels` reads.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple

import numpy as np

from geobayes.io import load_npz, save_npz
from geobayes.metrics.density_grid import density_grid, normalised_density_grid

__all__ = ["GRID_POINTS", "ContourPanel", "precision_for_map", "contour_window", "fitted_log_densities",
           "contour_panel", "save_panels", "load_panels"]

#: Default grid points per axis (200 x 200 = 40,000 evaluations per density).
GRID_POINTS = 200

_ARRAYS = ("xx", "yy", "true", "wg", "la", "mode")


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


def save_panels(path: str | Path, panels: Mapping[str, ContourPanel]) -> Path:
    """Write the panels of one figure, keyed by posterior name, into one npz (atomically).

    Raises
    ------
    ValueError
        If a posterior name holds the separator ``::``.
    """
    arrays, meta = {}, {}
    for name, panel in panels.items():
        if "::" in name:
            raise ValueError(f"posterior name {name!r} must not contain '::'")
        arrays.update({f"{name}::{field}": np.asarray(getattr(panel, field)) for field in _ARRAYS})
        meta[name] = {"title": panel.title, "note": panel.note}
    arrays["panels_json"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    return save_npz(path, **arrays)


def load_panels(path: str | Path) -> dict[str, ContourPanel]:
    """The panels :func:`save_panels` wrote, in the order they were written."""
    data = load_npz(path, required=("panels_json",), what="contour grids file")
    meta = json.loads(bytes(data["panels_json"]).decode())
    return {name: ContourPanel(info["title"], *(data[f"{name}::{field}"] for field in _ARRAYS[:-1]),
                               mode=data[f"{name}::mode"], note=info["note"])
            for name, info in meta.items()}
