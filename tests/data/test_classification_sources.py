"""The classification sources table: registered raw files, stems, and the one prepared format."""

import numpy as np
import pytest

from data_mirror import mirror_root

from geobayes.data import get_file
from geobayes.data.classification_sources import (IMAGE_TEST_SETS, SOURCES, prepare_classification,
                                                  prepare_image_test, split_stem)
from geobayes.data.uci_classification import UCI_CLASSIFICATION_SETS, uci_files


def test_every_source_file_is_registered_and_the_uci_lists_match_the_loader():
    for name, source in SOURCES.items():
        for path in source.files:
            assert get_file(path).file == path, (name, path)
    for name in UCI_CLASSIFICATION_SETS:
        assert sorted(SOURCES[name].files) == sorted(uci_files(name))
    for images, labels in IMAGE_TEST_SETS.values():
        assert get_file(images) and get_file(labels)


def test_stems_name_the_data_set_and_its_seed():
    assert split_stem("vehicle_seed3") == ("vehicle", 3) and split_stem("banana") == ("banana", None)
    with pytest.raises(ValueError, match="unknown classification data set 'iris'; known: banana"):
        split_stem("iris_seed0")
    with pytest.raises(ValueError, match="its split depends on the seed; name the file glass_seed<k>"):
        split_stem("glass")


def test_prepared_splits_of_the_mirror():
    root = mirror_root()
    pinwheel = prepare_classification("pinwheel", root)
    assert pinwheel.sizes() == (350, 50, 600) and int(pinwheel.n_classes) == 5
    a, b = prepare_classification("glass_seed1", root), prepare_classification("glass_seed2", root)
    assert a.sizes() == b.sizes() and not np.array_equal(a.y_test, b.y_test)  # one split per seed
    with pytest.raises(ValueError, match="needs subset_per_class"):
        prepare_classification("mnist_seed0", root)
    kmnist = prepare_image_test("kmnist", root)
    assert kmnist["X"].shape == (10000, 784) and 0 <= kmnist["X"].min() and kmnist["X"].max() <= 1
    with pytest.raises(ValueError, match="unknown out-of-distribution set 'cifar'"):
        prepare_image_test("cifar", root)


def test_fashion_mnist_is_prepared_from_its_own_files_like_mnist():
    """Bergamin et al. (2023) Table 8/10's data set: the balanced subset and the 2,000/8,000 split of its own
    official test set, not MNIST's images under another name."""
    root = mirror_root()
    fashion = prepare_classification("fashion_mnist_seed0", root, per_class=20)
    digits = prepare_classification("mnist_seed0", root, per_class=20)
    assert fashion.sizes() == digits.sizes() == (200, 2000, 8000) and int(fashion.n_classes) == 10
    np.testing.assert_array_equal(np.bincount(fashion.y_train.astype(int)), [20] * 10)
    assert 0.0 <= fashion.X_test.min() and fashion.X_test.max() <= 1.0
    assert not np.array_equal(fashion.X_test[:5], digits.X_test[:5])
    # the same seed-42 split of a different test set: its own test labels in that order
    assert not np.array_equal(fashion.y_test, digits.y_test)
    assert not np.array_equal(prepare_classification("fashion_mnist_seed1", root, per_class=20).X_train, fashion.X_train)
    mnist_as_ood = prepare_image_test("mnist", root)
    assert mnist_as_ood["X"].shape == (10000, 784)
