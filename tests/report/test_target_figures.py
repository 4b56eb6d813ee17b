"""Tests of the non-network target figures of Yu et al. (2024): Figs. 1, 2, 3, 4, 5, 7, 8, 9.

Real figures from real arrays: exact Gaussian draws, and the banana posterior of Sec. 5.2
written here in numpy (data as in the paper's code: ``np.random.seed(1)``, 100 draws of
N(1.25, 2^2)), whose log density peaks near -203.7 so that the paper's contour levels
``[-210, -205, -204]`` apply.
"""

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection
from matplotlib.patches import Ellipse
from scipy.stats import norm

from geobayes.report.banana_figures import map_locations_figure, metric_ellipses_figure
from geobayes.metrics.density_grid import check_log_density_grid, log_density_grid
from geobayes.report.figures import save_figure, set_style
from geobayes.report.gaussian_figures import bias_vs_dimension_figure, gaussian_marginals_figure
from geobayes.report.plot_windows import BANANA_METRIC_WINDOW, ELLIPSE_GRID, ellipse_centres, plot_window
from geobayes.report.sample_panels import Panel, sample_panels_figure, thin_rows

BANANA_Y = np.random.RandomState(1).normal(1.25, 2.0, 100)
BANANA_WINDOW = {"xlim": (-5.5, 2.5), "ylim": (-3.0, 3.0), "levels": (-210.0, -205.0, -204.0)}
SIGMA_Y = SIGMA_THETA = 2.0


def banana_logdensity(points):
    """Normalised banana log posterior at (m, 2) points (likelihood and prior constants kept)."""
    points = np.asarray(points)
    mean = points[:, 0] + points[:, 1] ** 2
    loglik = norm.logpdf(BANANA_Y[None, :], mean[:, None], SIGMA_Y).sum(axis=1)
    return loglik + norm.logpdf(points, 0.0, SIGMA_THETA).sum(axis=1)


def banana_fisher(theta):
    """Fisher metric of the banana: N J^T J / sigma_y^2 + I / sigma_theta^2, J = (1, 2 theta_2)."""
    jacobian = np.array([1.0, 2.0 * theta[1]])
    return BANANA_Y.size * np.outer(jacobian, jacobian) / SIGMA_Y**2 + np.eye(2) / SIGMA_THETA**2


def banana_like_draws(n, seed):
    """Draws that follow the banana's ridge theta_1 = mean(y) - theta_2^2 (real arrays, cheap)."""
    rng = np.random.default_rng(seed)
    theta_2 = rng.normal(0.0, 0.8, n)
    return np.column_stack([BANANA_Y.mean() - theta_2**2 + rng.normal(0.0, 0.2, n), theta_2])


def banana_grid(xlim=BANANA_WINDOW["xlim"], ylim=BANANA_WINDOW["ylim"]):
    """The banana's log density on a window, as rule target_density_grid computes it."""
    return log_density_grid(banana_logdensity, xlim, ylim)


def banana_metrics(grid=ELLIPSE_GRID, window=BANANA_METRIC_WINDOW):
    """The Fisher metric at the Fig. 1 ellipse centres, as rule banana_figure_data computes it."""
    return np.stack([banana_fisher(c) for c in ellipse_centres(grid, window.xlim, window.ylim)])


def assert_pdf_and_png(pdf, png):
    assert pdf.read_bytes()[:4] == b"%PDF" and pdf.stat().st_size > 1000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 1000


# --- density grid -------------------------------------------------------------------------


def test_log_density_grid_evaluates_on_an_xy_meshgrid():
    xx, yy, zz = log_density_grid(banana_logdensity, (-5.5, 2.5), (-3.0, 3.0), n=30)
    assert xx.shape == yy.shape == zz.shape == (30, 30)
    np.testing.assert_allclose(xx[0], np.linspace(-5.5, 2.5, 30))
    np.testing.assert_allclose(yy[:, 0], np.linspace(-3.0, 3.0, 30))
    np.testing.assert_allclose(zz[7, 11], banana_logdensity(np.array([[xx[7, 11], yy[7, 11]]]))[0])
    assert -204.0 < zz.max() < -203.0  # the paper's banana levels [-210, -205, -204] are inside


