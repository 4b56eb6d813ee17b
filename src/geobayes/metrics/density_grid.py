"""A 2-D density on a regular grid: the numbers behind every contour figure.

Every two-dimensional figure of Yu et al. (2024) (Figs. 1, 2, 4, 5, 7, 8, 9) draws the target as
contour lines of its *log* density on a fixed window (levels are log-density values, so they
depend on the additive constant). Hartmann et al. (2026, Figs. 1 and 3) draw densities instead:
the target normalised numerically on the window, the approximations as given, with contour
levels at the highest-density regions of fixed mass (:func:`hdr_levels`). Plain numpy in and
out; a log density may be a ``jax.vmap`` of a target's ``logdensity``. Figure modules only draw
what these functions compute.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["check_window", "grid_points", "log_density_grid", "check_log_density_grid", "density_grid",
           "normalised_density_grid", "hdr_levels"]

LogDensity = Callable[[np.ndarray], np.ndarray]


def check_window(lim: Sequence[float], name: str) -> tuple[float, float]:
    """Validate a plot range ``(low, high)``: two finite numbers with ``low < high``.

    Raises
    ------
    ValueError
        Naming the range (``name``, e.g. ``"xlim"``) and the value given.
    """
    values = np.asarray(lim, dtype=np.float64)
    if values.shape != (2,) or not np.all(np.isfinite(values)) or not values[0] < values[1]:
        raise ValueError(f"{name} must be two finite numbers (low, high) with low < high; got {lim!r}")
    return float(values[0]), float(values[1])


def grid_points(xlim: Sequence[float], ylim: Sequence[float], n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An ``n`` x ``n`` grid over ``xlim`` x ``ylim``: ``xx``, ``yy`` (``numpy.meshgrid`` "xy"
    layout: row ``i`` is ``theta_2 = yy[i, 0]``) and the ``(n**2, 2)`` points in that order.

    Raises
    ------
    ValueError
        On a bad window or an ``n`` that is not an integer >= 2.
    """
    x_low, x_high = check_window(xlim, "xlim")
    y_low, y_high = check_window(ylim, "ylim")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer >= 2 (grid points per axis); got {n!r}")
    xx, yy = np.meshgrid(np.linspace(x_low, x_high, n), np.linspace(y_low, y_high, n))
    return xx, yy, np.column_stack([xx.ravel(), yy.ravel()])


def _evaluate(logdensity: LogDensity, points: np.ndarray, name: str, *, allow_nan: bool) -> np.ndarray:
    """One call of ``logdensity`` on every point, checked: shape ``(m,)``, no ``+inf`` (nor NaN
    unless allowed; ``-inf`` is a zero density)."""
    values = np.asarray(logdensity(points), dtype=np.float64)
    if values.shape != (points.shape[0],):
        raise ValueError(f"{name} log density must map an (m, 2) array to shape (m,); for m = {points.shape[0]} "
                         f"points it returned shape {values.shape}")
    broken = (values == np.inf) | (np.isnan(values) & (not allow_nan))
    if broken.any():
        raise ValueError(f"{name} log density is NaN or +inf at {int(broken.sum())} of {values.size} grid points "
                         f"(first at theta = {points[np.argmax(broken)].tolist()})")
    return values


