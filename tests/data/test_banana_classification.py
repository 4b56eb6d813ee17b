"""The banana classification subset of Hartmann et al. (2026), App. D (our data-set choice)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.data.banana_classification import (
    load_banana_csv,
    prepare_banana_subset,
)
from geobayes.data.prepared import load_prepared, save_prepared
from geobayes.data.registry import get_file
from geobayes.data.download import sha256_file


def _mirror_file() -> Path:
    return mirror_file("banana/banana.csv")


def test_registered_banana_file_has_5300_rows_and_both_classes():
    path = _mirror_file()
    entry = get_file("banana/banana.csv")
    assert sha256_file(path)[0] == entry.sha256
    X, y = load_banana_csv(path)
    assert X.shape == (5300, 2) and y.shape == (5300,)
    assert set(np.unique(y)) == {0.0, 1.0}
    assert int(y.sum()) == 2376  # file label 2 -> class 1


def test_subset_is_deterministic_sorted_and_matches_the_file():
    X, y = load_banana_csv(_mirror_file())
    a, b = prepare_banana_subset(X, y, 200, 7), prepare_banana_subset(X, y, 200, 7)
    np.testing.assert_array_equal(a.indices, b.indices)
    assert a.X.shape == (200, 2) and np.all(np.diff(a.indices) > 0)
    np.testing.assert_array_equal(a.X, X[a.indices])
    np.testing.assert_array_equal(a.y, y[a.indices])
    assert not np.array_equal(prepare_banana_subset(X, y, 200, 8).indices, a.indices)


def test_subset_round_trips_through_npz(tmp_path):
    X = np.arange(20.0).reshape(10, 2)
    y = np.array([0, 1] * 5, dtype=float)
    subset = prepare_banana_subset(X, y, 6, 3)
    save_prepared(tmp_path / "s.npz", "banana_classification", subset.arrays())
    loaded = load_prepared(tmp_path / "s.npz", "banana_classification")
    np.testing.assert_array_equal(loaded["X"], subset.X)
    np.testing.assert_array_equal(loaded["indices"], subset.indices)
    assert (int(loaded["seed"]), int(loaded["n_total"])) == (3, 10)


def test_bad_labels_and_one_class_subsets_are_errors(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("0.1,0.2,1\n0.3,0.4,3\n")
    with pytest.raises(ValueError, match="bad.csv.*labels must be 1 or 2"):
        load_banana_csv(bad)
    narrow = tmp_path / "narrow.csv"
    narrow.write_text("0.1,1\n")
    with pytest.raises(ValueError, match="3 columns"):
        load_banana_csv(narrow)
    with pytest.raises(ValueError, match="one class only"):
        prepare_banana_subset(np.zeros((5, 2)), np.zeros(5), 3, 0)
    with pytest.raises(ValueError, match="size"):
        prepare_banana_subset(np.zeros((5, 2)), np.array([0, 1, 0, 1, 0.0]), 6, 0)