def test_log_density_grid_refuses_bad_input():
    with pytest.raises(ValueError, match="xlim"):
        log_density_grid(banana_logdensity, (2.5, -5.5), (-3.0, 3.0))
    with pytest.raises(ValueError, match="n must be"):
        log_density_grid(banana_logdensity, (-1, 1), (-1, 1), n=1)
    with pytest.raises(ValueError, match="shape"):
        log_density_grid(lambda p: np.zeros((len(p), 2)), (-1, 1), (-1, 1), n=5)
    with pytest.raises(ValueError, match="NaN"):
        log_density_grid(lambda p: np.where(p[:, 0] > 0.5, np.nan, 0.0), (-1, 1), (-1, 1), n=5)


def test_a_density_grid_read_back_is_checked():
    xx, yy, zz = log_density_grid(banana_logdensity, (-1, 1), (-1, 1), n=5)
    assert all(a is not None for a in check_log_density_grid((xx, yy, np.where(xx > 0, -np.inf, zz))))  # zero density
    with pytest.raises(ValueError, match=r"density must be three arrays \(xx, yy, zz\) of one \(n, n\) shape"):
        check_log_density_grid((xx, yy, zz[:, :3]))
    with pytest.raises(ValueError, match="three arrays"):
        check_log_density_grid((xx, yy))
    with pytest.raises(ValueError, match="NaN or \\+inf at 1 of 25"):
        check_log_density_grid((xx, yy, np.where((xx == 1) & (yy == 1), np.inf, zz)))


def test_plot_windows_name_the_missing_setting_and_place_the_centres_row_major():
    assert plot_window("easy-squiggle").levels == (-5.0, -3.0, -1.5)
    assert plot_window("yu2024-banana") == plot_window("other-banana")  # one window for every banana
    with pytest.raises(ValueError, match="no plot window and contour levels for 'squiggle' setting 'wavy'"):
        plot_window("wavy-squiggle")
    centres = ellipse_centres((3, 2), (0.0, 1.0), (-1.0, 1.0))
    np.testing.assert_array_equal(centres, [[0, -1], [0.5, -1], [1, -1], [0, 1], [0.5, 1], [1, 1]])
    with pytest.raises(ValueError, match="grid must be two positive integers"):
        ellipse_centres((7,), (0.0, 1.0), (0.0, 1.0))


# --- sample panels (Figs. 4, 5, 7, 8, 9) --------------------------------------------------


def test_thin_rows_is_deterministic_and_keeps_both_ends():
    samples = np.arange(20.0).reshape(10, 2)
    thinned = thin_rows(samples, 4)
    assert thinned.shape == (4, 2)
    np.testing.assert_array_equal(thinned[[0, -1]], samples[[0, -1]])
    np.testing.assert_array_equal(thinned, thin_rows(samples, 4))
    assert thin_rows(samples, 50) is samples
    with pytest.raises(ValueError, match="max_points"):
        thin_rows(samples, 0)


def test_banana_grid_figure_two_by_four(tmp_path):
    set_style()
    methods = ["ELA", "RLA-B", "RLA-BLog", "RLA-F"]
    panels = [
        Panel(method, banana_like_draws(3000, seed=k), note=f"T = {10.0 * k:.1f}",
              markers={"MAP": np.array([0.5, 0.93])} if k == 0 else {})
        for k, method in enumerate(methods * 2)
    ]
    fig = sample_panels_figure(panels, density=banana_grid(), ncols=4, max_points=500, **BANANA_WINDOW)
    assert len(fig.axes) == 8
    assert [ax.get_title() for ax in fig.axes] == methods * 2
    first = fig.axes[0]
    assert first.collections[-1].get_offsets().shape == (500, 2)  # the thinned scatter
    assert [t.get_text() for t in first.texts] == ["T = 0.0"]
    assert first.get_legend() is not None and fig.axes[1].get_legend() is None
    assert first.get_xlim() == BANANA_WINDOW["xlim"] and first.get_ylim() == BANANA_WINDOW["ylim"]
    pdf, png = save_figure(fig, tmp_path / "fig7.pdf", tmp_path / "fig7.png")
    assert_pdf_and_png(pdf, png)


