"""MNIST split of Yu et al. (2023), Sec. 4.3: 50k train / 10k validation (seed-1 choice) / 10k test."""

import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.data.mnist_family import read_idx
from geobayes.data.mnist_yu2023 import (
    MNIST_FILES,
    prepare_mnist_yu2023,
    read_mnist_yu2023,
    split_indices,
    validation_indices,
)
from geobayes.data.prepared import load_prepared, save_prepared

#: ``np.random.seed(1); np.random.choice(60000, 10000, replace=False)[:8]`` (legacy RandomState).
FIRST_VALID = [15281, 21435, 44536, 13518, 47529, 53560, 41094, 6060]


def test_validation_indices_are_the_seeded_global_choice():
    state = np.random.get_state()
    try:
        np.random.seed(1)
        expected = np.random.choice(60000, 10000, replace=False)  # the authors' exact call
    finally:
        np.random.set_state(state)
    valid = validation_indices()
    np.testing.assert_array_equal(valid, expected)
    assert valid[:8].tolist() == FIRST_VALID
    assert valid.dtype == np.int64


def test_split_partitions_the_official_training_set():
    train, valid = split_indices()
    assert train.shape == (50000,) and valid.shape == (10000,)
    assert np.all(np.diff(train) > 0)
    assert np.intersect1d(train, valid).size == 0
    np.testing.assert_array_equal(np.sort(np.concatenate([train, valid])), np.arange(60000))
    with pytest.raises(ValueError, match="n_valid must be in"):
        validation_indices(10, 11)


def _fake_raw(n_train=60000, n_test=10):
    rng = np.random.default_rng(0)
    return (rng.integers(0, 256, (n_train, 28, 28), dtype=np.uint8), np.arange(n_train) % 10,
            rng.integers(0, 256, (n_test, 28, 28), dtype=np.uint8), np.arange(n_test) % 10)


def test_prepare_subsets_and_errors():
    images, labels, test_images, test_labels = _fake_raw()
    arrays = prepare_mnist_yu2023(images, labels, test_images, test_labels, n_train=30, n_valid=5, n_test=4)
    assert arrays["X_train"].shape == (30, 784) and arrays["X_valid"].shape == (5, 784)
    assert arrays["X_test"].shape == (4, 784) and int(arrays["n_classes"]) == 10
    train, valid = split_indices()
    np.testing.assert_array_equal(arrays["train_indices"], train[:30])
    np.testing.assert_array_equal(arrays["valid_indices"], valid[:5])
    np.testing.assert_array_equal(arrays["X_valid"][0], images[valid[0]].reshape(784) / 255.0)
    np.testing.assert_array_equal(arrays["y_valid"], labels[valid[:5]])
    np.testing.assert_array_equal(arrays["X_test"][3], test_images[3].reshape(784) / 255.0)
    with pytest.raises(ValueError, match="n_train must be an integer in"):
        prepare_mnist_yu2023(images, labels, test_images, test_labels, n_train=50001)
    with pytest.raises(ValueError, match="train_images must hold the 60000"):
        prepare_mnist_yu2023(images[:100], labels[:100], test_images, test_labels)
    with pytest.raises(ValueError, match="test_labels must have one label per image"):
        prepare_mnist_yu2023(images, labels, test_images, test_labels[:3])
    with pytest.raises(ValueError, match="uint8 images"):
        prepare_mnist_yu2023(images.astype(np.float64), labels, test_images, test_labels, n_train=30)


def test_prepared_file_round_trip(tmp_path):
    images, labels, test_images, test_labels = _fake_raw()
    arrays = prepare_mnist_yu2023(images, labels, test_images, test_labels, n_train=20, n_valid=3, n_test=2)
    path = save_prepared(tmp_path / "mnist.npz", "mnist_yu2023", arrays, {"n_train": 20})
    loaded = load_prepared(path, "mnist_yu2023")
    for key, value in arrays.items():
        np.testing.assert_array_equal(loaded[key], value)
    assert loaded.metadata == {"n_train": 20}


@pytest.fixture(scope="module")
def mirror_dir():
    return mirror_file(MNIST_FILES["train_images"]).parent


def test_real_mirror_split(mirror_dir):
    arrays = read_mnist_yu2023(mirror_dir)
    assert arrays["X_train"].shape == (50000, 784)
    assert arrays["X_valid"].shape == (10000, 784)
    assert arrays["X_test"].shape == (10000, 784)
    assert arrays["y_train"].shape == (50000,) and arrays["y_test"].shape == (10000,)
    assert arrays["X_train"].dtype == np.float64 and arrays["y_train"].dtype == np.int64
    assert arrays["X_train"].min() == 0.0 and arrays["X_train"].max() == 1.0
    assert arrays["valid_indices"][:8].tolist() == FIRST_VALID
    labels = read_idx(mirror_dir / "train-labels-idx1-ubyte.gz")
    images = read_idx(mirror_dir / "train-images-idx3-ubyte.gz")
    np.testing.assert_array_equal(arrays["y_valid"], labels[arrays["valid_indices"]])
    np.testing.assert_array_equal(arrays["X_valid"][1], images[FIRST_VALID[1]].reshape(784) / 255.0)
    # the official training labels: 5923 zeros, 6742 ones in the 60k; they split between the parts
    assert np.bincount(labels).tolist()[:2] == [5923, 6742]
    assert (np.bincount(arrays["y_train"], minlength=10) + np.bincount(arrays["y_valid"], minlength=10)).tolist() \
        == np.bincount(labels).tolist()
    assert np.bincount(arrays["y_test"]).tolist()[:2] == [980, 1135]
