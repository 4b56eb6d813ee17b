"""Tests of the BNN figures (Yu et al. (2024) Tables 3/5 are spec entries: tests/report/test_bnn_yu_tables.py)."""

import numpy as np
import pytest

from geobayes.metrics.pushforward_w2 import pairwise_pushforward_wasserstein2
from geobayes.report.bnn_figures import (
    YU_XLIM,
    YU_YLIM,
    FunctionPanel,
    build_function_sample_figure,
    build_predictive_band_figure,
    training_intervals,
)
from geobayes.report.bnn_pushforward_figures import build_pushforward_figure, build_wasserstein_across_maps_figure
from geobayes.report.figures import save_figure


# ---------------------------------------------------------------- figures


def snelson_like(seed=0):
    rng = np.random.default_rng(seed)
    x_train = np.sort(rng.uniform(0.0, 6.0, 200))
    y_train = np.sin(x_train) + 0.3 * rng.normal(size=200)
    return rng, x_train, y_train


def function_rows(n_samples=40):
    rng, x_train, y_train = snelson_like()
    x = np.linspace(*YU_XLIM, 120)
    gap = (x_train < 1.5) | (x_train > 3.0)
    rows = []
    for mask in (np.ones_like(gap), gap):
        rows.append([
            FunctionPanel(name, x, np.sin(x)[None] + 0.2 * rng.normal(size=(n_samples, 1)), x_train[mask],
                          y_train[mask], noise_std=0.3)
            for name in ("RLA-B", "RLA-BLog", "RLA-F", "NUTS")
        ])
    return rows


def test_training_intervals_find_the_gap():
    _, x_train, _ = snelson_like()
    assert len(training_intervals(x_train)) == 1
    gap = x_train[(x_train < 1.5) | (x_train > 3.0)]
    intervals = training_intervals(gap)
    assert len(intervals) == 2
    assert intervals[0][1] < 1.5 and intervals[1][0] > 3.0
    assert intervals[0][0] == gap.min() and intervals[1][1] == gap.max()
    assert training_intervals([0.0, 0.1, 0.2, 5.0], gap=1.0) == [(0.0, 0.2), (5.0, 5.0)]


def is_pdf(path):
    return path.read_bytes()[:4] == b"%PDF" and path.stat().st_size > 1000


def is_png(path):
    return path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000


def test_function_sample_figure_writes_pdf_and_png(tmp_path):
    rows = function_rows()
    written = save_figure(build_function_sample_figure(rows, row_labels=["complete", "gap"]),
                          tmp_path / "f" / "fig6.pdf", tmp_path / "f" / "fig6.png")
    assert [p.name for p in written] == ["fig6.pdf", "fig6.png"]
    assert is_pdf(written[0]) and is_png(written[1])
    assert not list((tmp_path / "f").glob(".*.tmp"))
    fig = build_function_sample_figure(rows, n_samples=10)
    axes = fig.axes
    assert len(axes) == 8
    assert axes[0].get_ylim() == YU_YLIM and axes[0].get_xlim() == YU_XLIM
    assert len(axes[0].get_xticks()) == 0
    assert len(axes[0].lines) == 11  # 10 samples + the mean
    assert len(axes[0].patches) == 1 and len(axes[4].patches) == 2  # shading: complete one, gap two intervals


def test_predictive_band_figure_writes_files(tmp_path):
    rows = function_rows()
    rows[1][3] = None  # a blank cell
    written = save_figure(build_predictive_band_figure(rows), tmp_path / "band.png")
    assert is_png(written[0])
    fig = build_predictive_band_figure(rows)
    assert len(fig.axes) == 8 and not fig.axes[7].axison


