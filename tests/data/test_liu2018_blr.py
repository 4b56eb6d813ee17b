"""Liu & Zhu's (2018) BLR data: Splice realisation 19 and Covertype as their code reads the .mat files,
on small files of the same layout (the real ones are pinned but not mirrored), and the offline stand-ins."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.io import savemat

from data_mirror import mirror_file

from geobayes.data.liu2018_blr import prepare_split, read_covertype, read_splice


def _write_benchmarks(path, rows=30, features=4, realisations=20, n_train=10, n_test=15):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(rows, features))
    t = np.where(rng.random(rows) < 0.5, -1.0, 1.0)[:, None]
    train = np.stack([rng.permutation(rows)[:n_train] + 1 for _ in range(realisations)])  # 1-based, as MATLAB
    test = np.stack([rng.permutation(rows)[:n_test] + 1 for _ in range(realisations)])
    savemat(path, {"splice": {"x": x, "t": t, "train": train.astype(float), "test": test.astype(float)}})
    return x, t[:, 0], train, test


def test_splice_realisation_19_takes_row_19_of_the_one_based_indices_with_a_bias_column(tmp_path):
    x, t, train, test = _write_benchmarks(tmp_path / "benchmarks.mat")
    arrays = read_splice(tmp_path / "benchmarks.mat", 19)
    rows = train[18] - 1
    np.testing.assert_array_equal(arrays["X_train"][:, :-1], x[rows])
    np.testing.assert_array_equal(arrays["X_train"][:, -1], 1.0)
    np.testing.assert_array_equal(arrays["y_train"], (t[rows] > 0).astype(float))
    assert arrays["X_test"].shape == (15, 5) and set(np.unique(arrays["y_test"])) <= {0.0, 1.0}
    assert prepare_split("splice19", tmp_path / "benchmarks.mat", split=7)["X_train"].shape == (10, 5)


def test_splice_errors_name_the_file_and_the_problem(tmp_path):
    _write_benchmarks(tmp_path / "benchmarks.mat", realisations=5)
    with pytest.raises(ValueError, match=r"benchmarks.mat: realisation 19 out of range 1..5$"):
        read_splice(tmp_path / "benchmarks.mat", 19)
    savemat(tmp_path / "other.mat", {"banana": np.zeros((2, 2))})
    with pytest.raises(ValueError, match=r"other.mat: no variable 'splice' \(found \['banana'\]\)"):
        read_splice(tmp_path / "other.mat")


def test_covertype_label_two_becomes_zero_and_the_split_is_eighty_twenty_per_seed(tmp_path):
    rng = np.random.default_rng(1)
    data = np.column_stack([rng.integers(1, 3, size=50), rng.normal(size=(50, 54))])
    savemat(tmp_path / "covertype.mat", {"covtype": data})
    X, y = read_covertype(tmp_path / "covertype.mat")
    assert X.shape == (50, 55) and np.all(X[:, -1] == 1.0)
    np.testing.assert_array_equal(y, (data[:, 0] == 1).astype(float))
    a, b = (prepare_split("covertype", tmp_path / "covertype.mat", split) for split in (0, 1))
    assert a["X_test"].shape == (10, 55) and a["X_train"].shape == (40, 55)
    assert not np.array_equal(a["X_test"], b["X_test"])  # a new split per run (the caption)
    np.testing.assert_array_equal(prepare_split("covertype", tmp_path / "covertype.mat", 0)["X_test"], a["X_test"])
    data[0, 0] = 3
    savemat(tmp_path / "bad.mat", {"covtype": data})
    with pytest.raises(ValueError, match=r"bad.mat: labels \[1.0, 2.0, 3.0\], expected values in \[1, 2\]"):
        read_covertype(tmp_path / "bad.mat")


def test_offline_stand_in_is_the_mirrors_german_credit_z_scored():
    arrays = prepare_split("german", mirror_file("logreg/german.npy"), split=3)
    X = np.concatenate([arrays["X_train"], arrays["X_test"]])
    assert X.shape == (1000, 25) and np.all(X[:, -1] == 1.0)
    np.testing.assert_allclose(X[:, :-1].mean(axis=0), 0.0, atol=1e-12)
    assert arrays["X_test"].shape[0] == 200
