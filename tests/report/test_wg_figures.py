"""Tests of the figures of Hartmann et al. (2026): contours (Figs. 1, 3) and scatters (Figs. 2, 4).

The contour test fits the real WG and LA on the paper's squiggle (a = 1.5, Sigma_y = diag(2, 0.1),
base point 0 with the Fisher precision), where WG is exact: its density must match the true one
on the grid, and LA must not.
"""

import jax
import numpy as np
import pandas as pd
import pytest
from scipy.stats import multivariate_normal

from geobayes.report.figures import save_figure, set_style
from geobayes.metrics.density_grid import hdr_levels, normalised_density_grid
from geobayes.metrics.contour_grids import (
    ContourPanel,
    contour_panel,
    contour_window,
    fitted_log_densities,
    load_panels,
    precision_for_map,
    save_panels,
)
from geobayes.report.wg_contours import contour_figure, shape_title, synthetic_layout, synthetic_title
from geobayes.report.tidy import aggregate, tidy_frame
from geobayes.report.wg_scatter import approximation_title, scatter_axes, scatter_figure, successful_samples
from geobayes.targets import Squiggle

GAUSSIAN = multivariate_normal(mean=[1.0, -2.0], cov=[[1.0, 0.3], [0.3, 0.5]])


def squiggle_draws(n=2000, seed=0):
    """Exact squiggle draws: theta_1 ~ N(0, 2), theta_2 = -sin(1.5 theta_1) + N(0, 0.1)."""
    rng = np.random.default_rng(seed)
    first = rng.normal(0.0, np.sqrt(2.0), n)
    return np.column_stack([first, -np.sin(1.5 * first) + rng.normal(0.0, np.sqrt(0.1), n)])


def test_window_normalisation_and_levels():
    draws = GAUSSIAN.rvs(5000, random_state=1)
    xlim, ylim = contour_window(draws, np.array([1.0, -2.0]))
    low, high = np.percentile(draws, [0.5, 99.5], axis=0)
    assert xlim[0] < low[0] and xlim[1] > high[0] and ylim[0] < low[1] and ylim[1] > high[1]
    far = contour_window(draws, np.array([20.0, -2.0]))[0]
    assert far[1] > 20.0  # the mode is always inside
    xx, yy, density = normalised_density_grid(lambda p: GAUSSIAN.logpdf(p) + 123.0, xlim, ylim, n=150)
    cell = (xx[0, 1] - xx[0, 0]) * (yy[1, 0] - yy[0, 0])
    assert density.sum() * cell == pytest.approx(1.0)
    exact = GAUSSIAN.pdf(np.column_stack([xx.ravel(), yy.ravel()])).reshape(xx.shape)
    assert np.max(np.abs(density - exact)) < 0.02 * exact.max()  # the window holds nearly all the mass
    levels = hdr_levels(density, (0.5, 0.9))
    assert levels[0] < levels[1]
    inside = [density[density >= level].sum() / density.sum() for level in levels]
    assert inside[0] == pytest.approx(0.9, abs=0.01) and inside[1] == pytest.approx(0.5, abs=0.01)
    with pytest.raises(ValueError, match="shape"):
        contour_window(draws[:, :1], np.zeros(2))
    with pytest.raises(ValueError, match="in \\(0, 1\\)"):
        hdr_levels(density, (0.5, 1.0))
    with pytest.raises(ValueError, match="NaN"):
        normalised_density_grid(lambda p: np.full(p.shape[0], np.nan), xlim, ylim, n=10)


def test_names_layout_and_precision():
    layout = synthetic_layout(["n5-synthbern", "n10-synthbern", "n10-synthpois"])
    assert layout == [["n5-synthbern", "n10-synthbern"], [None, "n10-synthpois"]]
    assert synthetic_title("n10-synthpois") == "Poisson, $n = 10$"
    assert shape_title("neal-funnel") == "Neal's funnel" and shape_title("hartmann-lingauss") == "Gaussian linear model"
    with pytest.raises(ValueError, match="n<n>-synthbern"):
        synthetic_layout(["ripley-bernreg"])
    assert precision_for_map("results/map/neal-funnel/hausdorff.npz") == "fisher"
    assert precision_for_map("results/map/hartmann-rosenbrock/euclidean.npz") == "hessian"


def test_squiggle_contours_wg_exact_la_not(tmp_path):
    set_style()
    target = Squiggle(name="hartmann-squiggle", a=1.5, variances=(2.0, 0.1))
    densities = fitted_log_densities(target, np.zeros(2), {"wg": {}, "ela": {}}, "fisher")
    panel = contour_panel(shape_title(target.name), densities, np.zeros(2), squiggle_draws(), n=60)
    assert panel.true.shape == panel.wg.shape == panel.la.shape == (60, 60) and panel.note == ""
    scale = panel.true.max()
    assert np.max(np.abs(panel.wg - panel.true)) < 0.05 * scale  # WG is exact (up to grid normalisation)
    assert np.max(np.abs(panel.la - panel.true)) > 0.3 * scale  # LA is elliptical
    # computed upstream (rule contour_grids), drawn from the file: the round trip loses nothing
    (back,) = load_panels(save_panels(tmp_path / "grids.npz", {target.name: panel})).values()
    assert back.title == panel.title and back.note == panel.note
    for field in ("xx", "yy", "true", "wg", "la", "mode"):
        np.testing.assert_array_equal(getattr(back, field), getattr(panel, field))
    fig = contour_figure([[back, None]])
    assert [ax.get_title() for ax in fig.axes][:1] == ["Squiggle"]
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend[:3] == ["true posterior", "WG", "LA"]
    pdf, png = save_figure(fig, tmp_path / "wg_shapes.pdf", tmp_path / "wg_shapes.png")
    assert pdf.read_bytes()[:4] == b"%PDF" and png.read_bytes()[:4] == b"\x89PNG"


