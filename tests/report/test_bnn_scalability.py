"""Tests of geobayes.report.bnn_scalability: Fig. 15 of Yu et al. (2024) from the timing records."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from geobayes.data.sine_regression import simulate_sine_regression
from geobayes.report.bnn_scalability import (
    SCALABILITY_COLUMNS,
    method_ratios,
    scalability_figure,
    scalability_frame,
    scalability_table_latex,
)
from geobayes.report.figures import save_figure


def record(method="rla_f", width=5, size=100, repetition=0, sequential=0.1, batched=0.01, failed=0, steps=10.0,
           n_sequential=3, n_batched=20):
    return {"method": method, "width": width, "size": size, "repetition": repetition,
            "parameters": width * width + 4 * width + 1, "per_sample_s": sequential,
            "batched_s_per_sample": batched, "n_sequential": n_sequential, "n_batched": n_batched,
            "failed_sequential": failed, "failed_batched": 0, "mean_steps_sequential": steps,
            "mean_steps_batched": steps + 1, "ratio": sequential / batched, "threads": 2}


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
    return records


def test_medians_failures_and_order():
    frame = scalability_frame(grid())
    assert list(frame.columns) == list(SCALABILITY_COLUMNS)
    assert len(frame) == 8
    assert list(frame["parameters"]) == [46] * 4 + [481] * 4
    assert list(frame["size"][:4]) == [100, 100, 1000, 1000] and list(frame["method"][:2]) == ["rla_b", "rla_f"]
    cell = frame.set_index(["width", "size", "method"]).loc[(20, 1000, "rla_f")]
    assert cell.sequential_s_median == pytest.approx(0.2 * 1.1)  # the middle of 0.2 * (1.0, 1.1, 1.2)
    assert cell.sequential_s_min == pytest.approx(0.2) and cell.sequential_s_max == pytest.approx(0.24)
    assert cell.batched_s_median == pytest.approx(0.055)
    assert cell.repetitions == 3 and cell.n_sequential == 3 and cell.n_batched == 20
    rla_b = frame.set_index(["width", "size", "method"]).loc[(20, 1000, "rla_b")]
    assert rla_b.failed_sequential == 1 and rla_b.mean_steps_sequential == 500.0 and rla_b.mean_steps_batched == 501.0


def test_ratios_give_the_crossover():
    frame = scalability_frame(grid())
    ratios = method_ratios(frame).set_index(["parameters", "size"])
    medians = frame.set_index(["parameters", "size", "method"])
    for protocol in ("sequential", "batched"):
        column = f"{protocol}_s_median"
        expected = medians.loc[(46, 100, "rla_b"), column] / medians.loc[(46, 100, "rla_f"), column]
        assert ratios.loc[(46, 100), f"ratio_{protocol}"] == pytest.approx(expected)
    # medians: RLA-B 0.022 * 1.1 vs RLA-F 0.005 * 1.1 at D = 46, N = 100; 0.044 * 1.1 vs 0.2 * 1.1
    # at D = 481, N = 1000
    assert ratios.loc[(46, 100), "ratio_sequential"] == pytest.approx(4.4)
    assert ratios.loc[(481, 1000), "ratio_sequential"] == pytest.approx(0.2)
    columns = ["ratio_sequential", "ratio_batched"]
    assert (ratios.loc[(481, 1000), columns] < 1).all() and (ratios.loc[(46, 100), columns] > 1).all()


def test_latex_marks_failures_and_names_the_protocols():
    tex = scalability_table_latex(scalability_frame(grid()))
    assert "\\toprule" in tex and "one at a time" in tex and "batched" in tex
    assert "46 & 100 & 0.0242 & 0.0055 & 4.4 & 0.011 & 0.0014 & 8 \\\\" in tex
    assert "${}^{\\dagger}$" in tex and "RLA-B, $D=481$, $N=1000$, one at a time: 1 of 9" in tex
    clean = scalability_table_latex(scalability_frame([r for r in grid() if not r["failed_sequential"]] +
                                                      [record("rla_b", 20, 1000, 2, sequential=0.1)]))
    assert "dagger" not in clean


def test_figure_with_the_example_data(tmp_path):
    data = simulate_sine_regression(500, 100, seed=1)
    example = {k: np.asarray(v) for k, v in data.arrays().items()}
    frame = scalability_frame(grid())
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
    # the CSV round trip the figure rule reads
    frame.to_csv(tmp_path / "t.csv", index=False)
    assert len(scalability_figure(pd.read_csv(tmp_path / "t.csv")).axes) == 2


@pytest.mark.parametrize(
    ("records", "message"),
    [([], "no scalability timing records"),
     ([{k: v for k, v in record().items() if k != "per_sample_s"}], "lacks \\['per_sample_s'\\]"),
     ([record(sequential=0.0)], "per_sample_s = 0.0 is not a positive number"),
     ([record(batched=float("nan"))], "batched_s_per_sample"),
     ([{**record(), "parameters": 31}], "h\\^2 \\+ 4h \\+ 1 = 46"),
     ([record(), record()], "duplicate"),
     ([record(), record(size=200, repetition=1)], "differ in their repetitions"),
     ([record(), record(size=200, n_batched=5)], "differ in their repetitions or sample counts")],
)
def test_bad_records_are_errors(records, message):
    with pytest.raises(ValueError, match=message):
        scalability_frame(records)


def test_missing_method_is_an_error():
    frame = scalability_frame([r for r in grid() if r["method"] == "rla_f"])
    with pytest.raises(ValueError, match="'rla_b' is missing"):
        method_ratios(frame)
    with pytest.raises(ValueError, match="differ"):
        scalability_frame(grid()[:-1])  # one repetition of one cell lost


def test_figure_refuses_non_positive_times():
    frame = scalability_frame(grid())
    frame.loc[0, "batched_s_min"] = 0.0
    with pytest.raises(ValueError, match="batched"):
        scalability_figure(frame)