def test_one_row_drops_unused_axes():
    gaussian = np.random.default_rng(0).normal(size=(400, 2))
    fig = sample_panels_figure(
        [Panel(f"panel {k}", gaussian) for k in range(5)],
        density=log_density_grid(lambda p: -0.5 * (p**2).sum(axis=1), (-3, 3), (-3, 3)),
        xlim=(-3, 3), ylim=(-3, 3), levels=(-2.0, -0.5), ncols=3,
    )
    assert len(fig.axes) == 5


def test_a_panel_whose_every_sample_failed_shows_the_contours_and_its_note(tmp_path):
    """RSVGD on Neal's funnel at quick scale: 1,000 of 1,000 particles non-finite. The figure
    still draws (the failure is data), that panel with no points and the count in its note."""
    fig = sample_panels_figure(
        [Panel("ELA", banana_like_draws(50, seed=0)), Panel("RSVGD", np.zeros((0, 2)), note="1000 of 1000 failed")],
        density=banana_grid(), **BANANA_WINDOW)
    drawn, empty = ([c for c in ax.collections if isinstance(c, PathCollection)] for ax in fig.axes)
    assert [len(c.get_offsets()) for c in drawn] == [50] and [len(c.get_offsets()) for c in empty] == [0]
    assert any(t.get_text() == "1000 of 1000 failed" for t in fig.axes[1].texts)
    save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert_pdf_and_png(tmp_path / "f.pdf", tmp_path / "f.png")


def test_sample_panels_refuse_bad_input():
    good = banana_like_draws(50, seed=0)
    common = {"density": banana_grid(), **BANANA_WINDOW}
    with pytest.raises(ValueError, match=r"samples of panel 'ELA' must have shape \(n, 2\)"):
        sample_panels_figure([Panel("ELA", np.zeros((50, 3)))], **common)
    with pytest.raises(ValueError, match="non-finite rows"):
        sample_panels_figure([Panel("RLA-B", np.vstack([good, [np.nan, 0.0]]))], **common)
    with pytest.raises(ValueError, match="marker 'MAP'"):
        sample_panels_figure([Panel("RLA-F", good, markers={"MAP": np.zeros(3)})], **common)
    with pytest.raises(ValueError, match="at least one Panel"):
        sample_panels_figure([], **common)
    with pytest.raises(ValueError, match="holds no points and its note does not say why"):
        sample_panels_figure([Panel("RSVGD", np.zeros((0, 2)))], **common)
    with pytest.raises(ValueError, match="ncols"):
        sample_panels_figure([Panel("ELA", good)], ncols=0, **common)
    with pytest.raises(ValueError, match="no contour level"):  # levels of an unnormalised density
        sample_panels_figure([Panel("ELA", good)], density=banana_grid(), xlim=(-5.5, 2.5),
                             ylim=(-3.0, 3.0), levels=(-10.0, -5.0, -2.0))


# --- Gaussian (Figs. 2, 3) ----------------------------------------------------------------


def test_gaussian_marginals_figure(tmp_path):
    draws = np.random.default_rng(1).normal(size=(5000, 2))
    fig = gaussian_marginals_figure({"ela": draws, "rla_b": 0.7 * draws}, max_points=800)
    assert len(fig.axes) == 6  # scatter, top and right histograms per method
    scatter_ax, top_ax, right_ax = fig.axes[:3]
    assert top_ax.get_title() == "ELA" and fig.axes[4].get_title() == "RLA-B"
    assert scatter_ax.collections[-1].get_offsets().shape == (800, 2)
    # histogram mass on the window = share of all samples inside it (not renormalised to 1)
    mass = sum(bar.get_height() * bar.get_width() for bar in top_ax.patches)
    assert mass == pytest.approx(np.mean(np.abs(draws[:, 0]) <= 3.0))
    x, density = top_ax.lines[0].get_data()
    np.testing.assert_allclose(density, norm.pdf(x))
    density_right, y = right_ax.lines[0].get_data()
    np.testing.assert_allclose(density_right, norm.pdf(y))
    pdf, png = save_figure(fig, tmp_path / "fig2.pdf", tmp_path / "fig2.png")
    assert_pdf_and_png(pdf, png)