def test_nan_grid_points_are_counted():
    calls = {"true": lambda p: GAUSSIAN.logpdf(p), "la": lambda p: GAUSSIAN.logpdf(p),
             "wg": lambda p: np.where(p[:, 0] > 2.0, np.nan, GAUSSIAN.logpdf(p))}
    panel = contour_panel("nan", calls, np.array([1.0, -2.0]), GAUSSIAN.rvs(500, random_state=2), n=30)
    assert "WG log density NaN at" in panel.note and np.isnan(panel.wg).any()
    contour_figure([[panel]])
    with pytest.raises(ValueError, match="ContourPanel"):
        contour_figure([["not a panel"]])
    with pytest.raises(ValueError, match="at least one"):
        contour_figure([[None]])
    assert isinstance(panel, ContourPanel)


def summary_frame(posterior="sharp2022-growth", with_nan_run=True):
    """Tidy rows of evaluation sidecars: WG and LA, two runs each (+ a WG run without a W2)."""
    records = [{"stage": "evaluation", "posterior": posterior, "anchor": "euclidean", "method": method,
                "repetition": seed, "wasserstein2": base + 0.1 * seed, "n_samples": 50,
                "n_failed": failed if seed == 0 else 0}
               for method, base, failed in (("wg", 0.5, 3), ("ela", 0.6, 0)) for seed in range(2)]
    if with_nan_run:
        records.append({"stage": "evaluation", "posterior": posterior, "anchor": "euclidean", "method": "wg",
                        "repetition": 2, "wasserstein2": np.nan, "n_samples": 50, "n_failed": 50})
    return tidy_frame((record, "growth") for record in records)


def w2_stats(tidy):
    """Our W2 per method as the figure script computes it: tidy.aggregate of the wasserstein2 rows."""
    return aggregate(tidy[tidy["metric"] == "wasserstein2"], ["method"]).set_index("method")


def test_scatter_helpers():
    axes = scatter_axes("sharp2022-growth", 4)
    assert (axes.i, axes.j) == (0, 2) and "log r" in axes.xlabel and "log K" in axes.ylabel
    usps = scatter_axes("usps357-multigp", 12)
    assert (usps.i, usps.j) == (0, 6) and "class-1" in usps.xlabel and "class-2" in usps.ylabel
    assert "theta_{7}" in usps.ylabel
    with pytest.raises(ValueError, match="two latent"):
        scatter_axes("usps357-multigp", 7)
    with pytest.raises(ValueError, match="no scatter figure"):
        scatter_axes("ripley-bernreg", 3)
    theta = np.arange(12.0).reshape(4, 3)
    kept, failed = successful_samples({"theta": theta, "successful": np.array([1, 0, 1, 1])}, "s.npz")
    assert failed == 1 and kept.shape == (3, 3) and kept[1, 0] == 6.0
    with pytest.raises(ValueError, match="s.npz"):
        successful_samples({"theta": theta}, "s.npz")
    stats = w2_stats(summary_frame(with_nan_run=False)).loc["wg"]
    assert stats["mean"] == pytest.approx(0.55) and stats["std"] == pytest.approx(0.05)
    assert (stats["n_runs"], stats["n_failed"], stats["n_samples"]) == (2, 3, 100)
    title = approximation_title("WG", stats)
    assert "0.550 ± 0.050" in title and "3 of 100 failed" in title and "2 runs" in title
    # A run without a successful sample has no W2: the mean is n/a (shown, never skipped), and
    # its failures are counted.
    title = approximation_title("WG", w2_stats(summary_frame()).loc["wg"])
    assert "$W_2$ n/a" in title and "53 of 150 failed" in title and "3 runs" in title


def test_scatter_figure_shares_limits(tmp_path):
    set_style()
    rng = np.random.default_rng(3)
    mode = np.zeros(4)
    clouds = [rng.normal(size=(300, 4)) * s for s in (1.0, 1.2, 2.0)]
    stats = w2_stats(summary_frame())
    fig = scatter_figure(*clouds, mode, scatter_axes("sharp2022-growth", 4),
                         wg_stats=stats.loc["wg"], la_stats=stats.loc["ela"], wg_failed_shown=3)
    panels = fig.axes
    assert len(panels) == 3
    assert panels[0].get_xlim() == panels[1].get_xlim() == panels[2].get_xlim()
    assert panels[0].get_ylim() == panels[2].get_ylim()
    titles = [ax.get_title() for ax in panels]
    assert titles[0].startswith("WG") and "W_2" in titles[0] and titles[1].startswith("NUTS")
    assert titles[2].startswith("LA") and "0.650 ± 0.050" in titles[2]
    low = np.percentile(clouds[2][:, 0], 0.5)
    assert panels[0].get_xlim()[0] < low  # the widest cloud sets the shared window
    with pytest.raises(ValueError, match="share D"):
        scatter_figure(clouds[0][:, :3], clouds[1], clouds[2], mode, scatter_axes("sharp2022-growth", 4),
                       wg_stats=stats.loc["wg"], la_stats=stats.loc["ela"])
    pdf, png = save_figure(fig, tmp_path / "wg_growth.pdf", tmp_path / "wg_growth.png")
    assert pdf.stat().st_size > 1000 and png.stat().st_size > 1000
    assert jax.config.jax_enable_x64
