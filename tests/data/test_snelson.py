"""Snelson splits of Yu et al. (2024), Bergamin et al. (2023) and Hartmann et al. (2026)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.model_selection import train_test_split

from data_mirror import mirror_file, mirror_root

from geobayes.data.snelson import (
    HARTMANN_POINTS,
    SNELSON_SPLITS,
    SPLIT_FILES,
    YU_GRID,
    bergamin2023_split,
    hartmann2026_split,
    prediction_grid,
    prepare_snelson,
    sine_regression,
    yu2024_split,
)
from geobayes.data.registry import get_file

KEYS = {"X", "y", "X_test", "y_test", "x_mean", "x_std", "y_mean", "y_std"}


@pytest.fixture(scope="module")
def mirror() -> Path:
    mirror_file("snelson/snelson.npz")
    return mirror_root()


@pytest.fixture(scope="module")
def original(mirror):
    """The 200 points of snelson.npz, float64."""
    with np.load(mirror / "snelson" / "snelson.npz") as archive:
        return archive["x_train"], archive["y_train"]


def _check_format(split, n_train, n_test):
    assert KEYS <= set(split)
    assert split["X"].shape == (n_train, 1) and split["y"].shape == (n_train,)
    assert split["X_test"].shape == (n_test, 1) and split["y_test"].shape == (n_test,)
    for key in KEYS:
        assert split[key].dtype == np.float64, key
    for key in ("x_mean", "x_std", "y_mean", "y_std"):
        assert np.ndim(split[key]) == 0, key


def test_every_split_file_is_registered():
    for names in SPLIT_FILES.values():
        for name in names:
            assert get_file(name).dataset == "snelson"
    assert set(SNELSON_SPLITS) == set(SPLIT_FILES)


@pytest.mark.parametrize(
    ("split", "n_train", "n_test"),
    [("complete_raw", 150, 50), ("gap_raw", 148, 52), ("complete_standardised", 150, 50),
     ("gap_standardised", 148, 52), ("random", 150, 50), ("between", 148, 52),
     ("drop23", HARTMANN_POINTS, 0)],
)
def test_split_format_and_counts(mirror, split, n_train, n_test):
    data = prepare_snelson(split, mirror)
    _check_format(data, n_train, n_test)
    if "standardised" not in split:
        assert (data["x_mean"], data["x_std"], data["y_mean"], data["y_std"]) == (0.0, 1.0, 0.0, 1.0)


def test_files_as_mapping_equal_files_as_root(mirror):
    mapping = {name: mirror / name for name in SPLIT_FILES["gap_standardised"]}
    by_map, by_root = prepare_snelson("gap_standardised", mapping), prepare_snelson("gap_standardised", mirror)
    for key in KEYS:
        np.testing.assert_array_equal(by_map[key], by_root[key])


def test_yu_values_are_the_published_float32_values(mirror):
    data = yu2024_split(mirror)
    with np.load(mirror / "snelson/rlaf_splits/snelson_data.npz") as archive:
        np.testing.assert_array_equal(data["X"], np.float64(archive["train_inputs"]))
        np.testing.assert_array_equal(data["y_test"], np.float64(archive["test_outputs"][:, 0]))
    assert np.all(np.float32(data["X"]) == data["X"])  # exact float32 -> float64


def test_yu_complete_split_is_the_seed_1_choice(mirror, original):
    """The notes' procedure reproduces the published split exactly, in order: test = the
    seed-1 ``np.random.choice`` indices in drawn order, train = the rest in index order."""
    x, y = original
    np.random.seed(1)
    test_index = np.random.choice(200, 50, replace=False)
    train_index = np.setdiff1d(np.arange(200), test_index)
    data = yu2024_split(mirror)
    # as sets of float32-rounded values ...
    assert set(np.float32(x[test_index]).tolist()) == set(np.float32(data["X_test"][:, 0]).tolist())
    # ... and in fact element by element
    np.testing.assert_array_equal(data["X_test"][:, 0], np.float64(np.float32(x[test_index])))
    np.testing.assert_array_equal(data["y_test"], np.float64(np.float32(y[test_index])))
    np.testing.assert_array_equal(data["X"][:, 0], np.float64(np.float32(x[train_index])))
    np.testing.assert_array_equal(data["y"], np.float64(np.float32(y[train_index])))


def test_yu_gap_split_holds_out_exactly_1p5_to_3(mirror, original):
    x, y = original
    inside = (1.5 <= x) & (x <= 3.0)
    assert inside.sum() == 52
    data = yu2024_split(mirror, gap=True)
    np.testing.assert_array_equal(data["X_test"][:, 0], np.float64(np.float32(x[inside])))
    np.testing.assert_array_equal(data["y_test"], np.float64(np.float32(y[inside])))
    np.testing.assert_array_equal(data["X"][:, 0], np.float64(np.float32(x[~inside])))
    # the held-out range the notes quote, [1.514, 2.990]
    assert round(data["X_test"].min(), 3) == 1.514 and round(data["X_test"].max(), 3) == 2.990
    assert not np.any((data["X"] >= 1.5) & (data["X"] <= 3.0))


@pytest.mark.parametrize("gap", [False, True])
def test_yu_standardised_is_raw_standardised_with_train_statistics(mirror, original, gap):
    raw = yu2024_split(mirror, gap=gap)
    std = yu2024_split(mirror, gap=gap, standardised=True)
    # statistics: float64 mean and population std of the float64 training data, which the
    # float32 raw split reproduces to float32 rounding
    np.testing.assert_allclose(std["x_mean"], raw["X"].mean(), rtol=1e-7)
    np.testing.assert_allclose(std["x_std"], raw["X"].std(), rtol=1e-7)
    np.testing.assert_allclose(std["y_mean"], raw["y"].mean(), rtol=1e-6)
    np.testing.assert_allclose(std["y_std"], raw["y"].std(), rtol=1e-7)
    eps = np.finfo(np.float32).eps
    for key, stats in (("X", "x"), ("X_test", "x"), ("y", "y")):
        expected = (raw[key] - std[f"{stats}_mean"]) / std[f"{stats}_std"]
        np.testing.assert_allclose(std[key], expected, rtol=0, atol=4 * eps * (1 + np.abs(expected)).max())
    np.testing.assert_array_equal(std["y_test"], raw["y_test"])  # left on the original scale


def test_yu_standardised_statistics_are_exact_float64(mirror, original):
    x, y = original
    np.random.seed(1)
    train = np.setdiff1d(np.arange(200), np.random.choice(200, 50, replace=False))
    std = yu2024_split(mirror, standardised=True)
    assert std["x_mean"] == x[train].mean() and std["x_std"] == x[train].std()
    assert std["y_mean"] == y[train].mean() and std["y_std"] == y[train].std()


def test_bergamin_random_is_their_train_test_split(mirror):
    x = np.loadtxt(mirror / "snelson/train_inputs")
    y = np.loadtxt(mirror / "snelson/train_outputs")
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.25, random_state=230)
    data = bergamin2023_split(mirror)
    np.testing.assert_array_equal(data["X"][:, 0], x_train)
    np.testing.assert_array_equal(data["y"], y_train)
    np.testing.assert_array_equal(data["X_test"][:, 0], x_test)
    np.testing.assert_array_equal(data["y_test"], y_test)
    np.testing.assert_array_equal(x[data["train_index"]], x_train)
    assert sorted(np.concatenate([data["train_index"], data["test_index"]])) == list(range(200))


def test_bergamin_between_matches_yu_gap_points(mirror, original):
    x, y = original
    data = bergamin2023_split(mirror, between=True)
    np.testing.assert_array_equal(data["X"][:, 0], x[data["train_index"]])
    np.testing.assert_array_equal(data["y_test"], y[data["test_index"]])
    np.testing.assert_array_equal(data["test_index"], np.flatnonzero((1.5 <= x) & (x <= 3.0)))
    gap = yu2024_split(mirror, gap=True)  # same points, float32-rounded there
    np.testing.assert_array_equal(np.float32(data["X_test"]), np.float32(gap["X_test"]))


def test_hartmann_drop23(mirror, original):
    x, y = original
    data = hartmann2026_split(mirror)
    assert data["X"].shape == (163, 1) and data["X_test"].shape == (0, 1)
    assert not np.any((data["X"] >= 2.0) & (data["X"] <= 3.0))
    np.testing.assert_array_equal(data["X"][:, 0], x[data["train_index"]])
    np.testing.assert_array_equal(data["y"], y[data["train_index"]])
    assert data["test_index"].shape == (0,)
    assert np.sum((x >= 2.0) & (x <= 3.0)) == 37


def test_hartmann_wrong_count_is_reported(tmp_path, original):
    x, y = original
    target = tmp_path / "snelson" / "snelson.npz"
    target.parent.mkdir()
    np.savez(target, x_train=np.where(x > 5.5, 2.5, x), y_train=y)
    with pytest.raises(ValueError, match=r"snelson/snelson.npz: .*should leave 163 points.*found"):
        hartmann2026_split(tmp_path)


def test_missing_array_and_wrong_shape_name_the_file(tmp_path):
    path = tmp_path / "snelson" / "rlaf_splits" / "snelson_data.npz"
    path.parent.mkdir(parents=True)
    np.savez(path, train_inputs=np.zeros((150, 1), np.float32))
    with pytest.raises(ValueError, match=r"snelson_data.npz: not a RLAF Snelson split file; missing"):
        prepare_snelson("complete_raw", tmp_path)
    np.savez(path, **{k: np.zeros((149, 1), np.float32) for k in
                      ("train_inputs", "train_outputs", "test_inputs", "test_outputs")})
    with pytest.raises(ValueError, match=r"snelson_data.npz: expected train_inputs of shape \(150, 1\)"):
        prepare_snelson("complete_raw", tmp_path)


def test_missing_file_and_text_count_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="snelson/train_inputs: not found at"):
        prepare_snelson("random", tmp_path)
    with pytest.raises(ValueError, match="snelson/snelson.npz: no local path given"):
        prepare_snelson("drop23", {"snelson/train_inputs": tmp_path / "x"})
    (tmp_path / "snelson").mkdir()
    (tmp_path / "snelson" / "train_inputs").write_text("1.0\n2.0\n")
    (tmp_path / "snelson" / "train_outputs").write_text("1.0\n2.0\n")
    with pytest.raises(ValueError, match="snelson/train_inputs: expected 200 inputs .*found 2"):
        prepare_snelson("between", tmp_path)


def test_unknown_split_lists_the_known_ones(tmp_path):
    with pytest.raises(ValueError, match="unknown Snelson split 'gap'; known: complete_raw, .*drop23"):
        prepare_snelson("gap", tmp_path)


def test_sine_regression_standardisation_and_determinism():
    data = sine_regression(500, 100, seed=3)
    _check_format(data, 500, 100)
    # standardised with the train mean and the unbiased std
    np.testing.assert_allclose(data["X"].mean(), 0.0, atol=1e-12)
    np.testing.assert_allclose(data["X"].std(ddof=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(data["y"].std(ddof=1), 1.0, rtol=1e-12)
    # raw inputs in (0, 8), raw y = sin x + noise of std 0.3
    x = np.concatenate([data["X"][:, 0], data["X_test"][:, 0]]) * data["x_std"] + data["x_mean"]
    assert 0.0 < x.min() and x.max() < 8.0
    resid = np.concatenate([data["y"] * data["y_std"] + data["y_mean"], data["y_test"]]) - np.sin(x)
    assert abs(resid.std() - 0.3) < 0.03  # 600 draws: std error of the sd ~ 0.009
    np.testing.assert_array_equal(data["test_index"], np.arange(500, 600))
    again = sine_regression(500, 100, seed=3)
    for key in KEYS:
        np.testing.assert_array_equal(again[key], data[key])
    assert not np.array_equal(sine_regression(500, 100, seed=4)["X"], data["X"])


def test_sine_regression_rejects_bad_counts():
    with pytest.raises(ValueError, match="n_train must be an integer >= 2"):
        sine_regression(1, 10, 0)
    with pytest.raises(ValueError, match="n_test must be an integer >= 0"):
        sine_regression(10, -1, 0)
    assert sine_regression(10, 0, 0)["X_test"].shape == (0, 1)


def test_prediction_grid():
    grid = prediction_grid(*YU_GRID)
    assert grid.shape == (500, 1) and grid.dtype == np.float64
    assert grid[0, 0] == -0.5 and grid[-1, 0] == 6.5
    with pytest.raises(ValueError, match="lo < hi"):
        prediction_grid(1.0, 1.0, 10)
    with pytest.raises(ValueError, match="n must be an integer >= 2"):
        prediction_grid(0.0, 1.0, 1)
