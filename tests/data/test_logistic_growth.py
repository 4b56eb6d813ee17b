"""Logistic-growth data for Fig. 4 of Hartmann et al. (2026), Sec. 5 (notes E5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.data import GROWTH_FILE, GrowthData, load_growth_csv, load_prepared, save_prepared


def _file(relative: str) -> Path:
    return mirror_file(relative)


def test_high_curvature_design():
    t, y = load_growth_csv(_file(GROWTH_FILE))
    assert t.shape == y.shape == (30,) and t.dtype == y.dtype == np.float64
    times, counts = np.unique(t, return_counts=True)
    np.testing.assert_allclose(times, np.array([1000.0, 2500.0, 4000.0]) / 365.25, rtol=1e-14)
    np.testing.assert_array_equal(counts, [10, 10, 10])
    assert np.all(np.diff(t) >= 0)
    # Early observations scatter around C0 = 0.2 with sigma ~ 2.3, so some are negative;
    # late ones sit near K ~ 80.
    assert np.sum(y < 0) > 0 and y[:10].max() < 10
    assert 70 < y[20:].mean() < 90
    np.testing.assert_allclose(y[0], 5.092541910492043, rtol=0, atol=0)


def test_coral_file_with_header_and_crlf():
    path = _file("logistic_growth/Logistic_data.csv")
    assert b"\r\n" in path.read_bytes()
    t, y = load_growth_csv(path)
    assert t.shape == (11,) and t[0] == 0.0 and t[-1] == 4028.0  # days
    np.testing.assert_allclose(y[[0, -1]], [2.352254642, 80.88291457])


def test_header_less_file_with_blank_lines(tmp_path):
    path = tmp_path / "plain.csv"
    path.write_text("\n1.5, 2\n\n3,-4e-1\n")
    t, y = load_growth_csv(path)
    np.testing.assert_array_equal(t, [1.5, 3.0])
    np.testing.assert_array_equal(y, [2.0, -0.4])


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("1,2,3\n4,5,6\n", r"three\.csv, line 1: expected 2 comma-separated columns.*got 3"),
        ("time,data\n1,2\n3,4,5\n", r"three\.csv, line 3: expected 2 .*got 3"),
        ("time,data\n1,2\n3,abc\n", r"three\.csv, line 3: expected two numbers; got '3,abc'"),
        ("1,2\n3,nan\n", r"three\.csv, line 2: non-finite value"),
        ("time,data\n", r"three\.csv: contains no data rows"),
        ("", r"three\.csv: contains no data rows"),
    ],
)
def test_bad_files_name_file_and_line(tmp_path, text, pattern):
    path = tmp_path / "three.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=pattern):
        load_growth_csv(path)


def test_save_load_roundtrip(tmp_path):
    t, y = load_growth_csv(_file(GROWTH_FILE))
    path = save_prepared(tmp_path / "growth.npz", "growth", GrowthData(t, y, GROWTH_FILE).arrays())
    with np.load(path, allow_pickle=False) as archive:
        assert sorted(archive.files) == ["X", "_format", "_metadata", "source", "y"]
        assert archive["X"].shape == (30, 1)
    loaded = load_prepared(path, "growth")
    np.testing.assert_array_equal(loaded["X"][:, 0], t)
    np.testing.assert_array_equal(loaded["y"], y)
    assert str(loaded["source"]) == GROWTH_FILE


def test_save_rejects_bad_input(tmp_path):
    with pytest.raises(ValueError, match=r"same length; got t \(3,\), y \(2,\)"):
        save_prepared(tmp_path / "g.npz", "growth", GrowthData(np.zeros(3), np.zeros(2), "x").arrays())
    with pytest.raises(ValueError, match="source must be a string"):
        save_prepared(tmp_path / "g.npz", "growth", GrowthData(np.zeros(2), np.zeros(2), None).arrays())
    assert not any(tmp_path.iterdir())