def test_figures_raise_on_mismatched_shapes(tmp_path):
    rows = function_rows()
    bad = rows[0][1]._replace(f_samples=np.zeros((5, 7)))
    with pytest.raises(ValueError, match=r"f_samples of panels\[0\]\[1\] \('RLA-BLog'\).*\(S, 120\).*\(5, 7\)"):
        save_figure(build_function_sample_figure([[rows[0][0], bad]]), tmp_path / "x.pdf")
    with pytest.raises(ValueError, match="y_train of"):
        build_function_sample_figure([rows[0][0]._replace(y_train=np.zeros(3))])
    with pytest.raises(ValueError, match="rows of equal"):
        build_function_sample_figure([rows[0], rows[1][:2]])
    with pytest.raises(ValueError, match="must end in one of"):
        save_figure(build_function_sample_figure(rows), tmp_path / "x.jpg")
    with pytest.raises(ValueError, match="noise_std of panel"):
        build_predictive_band_figure([rows[0][0]._replace(noise_std=np.ones(3))])
    assert not list(tmp_path.iterdir())


def hartmann_like(seed=1):
    rng, x_train, y_train = snelson_like(seed)
    keep = (x_train < 2.0) | (x_train > 3.0)
    x = np.linspace(-3.0, 10.0, 150)
    samples = {
        "WG": np.sin(x)[None] + 0.2 * rng.normal(size=(300, 150)),
        "NUTS": np.sin(x)[None] + 0.25 * rng.normal(size=(200, 150)),
        "LA": np.sin(x)[None] + 5.0 * rng.normal(size=(300, 150)),
    }
    return rng, x, samples, x_train[keep], y_train[keep]


def test_pushforward_figure_writes_files(tmp_path):
    _, x, samples, x_train, y_train = hartmann_like()
    written = save_figure(build_pushforward_figure(
        x, samples, x_train=x_train, y_train=y_train, map_f=np.sin(x),
        noise_std={"WG": np.full(300, 0.3), "NUTS": 0.3}, probe_x=[1.0, 2.5, 8.0], ylim=(-4, 4),
    ), tmp_path / "fig5.pdf", tmp_path / "fig5.png")
    assert is_pdf(written[0]) and is_png(written[1])
    fig = build_pushforward_figure(x, samples, probe_x=[2.5, 8.0])
    assert len(fig.axes) == 1 + 2 + 3


def test_pushforward_figure_raises_on_mismatched_shapes():
    _, x, samples, x_train, y_train = hartmann_like()
    with pytest.raises(ValueError, match=r"samples\['LA'\] must be a 2-D array of shape \(S, 150\)"):
        build_pushforward_figure(x, {**samples, "LA": samples["LA"][:, :10]})
    with pytest.raises(ValueError, match="map_f must be a 1-D array of shape"):
        build_pushforward_figure(x, samples, map_f=np.zeros(3))
    with pytest.raises(ValueError, match="noise_std names methods"):
        build_pushforward_figure(x, samples, noise_std={"VI": 0.3})
    with pytest.raises(ValueError, match=r"one value per sample \(S = 300"):
        build_pushforward_figure(x, samples, noise_std={"WG": np.ones(5)})
    with pytest.raises(ValueError, match="outside the grid"):
        build_pushforward_figure(x, samples, probe_x=[20.0])
    with pytest.raises(ValueError, match="both x_train and y_train"):
        build_pushforward_figure(x, samples, x_train=x_train)


def test_wasserstein_across_maps_figure(tmp_path):
    rng, x, _, x_train, _ = hartmann_like()
    per_method = {
        "LA": pairwise_pushforward_wasserstein2([np.sin(x)[None] + k + rng.normal(size=(50, 150)) for k in range(5)]),
        "WG": (np.full(150, 0.05), np.full(150, 0.001)),
    }
    written = save_figure(build_wasserstein_across_maps_figure(x, per_method, x_train=x_train), tmp_path / "fig7.png")
    assert is_png(written[0])
    with pytest.raises(ValueError, match=r"mean of per_method\['WG'\] must be a 1-D array of shape \(150,\)"):
        save_figure(build_wasserstein_across_maps_figure(x, {"WG": (np.zeros(3), np.zeros(3))}), tmp_path / "bad.png")
    with pytest.raises(ValueError, match="PairwiseW2"):
        save_figure(build_wasserstein_across_maps_figure(x, {"WG": np.zeros(150)}), tmp_path / "bad.png")
    assert not (tmp_path / "bad.png").exists()