def test_gaussian_marginals_figure_refuses_bad_input():
    with pytest.raises(ValueError, match="at least one method"):
        gaussian_marginals_figure({})
    with pytest.raises(ValueError, match=r"samples of 'rla_b' must have shape \(n, 2\)"):
        gaussian_marginals_figure({"rla_b": np.zeros((10, 3))})


def bias_frame():
    rng = np.random.default_rng(2)
    rows = [
        {"dim": dim, "method": method, "seed": seed, "w1_first": (0.05 * dim if method == "rla_b" else 0.01)
         + 0.01 * rng.random()}
        for method in ("rla_b", "ela") for dim in range(1, 11) for seed in range(5)
    ]
    return pd.DataFrame(rows)


def test_bias_vs_dimension_lines_are_means_and_bands_two_population_stds(tmp_path):
    frame = bias_frame()
    fig = bias_vs_dimension_figure(frame)
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["ELA", "RLA-B"]  # the paper's order
    for line, band, method in zip(ax.lines, ax.collections, ["ela", "rla_b"], strict=True):
        dims = np.arange(1, 11)
        rows = frame[frame["method"] == method]
        runs = np.array([[rows.loc[(rows["dim"] == d) & (rows["seed"] == s), "w1_first"].item() for s in range(5)]
                         for d in dims])
        mean = runs.sum(axis=1) / 5
        std = np.sqrt(((runs - mean[:, None]) ** 2).sum(axis=1) / 5)  # population std (ddof = 0)
        np.testing.assert_array_equal(line.get_xdata(), dims)
        np.testing.assert_allclose(line.get_ydata(), mean)
        vertices = band.get_paths()[0].vertices
        for d, m, s in zip(dims, mean, std, strict=True):
            at_d = vertices[np.isclose(vertices[:, 0], d), 1]
            assert at_d.min() == pytest.approx(m - 2 * s) and at_d.max() == pytest.approx(m + 2 * s)
    pdf, png = save_figure(fig, tmp_path / "fig3.pdf", tmp_path / "fig3.png")
    assert_pdf_and_png(pdf, png)


def test_bias_vs_dimension_refuses_bad_frames():
    frame = bias_frame()
    with pytest.raises(ValueError, match="empty"):
        bias_vs_dimension_figure(frame.iloc[:0])
    with pytest.raises(ValueError, match=r"lacks columns \['w1_first'\]"):
        bias_vs_dimension_figure(frame.drop(columns="w1_first"))
    with pytest.raises(ValueError, match="repeats 1 .*dim, method, seed"):
        bias_vs_dimension_figure(pd.concat([frame, frame.iloc[:1]]))
    with pytest.raises(ValueError, match="non-finite"):
        bias_vs_dimension_figure(frame.assign(w1_first=np.where(frame.index == 3, np.nan, frame["w1_first"])))


# --- banana (Figs. 1, 5) ------------------------------------------------------------------


