"""Table 1 subsets of Hartmann et al. (2026), Sec. 5 (notes E2)."""

from __future__ import annotations


import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.data import (
    GlmSubset,
    load_logreg_raw,
    load_prepared,
    prepare_glm_subset,
    regression_subset_size,
    save_prepared,
    subset_indices,
)


def _raw(name: str) -> tuple[np.ndarray, np.ndarray]:
    return load_logreg_raw(mirror_file(f"logreg/{name}.npy"))


# n_Total of Table 1 -> 30 % subset size (Pima: 159.6 rounds half up to 160).
@pytest.mark.parametrize(
    ("n_total", "size"), [(690, 207), (1000, 300), (270, 81), (532, 160), (250, 75), (90, 27)]
)
def test_regression_subset_sizes_of_table_1(n_total, size):
    assert regression_subset_size(n_total, 0.3) == size


def test_regression_subset_size_rounds_half_up():
    assert regression_subset_size(5, 0.5) == 3  # 2.5 -> 3, not banker's 2
    assert regression_subset_size(7, 0.5) == 4  # 3.5 -> 4
    assert regression_subset_size(10, 0.34) == 3  # 3.4 -> 3
    assert regression_subset_size(10, 1.0) == 10


@pytest.mark.parametrize(
    ("n_total", "fraction", "pattern"),
    [
        (100, 0.0, r"fraction must be in \(0, 1\]; got 0\.0"),
        (100, 1.5, r"fraction must be in \(0, 1\]; got 1\.5"),
        (100, float("nan"), r"fraction must be in \(0, 1\]"),
        (3, 0.1, r"floor\(0\.1 \* 3 \+ 0\.5\) = 0 must be between 2 and n_total = 3"),
        (0, 0.5, r"n_total must be >= 1; got 0"),
        (10.0, 0.5, r"n_total must be an integer; got 10\.0"),
    ],
)
def test_regression_subset_size_errors(n_total, fraction, pattern):
    with pytest.raises(ValueError, match=pattern):
        regression_subset_size(n_total, fraction)


def test_subset_indices_deterministic_sorted_distinct():
    a = subset_indices(532, 160, seed=3)
    b = subset_indices(532, 160, seed=3)
    c = subset_indices(532, 160, seed=4)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert a.dtype == np.int64 and a.shape == (160,)
    assert np.all(np.diff(a) > 0) and a[0] >= 0 and a[-1] < 532
    expected = np.sort(np.random.default_rng(3).choice(532, 160, replace=False))
    np.testing.assert_array_equal(a, expected)


def test_subset_indices_full_set_and_errors():
    np.testing.assert_array_equal(subset_indices(90, 90, seed=0), np.arange(90))
    with pytest.raises(ValueError, match=r"between 1 and n_total = 10.*got size = 11"):
        subset_indices(10, 11, seed=0)
    with pytest.raises(ValueError, match=r"got size = 0"):
        subset_indices(10, 0, seed=0)
    with pytest.raises(ValueError, match=r"size must be an integer"):
        subset_indices(10, 2.0, seed=0)


def test_pima_regression_subset_has_160_rows_and_intercept_last():
    features, labels = _raw("pima")
    assert features.shape == (532, 7)
    size = regression_subset_size(features.shape[0], 0.3)
    idx = subset_indices(features.shape[0], size, seed=0)
    subset = prepare_glm_subset(features, labels, idx, standardise=True, intercept=True)
    assert isinstance(subset, GlmSubset)
    assert subset.X.shape == (160, 8)  # 7 features + intercept = the paper's D = 8
    assert subset.X.dtype == np.float64 and subset.y.dtype == np.float64
    assert np.all(subset.X[:, -1] == 1.0)
    assert set(np.unique(subset.y)) <= {0.0, 1.0}
    np.testing.assert_array_equal(subset.y, labels[idx])
    np.testing.assert_array_equal(subset.indices, idx)


def test_heart_gp_subset_has_100_rows_13_columns_no_intercept():
    features, labels = _raw("heart")
    idx = subset_indices(features.shape[0], 100, seed=1)
    subset = prepare_glm_subset(features, labels, idx, standardise=True, intercept=False)
    assert subset.X.shape == (100, 13)
    assert not np.any(np.all(subset.X == 1.0, axis=0))


