"""Plot windows and contour levels of the 2-D target figures (pure data, no plotting).

Read by the rules that compute a figure's grids upstream (``target_density_grid``,
``banana_figure_data``) and by the figure rules that draw them, so that both use one window.
Values are those of the papers' plotting code (Yu et al. 2024, notes Secs. 2.2-2.4; Hartmann et
al. 2026, Fig. 3).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["PlotWindow", "SAMPLE_PANEL_WINDOWS", "BANANA_METRIC_WINDOW", "YU2023_FUNNEL_WINDOW", "ELLIPSE_GRID", "plot_window",
           "ellipse_centres"]


class PlotWindow(NamedTuple):
    """A window ``xlim`` x ``ylim`` of a 2-D figure and its contour levels (log-density values)."""

    xlim: tuple[float, float]
    ylim: tuple[float, float]
    levels: tuple[float, ...]


#: Sample-panel windows per experiment and setting (``None``: every setting of the experiment).
SAMPLE_PANEL_WINDOWS: dict[str, dict[str | None, PlotWindow]] = {
    "squiggle": {"easy": PlotWindow((-10.0, 10.0), (-2.0, 2.0), (-5.0, -3.0, -1.5)),
                 "difficult": PlotWindow((-10.0, 10.0), (-2.0, 2.0), (-3.0, -1.0, 0.0)),
                 # Hartmann et al. (2026), Fig. 3: S = diag(2, 0.1), log density at most -1.03.
                 "hartmann": PlotWindow((-5.0, 5.0), (-2.5, 2.5), (-6.0, -3.5, -2.0))},
    "funnel": {None: PlotWindow((-10.0, 10.0), (-10.0, 10.0), (-10.0, -5.0, -2.0))},
    "banana": {None: PlotWindow((-5.5, 2.5), (-3.0, 3.0), (-210.0, -205.0, -204.0))},
}

#: Yu et al. (2024), Fig. 1: the window of the metric ellipses and the Exp map (the paper's ``-200``
#: lies above the banana's maximum, so only two contour lines show).
BANANA_METRIC_WINDOW = PlotWindow((-2.7, 2.3), (-1.0, 4.0), (-210.0, -205.0, -200.0))

#: Yu et al. (2023), Figs. 1 and 2: the funnel window and contour levels of the paper's code (notes Sec. 3.3, 5).
YU2023_FUNNEL_WINDOW = PlotWindow((-5.0, 9.0), (-25.0, 25.0), (-10.0, -7.5, -5.0, -2.5))

#: Ellipse centres of Fig. 1 along theta_1 and theta_2.
ELLIPSE_GRID = (7, 7)


def plot_window(posterior: str) -> PlotWindow:
    """The sample-panel window of a posterior ``<setting>-<experiment>``.

    Raises
    ------
    ValueError
        If no window is set for the posterior's experiment and setting (naming both).
    """
    setting, _, experiment = posterior.partition("-")
    windows = SAMPLE_PANEL_WINDOWS.get(experiment, {})
    if setting not in windows and None not in windows:
        raise ValueError(f"{posterior}: no plot window and contour levels for {experiment!r} setting {setting!r} "
                         "in geobayes.report.plot_windows.SAMPLE_PANEL_WINDOWS")
    return windows.get(setting, windows.get(None))


def ellipse_centres(grid: tuple[int, int], xlim: tuple[float, float], ylim: tuple[float, float]) -> np.ndarray:
    """The ``grid[0]`` x ``grid[1]`` ellipse centres over the window, edges included, row-major
    with theta_1 fastest: shape ``(grid[0] * grid[1], 2)``.

    Raises
    ------
    ValueError
        If ``grid`` is not two integers >= 1.
    """
    if len(grid) != 2 or any(isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1 for n in grid):
        raise ValueError(f"grid must be two positive integers (centres along theta_1, theta_2); got {grid!r}")
    return np.array([[x, y] for y in np.linspace(*ylim, grid[1]) for x in np.linspace(*xlim, grid[0])])