def test_metric_ellipses_figure(tmp_path):
    mode = np.array([1.3, 0.0])
    velocities = np.random.default_rng(3).multivariate_normal(np.zeros(2), np.linalg.inv(banana_fisher(mode)), 300)
    base = mode + velocities
    mapped = np.column_stack([base[:, 0] - base[:, 1] ** 2 / 4, base[:, 1] / 2])  # a smooth stand-in map
    fig = metric_ellipses_figure(banana_metrics(), banana_grid(BANANA_METRIC_WINDOW.xlim, BANANA_METRIC_WINDOW.ylim),
                                 mode, base, mapped)
    ax_metric, ax_map = fig.axes
    ellipses = [p for p in ax_metric.patches if isinstance(p, Ellipse)]
    assert len(ellipses) == 49
    # the first ellipse sits at the window's lower-left corner; diameters 0.5 sqrt(eig(G^{-1}))
    corner = np.array([-2.7, -1.0])
    eigenvalues = np.linalg.eigvalsh(np.linalg.inv(banana_fisher(corner)))
    np.testing.assert_allclose(ellipses[0].center, corner)
    np.testing.assert_allclose([ellipses[0].height, ellipses[0].width], 0.5 * np.sqrt(eigenvalues))
    assert ax_metric.get_xticks().size == 0 and ax_map.get_yticks().size == 0
    arrow = next(t for t in ax_map.texts if t.get_text() == "")
    chosen = int(np.argmin(np.linalg.norm(base - [1.2, 3.5], axis=1)))
    np.testing.assert_allclose(arrow.xy, mapped[chosen])
    pdf, png = save_figure(fig, tmp_path / "fig1.pdf", tmp_path / "fig1.png")
    assert_pdf_and_png(pdf, png)


def test_metric_ellipses_figure_refuses_bad_input():
    mode, points = np.array([1.3, 0.0]), banana_like_draws(20, seed=4)
    metrics, grid = banana_metrics(), banana_grid(BANANA_METRIC_WINDOW.xlim, BANANA_METRIC_WINDOW.ylim)
    with pytest.raises(ValueError, match="pair up row by row"):
        metric_ellipses_figure(metrics, grid, mode, points, points[:10])
    with pytest.raises(ValueError, match="not positive definite"):
        metric_ellipses_figure(-metrics, grid, mode, points, points)
    with pytest.raises(ValueError, match=r"one \(2, 2\) matrix per ellipse centre of the \(7, 7\) grid: expected "
                                         r"shape \(49, 2, 2\), got \(49, 3, 3\)"):
        metric_ellipses_figure(np.tile(np.eye(3), (49, 1, 1)), grid, mode, points, points)
    with pytest.raises(ValueError, match="grid must be two positive integers"):
        metric_ellipses_figure(metrics, grid, mode, points, points, grid=(7,))
    with pytest.raises(ValueError, match="xx, yy, zz"):
        metric_ellipses_figure(metrics, grid[:2], mode, points, points)


def test_map_locations_figure(tmp_path):
    euclidean_maps = np.array([[0.5, 0.93], [0.5, -0.93]])
    hausdorff_map = np.array([1.3, 0.0])
    fig = map_locations_figure(banana_grid(), euclidean_maps, hausdorff_map, banana_like_draws(3000, seed=5),
                               banana_like_draws(3000, seed=6) + [0.0, 0.4], max_points=1000, **BANANA_WINDOW)
    ax_maps, ax_hausdorff, ax_euclidean = fig.axes
    euclidean_line, hausdorff_line = ax_maps.lines
    np.testing.assert_allclose(np.column_stack(euclidean_line.get_data()), euclidean_maps)
    np.testing.assert_allclose(np.column_stack(hausdorff_line.get_data()), hausdorff_map[None, :])
    assert ax_hausdorff.get_title() == "RLA-F, Hausdorff MAP" and ax_euclidean.get_title() == "RLA-F, Euclidean MAP"
    assert ax_euclidean.collections[-1].get_offsets().shape == (1000, 2)
    pdf, png = save_figure(fig, tmp_path / "fig5.pdf", tmp_path / "fig5.png")
    assert_pdf_and_png(pdf, png)


def test_map_locations_figure_refuses_bad_input():
    draws = banana_like_draws(100, seed=7)
    maps = np.array([[0.5, 0.93], [0.5, -0.93]])
    with pytest.raises(ValueError, match="hausdorff_map must be one point"):
        map_locations_figure(banana_grid(), maps, maps, draws, draws, **BANANA_WINDOW)
    with pytest.raises(ValueError, match=r"euclidean_samples must have shape \(n, 2\)"):
        map_locations_figure(banana_grid(), maps, maps[0], draws, draws[:, :1], **BANANA_WINDOW)