def log_density_grid(logdensity: LogDensity, xlim: Sequence[float], ylim: Sequence[float], n: int = 200
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 2-D log density on an ``n`` x ``n`` grid, ready for ``Axes.contour(xx, yy, zz, levels)``.

    Parameters
    ----------
    logdensity : callable
        Maps ``(m, 2)`` points to their ``(m,)`` log densities; called once, on all ``n**2``.
    xlim, ylim : sequence of float
        Ranges of ``theta_1`` (horizontal) and ``theta_2`` (vertical).
    n : int, default 200
        Grid points per axis.

    Returns
    -------
    xx, yy, zz : numpy.ndarray
        ``(n, n)`` arrays; ``zz`` may hold ``-inf`` where the density is zero.

    Raises
    ------
    ValueError
        On a bad window or ``n``, a wrong output shape, or NaN / ``+inf`` values (a broken log
        density, not a zero density).
    """
    xx, yy, points = grid_points(xlim, ylim, n)
    return xx, yy, _evaluate(logdensity, points, "the", allow_nan=False).reshape(xx.shape)


def check_log_density_grid(grid: object, name: str = "density") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate a gridded log density ``(xx, yy, zz)`` as :func:`log_density_grid` returns it (e.g.
    read back from the figure-data file of an upstream rule).

    Raises
    ------
    ValueError
        Naming ``name``: not three arrays of one ``(n, n)`` shape with ``n >= 2``, a non-finite
        coordinate, or a NaN or ``+inf`` log density (``-inf`` is a zero density).
    """
    try:
        xx, yy, zz = (np.asarray(part, dtype=np.float64) for part in grid)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be three arrays (xx, yy, zz) of one (n, n) shape") from None
    if not (xx.shape == yy.shape == zz.shape) or xx.ndim != 2 or min(xx.shape) < 2:
        raise ValueError(f"{name} must be three arrays (xx, yy, zz) of one (n, n) shape with n >= 2; got shapes "
                         f"{xx.shape}, {yy.shape}, {zz.shape}")
    if not (np.isfinite(xx).all() and np.isfinite(yy).all()):
        raise ValueError(f"{name}: the grid coordinates xx, yy must be finite")
    broken = np.isnan(zz) | (zz == np.inf)
    if broken.any():
        raise ValueError(f"{name}: the log density is NaN or +inf at {int(broken.sum())} of {zz.size} grid points")
    return xx, yy, zz


def density_grid(logdensity: LogDensity, xlim: Sequence[float], ylim: Sequence[float], n: int = 200, *,
                 name: str = "approximation") -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """An approximation's density :math:`\\exp(\\log\\rho)` on the grid, as given (not renormalised).

    Returns
    -------
    xx, yy, density, n_nan
        The grid, the density (NaN where the log density was NaN, e.g. where the closed-form
        wrapped Gaussian's inversion failed) and the number of such points.
    """
    xx, yy, points = grid_points(xlim, ylim, n)
    values = _evaluate(logdensity, points, name, allow_nan=True)
    return xx, yy, np.exp(values).reshape(xx.shape), int(np.isnan(values).sum())


def normalised_density_grid(logdensity: LogDensity, xlim: Sequence[float], ylim: Sequence[float], n: int = 200
                            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The target's density on the grid, normalised numerically to sum to 1 over the cells.

    ``exp(logdensity - max)`` divided by its Riemann sum over the window: posteriors with data
    are known only up to a constant, and the window holds nearly all of the mass.

    Raises
    ------
    ValueError
        On a bad window or ``n``, a wrong shape, NaN or ``+inf`` values, or a log density that
        is ``-inf`` on the whole window.
    """
    xx, yy, points = grid_points(xlim, ylim, n)
    values = _evaluate(logdensity, points, "the target's", allow_nan=False)
    if not np.isfinite(values).any():
        raise ValueError("the target's log density is -inf on the whole window; nothing to normalise")
    density = np.exp(values - values.max()).reshape(xx.shape)
    cell = (xx[0, 1] - xx[0, 0]) * (yy[1, 0] - yy[0, 0])
    return xx, yy, density / (density.sum() * cell)


def hdr_levels(density: np.ndarray, masses: Sequence[float]) -> np.ndarray:
    """Density thresholds whose super-level sets hold the given fractions of the grid's mass.

    For a density on a regular grid (equal cells), the level for mass ``m`` is the largest ``t``
    such that the cells with ``density >= t`` hold at least ``m`` of the total: the contour at
    ``t`` encloses the highest-density region of mass ``m`` (on the grid).

    Returns
    -------
    numpy.ndarray
        Increasing, distinct levels (fewer than ``masses`` where two coincide).

    Raises
    ------
    ValueError
        If a mass is not in (0, 1) or the density has no positive mass.
    """
    masses = np.asarray(masses, dtype=np.float64)
    if masses.ndim != 1 or masses.size == 0 or np.any((masses <= 0) | (masses >= 1)):
        raise ValueError(f"level masses must lie in (0, 1); got {masses.tolist()}")
    values = np.asarray(density, dtype=np.float64).ravel()
    values = np.sort(values[np.isfinite(values)])[::-1]
    total = values.sum()
    if not (values.size and total > 0):
        raise ValueError("the true density has no positive mass on the grid")
    cumulative = np.cumsum(values) / total
    index = np.minimum(np.searchsorted(cumulative, masses), values.size - 1)
    return np.unique(values[index])
