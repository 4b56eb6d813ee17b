"""Logistic-regression data preparation (Yu et al. 2024, Sec. 5.3 / Supp. 15.9)."""

from __future__ import annotations


import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.data import (
    PreparedData,
    load_logreg_raw,
    load_prepared,
    prepare_logreg,
    save_prepared,
    Prepared,
)

# name -> (N, raw columns incl. label)
SHAPES = {
    "ripley": (250, 3),
    "pima": (532, 8),
    "heart": (270, 14),
    "australian": (690, 15),
    "german": (1000, 25),
}


def _raw(name: str) -> tuple[np.ndarray, np.ndarray]:
    return load_logreg_raw(mirror_file(f"logreg/{name}.npy"))


@pytest.mark.parametrize("name", list(SHAPES))
@pytest.mark.parametrize("standardise", [False, True])
def test_shapes_and_intercept_last(name, standardise):
    n, cols = SHAPES[name]
    features, labels = _raw(name)
    assert features.shape == (n, cols - 1) and labels.shape == (n,)
    prepared = prepare_logreg(features, labels, standardise=standardise)
    assert prepared.X.shape == (n, cols)  # cols - 1 features + intercept
    assert prepared.X.dtype == np.float64 and prepared.y.dtype == np.float64
    assert np.all(prepared.X[:, -1] == 1.0)
    assert set(np.unique(prepared.y)) == {0.0, 1.0}


@pytest.mark.parametrize("name", list(SHAPES))
def test_standardised_columns_have_zero_mean_unit_population_std(name):
    features, labels = _raw(name)
    prepared = prepare_logreg(features, labels, standardise=True)
    Z = prepared.X[:, :-1]
    np.testing.assert_allclose(Z.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(Z.std(axis=0, ddof=0), 1.0, rtol=1e-12)
    np.testing.assert_allclose(prepared.feature_mean, features.mean(axis=0))
    np.testing.assert_allclose(prepared.feature_std, features.std(axis=0, ddof=0))
    scale = np.abs(features).max()
    np.testing.assert_allclose(
        Z * prepared.feature_std + prepared.feature_mean, features, rtol=1e-12, atol=1e-12 * scale
    )


@pytest.mark.parametrize("name", list(SHAPES))
def test_raw_columns_unchanged(name):
    features, labels = _raw(name)
    prepared = prepare_logreg(features, labels, standardise=False)
    np.testing.assert_array_equal(prepared.X[:, :-1], features)
    np.testing.assert_array_equal(prepared.y, labels)
    assert not prepared.standardised
    np.testing.assert_array_equal(prepared.feature_mean, 0.0)
    np.testing.assert_array_equal(prepared.feature_std, 1.0)


def test_constant_column_gets_unit_scale():
    features = np.array([[1.0, 0.1], [2.0, 0.1], [4.0, 0.1]])
    prepared = prepare_logreg(features, np.array([0.0, 1.0, 1.0]), standardise=True)
    assert prepared.feature_std[1] == 1.0
    np.testing.assert_allclose(prepared.X[:, 1], 0.0, atol=1e-15)
    assert np.all(np.isfinite(prepared.X))


def test_bad_labels_name_file_and_values(tmp_path):
    path = tmp_path / "bad.npy"
    np.save(path, np.array([[0.5, 1.0], [1.5, 2.0], [2.5, 0.0]]))
    with pytest.raises(ValueError, match=r"bad\.npy.*exactly \{0, 1\}.*\[0\.0, 1\.0, 2\.0\]"):
        load_logreg_raw(path)
    with pytest.raises(ValueError, match="labels must be exactly"):
        prepare_logreg(np.zeros((2, 1)), np.array([-1.0, 1.0]), standardise=False)


def test_bad_shape_names_file(tmp_path):
    path = tmp_path / "flat.npy"
    np.save(path, np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match=r"flat\.npy.*shape \(2,\)"):
        load_logreg_raw(path)


def test_save_and_load_prepared_roundtrip(tmp_path):
    rng = np.random.default_rng(0)
    features = rng.normal(size=(20, 3))
    labels = (rng.uniform(size=20) < 0.5).astype(float)
    labels[:2] = [0.0, 1.0]
    prepared = prepare_logreg(features, labels, standardise=True)
    assert isinstance(prepared, PreparedData)
    path = save_prepared(tmp_path / "sub" / "prepared.npz", "logreg", prepared.arrays())
    loaded = load_prepared(path, "logreg")
    assert isinstance(loaded, Prepared) and loaded.dataset == "logreg"
    for name in ("X", "y", "feature_mean", "feature_std"):
        np.testing.assert_array_equal(loaded[name], getattr(prepared, name))
    assert bool(loaded["standardised"]) is True
    assert [p.name for p in path.parent.iterdir()] == ["prepared.npz"]
