"""A 2-D target's log density on a regular grid, for the contour lines of the figures.

Every two-dimensional figure of Yu et al. (2024) (Figs. 1, 2, 4, 5, 7, 8, 9) draws the
target as a few contour lines of its *log* density on a fixed plot window; the contour
levels are log-density values (e.g. banana ``[-210, -205, -204]``), so they depend on the
log density's additive constant. Plain numpy in, plain numpy out; the callable may be a
``jax.vmap`` of a target's ``logdensity``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["check_window", "log_density_grid"]


def check_window(lim: Sequence[float], name: str) -> tuple[float, float]:
    """Validate a plot range ``(low, high)``: two finite numbers with ``low < high``.

    Parameters
    ----------
    lim : sequence of float
        The range.
    name : str
        Its name in error messages (``"xlim"``).

    Returns
    -------
    tuple of float
        ``(low, high)``.
    """
    values = np.asarray(lim, dtype=np.float64)
    if values.shape != (2,) or not np.all(np.isfinite(values)) or not values[0] < values[1]:
        raise ValueError(f"{name} must be two finite numbers (low, high) with low < high; got {lim!r}")
    return float(values[0]), float(values[1])


def log_density_grid(
    logdensity: Callable[[np.ndarray], np.ndarray],
    xlim: Sequence[float],
    ylim: Sequence[float],
    n: int = 200,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Evaluate a 2-D log density on an ``n`` x ``n`` grid over ``xlim`` x ``ylim``.

    Parameters
    ----------
    logdensity : callable
        Maps an ``(m, 2)`` array of points ``(theta_1, theta_2)`` to their ``(m,)`` log
        densities (numpy or JAX; converted to float64 numpy). It is called once, on all
        ``n**2`` points.
    xlim, ylim : sequence of float
        Ranges of ``theta_1`` (horizontal axis) and ``theta_2`` (vertical axis), as in the
        paper's figures.
    n : int, default 200
        Grid points per axis (at least 2).

    Returns
    -------
    xx, yy, zz : numpy.ndarray
        Arrays of shape ``(n, n)`` (``numpy.meshgrid`` "xy" layout: row ``i`` is
        ``theta_2 = yy[i, 0]``), ready for ``Axes.contour(xx, yy, zz, levels)``. ``zz`` may
        hold ``-inf`` where the density is zero.

    Raises
    ------
    ValueError
        If a range or ``n`` is invalid, if the callable returns the wrong shape, or if it
        returns NaN or ``+inf`` (a broken log density, not a zero density).
    """
    x_low, x_high = check_window(xlim, "xlim")
    y_low, y_high = check_window(ylim, "ylim")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer >= 2 (grid points per axis); got {n!r}")
    xx, yy = np.meshgrid(np.linspace(x_low, x_high, n), np.linspace(y_low, y_high, n))
    points = np.column_stack([xx.ravel(), yy.ravel()])
    values = np.asarray(logdensity(points), dtype=np.float64)
    if values.shape != (n * n,):
        raise ValueError(
            f"logdensity must map an (m, 2) array to shape (m,); for m = {n * n} points it returned shape "
            f"{values.shape}"
        )
    broken = np.isnan(values) | (values == np.inf)
    if broken.any():
        first = points[np.argmax(broken)]
        raise ValueError(
            f"logdensity returned NaN or +inf at {int(broken.sum())} of {n * n} grid points "
            f"(first at theta = {first.tolist()})"
        )
    return xx, yy, values.reshape(n, n)
