"""Fig. 15 of Yu et al. (2024) from the tidy rows of the scalability timing records: the spec
entry ``yu2024_fig15`` (medians, RLA-B / RLA-F ratio) and the figure (geobayes.report.bnn_scalability)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from geobayes.data.sine_regression import simulate_sine_regression
from geobayes.report.bnn_scalability import SCALABILITY_COLUMNS, scalability_figure, scalability_lines
from geobayes.report.figures import save_figure
from geobayes.report.table_spec import read_table_specs
from geobayes.report.tables import render_latex, render_markdown, table_cells
from geobayes.report.tidy import tidy_frame

SPEC = read_table_specs(Path(__file__).resolve().parents[2] / "workflow/resources/tables.yaml")["yu2024_fig15"]
SCALE = {"samples": 500, "repetitions": 3, "reference_draws": 20000}


def record(method="rla_f", width=5, size=100, repetition=0, sequential=0.1, batched=0.01, failed=0, steps=10.0,
           n_sequential=3, n_batched=20):
    """A sidecar as workflow/scripts/time_bnn_scalability.py writes it."""
    return {"stage": "bnn_scalability_timing", "posterior": f"h{width}_n{size}-scalability", "method": method,
            "width": width, "size": size, "repetition": repetition,
            "parameters": width * width + 4 * width + 1, "per_sample_s": sequential,
            "batched_s_per_sample": batched, "n_sequential": n_sequential, "n_batched": n_batched,
            "failed_sequential": failed, "failed_batched": 0, "mean_steps_sequential": steps,
            "mean_steps_batched": steps + 1, "ratio": sequential / batched, "threads": 2,
            "n_samples": n_sequential + n_batched, "n_failed": failed}


def grid(repetitions=3):
    """Two widths x two sizes x both methods; RLA-F slows with N and D, RLA-B less so."""
    records = []
    for width in (5, 20):
        for size in (100, 1000):
            for k in range(repetitions):
                scale = 1.0 + 0.1 * k
                rla_f = 0.001 * width * size / 100 * scale
                records.append(record("rla_f", width, size, k, sequential=rla_f, batched=rla_f / 4))
                records.append(record("rla_b", width, size, k, sequential=0.02 * scale * (1 + size / 1000),
                                      batched=0.01 * scale, steps=500.0, failed=1 if (width, size, k) == (20, 1000, 2) else 0))
    return tidy_frame((r, "bnn_scalability") for r in records)


def test_medians_and_order():
    frame = scalability_lines(grid())
    assert list(frame.columns) == list(SCALABILITY_COLUMNS)
    assert len(frame) == 8
    assert list(frame["parameters"]) == [46] * 4 + [481] * 4
    assert list(frame["size"][:4]) == [100, 100, 1000, 1000] and list(frame["method"][:2]) == ["rla_b", "rla_f"]
    cell = frame.set_index(["width", "size", "method"]).loc[(20, 1000, "rla_f")]
    assert cell.sequential_s_median == pytest.approx(0.2 * 1.1)  # the middle of 0.2 * (1.0, 1.1, 1.2)
    assert cell.sequential_s_min == pytest.approx(0.2) and cell.sequential_s_max == pytest.approx(0.24)
    assert cell.batched_s_median == pytest.approx(0.055)
    assert cell.repetitions == 3


def test_table_medians_ratios_and_failures():
    cells = table_cells(SPEC, grid())
    indexed = cells.set_index(["width", "size", "method", "metric"])
    assert indexed.loc[("20", "1000", "rla_f", "seconds_per_sample"), "mean"] == pytest.approx(0.2 * 1.1)  # median
    assert indexed.loc[("20", "1000", "rla_f", "batched_seconds_per_sample"), "mean"] == pytest.approx(0.055)
    # medians: RLA-B 0.022 * 1.1 vs RLA-F 0.005 * 1.1 at D = 46, N = 100; 0.044 * 1.1 vs 0.2 * 1.1
    # at D = 481, N = 1000
    assert indexed.loc[("5", "100", "rla_b/rla_f", "seconds_per_sample"), "mean"] == pytest.approx(4.4)
    assert indexed.loc[("20", "1000", "rla_b/rla_f", "seconds_per_sample"), "mean"] == pytest.approx(0.2)
    ratios = cells[cells["method"] == "rla_b/rla_f"]
    assert len(ratios) == 8 and not ratios["best"].any()
    # rows in numeric order of h and N, the ratio after the two methods
    assert list(dict.fromkeys(cells["width"])) == ["5", "20"] and list(dict.fromkeys(cells["size"])) == ["100", "1000"]
    assert list(dict.fromkeys(cells["method"])) == ["rla_b", "rla_f", "rla_b/rla_f"]
    # bold: the faster method per cell and protocol
    best = cells[cells["best"].astype(bool) & (cells["metric"] == "seconds_per_sample")]
    assert dict(zip(zip(best["width"], best["size"]), best["method"])) == {
        ("5", "100"): "rla_f", ("5", "1000"): "rla_b", ("20", "100"): "rla_f", ("20", "1000"): "rla_b"}
    assert int(indexed.loc[("20", "1000", "rla_b", "seconds_per_sample"), "n_failed"]) == 1
    markdown = render_markdown(SPEC, cells, SCALE)
    # milliseconds for the methods, the unscaled ratio: 0.022 * 1.1 s = 24.20 ms, RLA-F 5.50 ms, 4.40
    row = next(line for line in markdown.splitlines() if line.startswith("| 5 100 "))
    assert "24.20" in row and "5.50" in row and "4.40" in row
    assert "† " in markdown and "20, 1000, RLA-B: 1 of 69 samples failed" in markdown
    latex = render_latex(SPEC, cells, SCALE)
    assert "B/F" in latex and "\\dagger" in latex


def test_figure_with_the_example_data(tmp_path):
    data = simulate_sine_regression(500, 100, seed=1)
    example = {k: np.asarray(v) for k, v in data.arrays().items()}
    frame = scalability_lines(grid())
    fig = scalability_figure(frame, example)
    assert len(fig.axes) == 3
    right = fig.axes[1]
    assert right.get_xscale() == "log" and len(right.get_lines()) == 4  # (D, method) lines
    x_train = right.get_lines()[0].get_xdata()
    assert list(x_train) == [100, 1000]
    scatter_x = fig.axes[0].collections[0].get_offsets()[:, 0]
    np.testing.assert_allclose(np.sort(scatter_x), np.sort(data.X[:, 0] * data.x_std + data.x_mean))
    pdf, png = save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert pdf.stat().st_size > 0 and png.stat().st_size > 0
    assert len(scalability_figure(frame).axes) == 2


def test_bad_rows_are_errors():
    tidy = grid()
    with pytest.raises(ValueError, match="lack posteriors"):
        scalability_lines(tidy.assign(posterior="d2-gaussian"))
    with pytest.raises(ValueError, match="parameters"):
        scalability_lines(tidy[tidy["metric"] != "parameters"])
    with pytest.raises(ValueError, match="no cells with both method 'rla_b' and 'rla_f'"):
        table_cells(SPEC, tidy[tidy["method"] == "rla_f"])


def test_figure_refuses_non_positive_times():
    frame = scalability_lines(grid())
    frame.loc[0, "batched_s_min"] = 0.0
    with pytest.raises(ValueError, match="batched"):
        scalability_figure(frame)