def test_standardisation_uses_full_data_statistics():
    features, labels = _raw("australian")
    idx = subset_indices(features.shape[0], 100, seed=2)
    subset = prepare_glm_subset(features, labels, idx, standardise=True, intercept=False)
    mean, std = features.mean(axis=0), features.std(axis=0, ddof=0)
    np.testing.assert_allclose(subset.feature_mean, mean, rtol=1e-14)
    np.testing.assert_allclose(subset.feature_std, std, rtol=1e-14)
    np.testing.assert_allclose(subset.X, (features[idx] - mean) / std, rtol=1e-12, atol=1e-12)
    # Not the subset's own statistics: those would give exactly zero-mean columns.
    assert np.max(np.abs(subset.X.mean(axis=0))) > 0.05
    # Regression and GP subsets of the same rows share the covariates.
    regression = prepare_glm_subset(features, labels, idx, standardise=True, intercept=True)
    np.testing.assert_array_equal(regression.X[:, :-1], subset.X)


def test_raw_features_unchanged():
    features, labels = _raw("ripley")
    idx = np.array([5, 0, 17], dtype=np.int32)  # order is kept, any integer dtype accepted
    subset = prepare_glm_subset(features, labels, idx, standardise=False, intercept=True)
    np.testing.assert_array_equal(subset.X[:, :-1], features[idx])
    np.testing.assert_array_equal(subset.feature_mean, 0.0)
    np.testing.assert_array_equal(subset.feature_std, 1.0)
    assert subset.indices.dtype == np.int64 and not subset.standardised


def test_errors_name_the_problem():
    features = np.arange(12.0).reshape(6, 2)
    labels = np.array([0.0, 1.0, 0.0, 1.0, 0.0, 2.0])
    with pytest.raises(ValueError, match=r"labels must be exactly \{0, 1\}.*2\.0"):
        prepare_glm_subset(features, labels, [0, 1], standardise=True, intercept=True)
    labels[-1] = 1.0
    with pytest.raises(ValueError, match=r"\[0, 6\).*got range \[0, 6\]"):
        prepare_glm_subset(features, labels, [0, 6], standardise=True, intercept=True)
    with pytest.raises(ValueError, match=r"distinct.*1 duplicate"):
        prepare_glm_subset(features, labels, [1, 1, 2], standardise=True, intercept=True)
    with pytest.raises(ValueError, match=r"integer dtype; got float64"):
        prepare_glm_subset(features, labels, [0.0, 1.0], standardise=True, intercept=True)
    with pytest.raises(ValueError, match=r"labels must have shape \(6,\)"):
        prepare_glm_subset(features, labels[:5], [0], standardise=True, intercept=True)


def test_save_load_roundtrip_readable_by_load_prepared(tmp_path):
    rng = np.random.default_rng(0)
    features = rng.normal(size=(30, 3))
    labels = np.tile([0.0, 1.0], 15)
    subset = prepare_glm_subset(
        features, labels, subset_indices(30, 10, seed=5), standardise=True, intercept=True
    )
    path = save_prepared(tmp_path / "sub" / "subset.npz", "glm", subset.arrays())
    loaded = load_prepared(path, "glm")
    for name in ("X", "y", "indices", "feature_mean", "feature_std"):
        np.testing.assert_array_equal(loaded[name], getattr(subset, name))
    assert loaded["indices"].dtype == np.int64 and bool(loaded["standardised"]) is True
    assert [p.name for p in path.parent.iterdir()] == ["subset.npz"]


def test_load_names_missing_keys(tmp_path):
    path = tmp_path / "other.npz"
    save_prepared(path, "logreg", {"X": np.zeros((2, 2)), "y": np.zeros(2), "feature_mean": np.zeros(1),
                                   "feature_std": np.ones(1), "standardised": np.asarray(False)})
    with pytest.raises(ValueError, match=r"other\.npz: holds data set 'logreg', expected 'glm'"):
        load_prepared(path, "glm")
    with pytest.raises(KeyError, match=r"other\.npz: data set 'glm' needs the arrays indices"):
        save_prepared(path, "glm", {k: v for k, v in load_prepared(path).items()})
