"""USPS digits for Fig. 2 of Hartmann et al. (2026), Sec. 5 (notes E3)."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.data import (
    UspsSubset,
    load_usps,
    load_prepared,
    prepare_usps_subset,
    save_prepared,
    select_digits,
)

# Counts of the digits 3, 5, 7 in the original ESL split (stated in geobayes.data.usps).
TRAIN_COUNTS = {3: 658, 5: 556, 7: 645}
TEST_COUNTS = {3: 166, 5: 160, 7: 147}


def _path(split: str) -> Path:
    return mirror_file(f"usps/zip.{split}.gz")


@pytest.fixture(scope="module")
def train():
    return load_usps(_path("train"))


@pytest.fixture(scope="module")
def test_split():
    return load_usps(_path("test"))


def _first_tokens(path: Path) -> Counter:
    with gzip.open(path, "rt") as handle:
        return Counter(int(float(line.split()[0])) for line in handle if line.strip())


def test_train_split_shape_range_and_counts(train):
    images, labels = train
    assert images.shape == (7291, 256) and labels.shape == (7291,)
    assert images.dtype == np.float64 and labels.dtype == np.int64
    assert images.min() == -1.0 and images.max() == 1.0
    assert set(np.unique(labels)) == set(range(10))
    counts = {digit: int(np.sum(labels == digit)) for digit in (3, 5, 7)}
    assert counts == TRAIN_COUNTS  # 1859 images of 3/5/7 (the paper's GPML half: 1157)
    raw = _first_tokens(_path("train"))  # independent count straight from the file
    assert {digit: raw[digit] for digit in (3, 5, 7)} == TRAIN_COUNTS
    assert sum(raw.values()) == 7291


def test_test_split_shape_and_counts(test_split):
    images, labels = test_split
    assert images.shape == (2007, 256)
    assert {digit: int(np.sum(labels == digit)) for digit in (3, 5, 7)} == TEST_COUNTS
    raw = _first_tokens(_path("test"))
    assert {digit: raw[digit] for digit in (3, 5, 7)} == TEST_COUNTS


def test_first_image_matches_file_text(train):
    images, labels = train
    with gzip.open(_path("train"), "rt") as handle:
        first = [float(token) for token in handle.readline().split()]
    assert labels[0] == int(first[0])
    np.testing.assert_array_equal(images[0], first[1:])


def test_select_digits_maps_last_digit_to_reference_class(train):
    images, labels = train
    pool, classes = select_digits(images, labels, (3, 5, 7))
    assert pool.shape == (1859, 256) and classes.dtype == np.int64
    keep = np.isin(labels, [3, 5, 7])
    np.testing.assert_array_equal(pool, images[keep])  # file order kept
    np.testing.assert_array_equal(classes == 2, labels[keep] == 7)  # 7 -> class 2
    np.testing.assert_array_equal(classes == 0, labels[keep] == 3)
    np.testing.assert_array_equal(np.bincount(classes), [658, 556, 645])
    _, reordered = select_digits(images, labels, (7, 3))
    np.testing.assert_array_equal(reordered == 0, labels[np.isin(labels, [3, 7])] == 7)


def test_select_digits_errors():
    images, labels = np.zeros((3, 256)), np.array([3, 5, 5])
    with pytest.raises(ValueError, match=r"digit 7 .*has no images"):
        select_digits(images, labels, (3, 5, 7))
    with pytest.raises(ValueError, match=r"at least two distinct digits; got \(3, 3\)"):
        select_digits(images, labels, (3, 3))
    with pytest.raises(ValueError, match=r"integers 0\.\.9; got \(3, 10\)"):
        select_digits(images, labels, (3, 10))
    with pytest.raises(ValueError, match=r"shape \(N, 256\); got \(3, 255\)"):
        select_digits(np.zeros((3, 255)), labels, (3, 5))


def test_subset_deterministic_and_consistent(train):
    images, labels = train
    a = prepare_usps_subset(images, labels, digits=(3, 5, 7), n_points=100, seed=0)
    b = prepare_usps_subset(images, labels, digits=(3, 5, 7), n_points=100, seed=0)
    c = prepare_usps_subset(images, labels, digits=(3, 5, 7), n_points=100, seed=1)
    assert isinstance(a, UspsSubset)
    np.testing.assert_array_equal(a.indices, b.indices)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.indices, c.indices)
    assert a.X.shape == (100, 256) and a.y.shape == (100,) and a.y.dtype == np.float64
    assert np.all(np.diff(a.indices) > 0) and a.indices.dtype == np.int64
    assert a.class_counts == TRAIN_COUNTS and list(a.class_counts) == [3, 5, 7]
    assert a.n_pool == 1859
    pool, classes = select_digits(images, labels, (3, 5, 7))
    np.testing.assert_array_equal(a.X, pool[a.indices])
    np.testing.assert_array_equal(a.y, classes[a.indices])
    assert set(np.unique(a.y)) == {0.0, 1.0, 2.0}
    expected = np.sort(np.random.default_rng(0).choice(1859, 100, replace=False))
    np.testing.assert_array_equal(a.indices, expected)


def test_subset_too_large(train):
    images, labels = train
    with pytest.raises(ValueError, match=r"n_points must be between 1 and .*\(1859\); got 2000"):
        prepare_usps_subset(images, labels, digits=(3, 5, 7), n_points=2000, seed=0)


def _line(label: str, pixels: list[str]) -> str:
    return " ".join([label, *pixels]) + "\n"


def test_malformed_lines_name_file_and_line(tmp_path):
    good = _line("3.0000", ["-1.0000"] * 256)
    cases = {
        "short.gz": (_line("3", ["0"] * 255), r"short\.gz, line 2: expected 257 values.*got 256"),
        "label.txt": (_line("10", ["0"] * 256), r"label\.txt, line 2: label must be .*0\.\.9"),
        "frac.txt": (_line("3.5", ["0"] * 256), r"frac\.txt, line 2: label must be"),
        "pixel.txt": (
            _line("3", ["0"] * 255 + ["1.5"]),
            r"pixel\.txt, line 2: pixel values must lie in \[-1, 1\]",
        ),
        "text.txt": (
            _line("3", ["0"] * 10 + ["abc"] + ["0"] * 245),
            r"text\.txt, line 2: value 12 is not a number: 'abc'",
        ),
    }
    for name, (bad, pattern) in cases.items():
        path = tmp_path / name
        if name.endswith(".gz"):
            with gzip.open(path, "wt") as handle:
                handle.write(good + bad)
        else:
            path.write_text(good + bad)
        with pytest.raises(ValueError, match=pattern):
            load_usps(path)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    with pytest.raises(ValueError, match=r"empty\.txt: contains no images"):
        load_usps(empty)


def test_plain_text_with_integer_labels(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(_line("9", ["0.5"] * 256) + "\n" + _line("0.0000", ["-1"] * 256))
    images, labels = load_usps(path)
    np.testing.assert_array_equal(labels, [9, 0])
    assert images.shape == (2, 256) and images[0, 0] == 0.5


def test_save_load_roundtrip(tmp_path, train):
    images, labels = train
    subset = prepare_usps_subset(images, labels, digits=(3, 5, 7), n_points=20, seed=2)
    path = save_prepared(tmp_path / "usps.npz", "usps", subset.arrays())
    with np.load(path) as archive:
        assert sorted(archive.files) == ["X", "_format", "_metadata", "digits", "indices", "pool_counts", "y"]
        np.testing.assert_array_equal(archive["digits"], [3, 5, 7])
    loaded = load_prepared(path, "usps")
    for name in ("X", "y", "indices"):
        np.testing.assert_array_equal(loaded[name], getattr(subset, name))
    class_counts = {int(d): int(c) for d, c in zip(loaded["digits"], loaded["pool_counts"])}
    assert class_counts == subset.class_counts and int(loaded["pool_counts"].sum()) == subset.n_pool
