"""Classification splits of Bergamin et al. (2023), Sec. 5.2, App. D.2-D.6, on the real mirror files."""

from __future__ import annotations

import gzip
import struct

import numpy as np
import pytest
from sklearn.model_selection import train_test_split

from data_mirror import mirror_file, mirror_root

from geobayes.data import mnist_family
from geobayes.data.banana_classification import load_banana_csv
from geobayes.data.bergamin_banana import BANANA_SIZES, split_banana
from geobayes.data.classification_split import ClassificationSplit, check_split
from geobayes.data.mnist_family import (
    balanced_training_subset,
    prepare_image_test_set,
    prepare_mnist_like,
    read_idx,
    torch_randperm,
)
from geobayes.data.pinwheel import PINWHEEL_SIZES, make_pinwheel, split_pinwheel
from geobayes.data.prepared import load_prepared, save_prepared
from geobayes.data.uci_classification import (
    UCI_CLASSIFICATION_SETS,
    UCI_SHAPES,
    load_uci_classification,
    split_uci,
    uci_files,
)

# ---------------------------------------------------------------- banana (App. D.2)


@pytest.fixture(scope="module")
def banana():
    return load_banana_csv(mirror_file("banana/banana.csv"))


def test_banana_split_sizes_and_procedure(banana):
    X, y = banana
    split = split_banana(X, y)
    assert split.sizes() == BANANA_SIZES == (265, 796, 795)  # floor(0.7 * 5300) == 3709 in floating point
    assert split.n_classes == 2 and split.y_train.dtype == np.int64 and split.X_train.dtype == np.float64
    X_tr, X_rest, _, _ = train_test_split(X, y, train_size=0.7, random_state=230)
    X_te, X_va, _, _ = train_test_split(X_rest, np.zeros(len(X_rest)), train_size=0.5, random_state=230)
    np.testing.assert_array_equal(split.X_train, X_tr[:265])  # unscaled, the first 265 candidates
    np.testing.assert_array_equal(split.X_test, X_te)  # the first half of the rest is the test set
    np.testing.assert_array_equal(split.X_valid, X_va)
    np.testing.assert_array_equal(np.bincount(split.y_train), [153, 112])
    again = split_banana(X, y)
    for a, b in zip(split.arrays().values(), again.arrays().values()):
        np.testing.assert_array_equal(a, b)


def test_banana_split_rejects_bad_inputs(banana):
    X, y = banana
    with pytest.raises(ValueError, match="n_train must be between 1 and 3709.*got 5000"):
        split_banana(X, y, n_train=5000)
    with pytest.raises(ValueError, match="labels must be 0 or 1"):
        split_banana(X, y + 1)


# ---------------------------------------------------------------- pinwheel (App. D.3)


def test_pinwheel_counts_split_and_determinism():
    X, y = make_pinwheel()
    assert X.shape == (1000, 2) and y.dtype == np.int64
    np.testing.assert_array_equal(np.bincount(y), [200] * 5)
    # golden values of the authors' stream (legacy MT19937 seeded 42; randn, then permutation)
    np.testing.assert_allclose(X[0], [-0.05381354, 1.30644659], atol=1e-8)
    np.testing.assert_array_equal(y[:5], [3, 3, 0, 4, 1])
    X2, y2 = make_pinwheel()
    np.testing.assert_array_equal(X, X2)
    assert not np.array_equal(make_pinwheel(seed=1)[0], X)
    split = split_pinwheel(X, y)
    assert split.sizes() == PINWHEEL_SIZES == (350, 50, 600) and split.n_classes == 5
    np.testing.assert_array_equal(np.concatenate([split.X_train, split.X_valid, split.X_test]), X)


def test_pinwheel_geometry_has_five_twisted_arms():
    X, y = make_pinwheel()
    radius = np.hypot(X[:, 0], X[:, 1])  # rotation keeps |features|, features[:, 0] ~ N(1, 0.3)
    assert abs(radius.mean() - 1.0) < 0.05 and abs(radius.std() - 0.3) < 0.03
    # each row is features @ R(angle): polar angle = -(2 pi k / 5 + 0.25 exp(features[:, 0])) + O(0.05)
    predicted = -(2 * np.pi * y / 5 + 0.25 * np.exp(radius))
    residual = np.angle(np.exp(1j * (np.arctan2(X[:, 1], X[:, 0]) - predicted)))
    assert np.mean(np.abs(residual) < 0.25) > 0.99
    # the arms are distinct: each class's mean direction is 72 degrees from the next
    directions = np.array([np.angle(np.mean(np.exp(1j * (np.arctan2(X[y == k, 1], X[y == k, 0]))))) for k in range(5)])
    gaps = np.angle(np.exp(1j * (directions - np.roll(directions, -1))))
    np.testing.assert_allclose(np.abs(gaps), 2 * np.pi / 5, atol=0.1)


# ---------------------------------------------------------------- UCI (App. D.4)

CLASS_COUNTS = {
    "vehicle": [218, 212, 217, 199],
    "glass": [70, 76, 17, 13, 9, 29],
    "ionosphere": [126, 225],
    "waveform": [311, 350, 339],
    "australian": [383, 307],
    "breast_cancer": [444, 239],
}
SPLIT_SIZES = {"vehicle": (592, 127, 127), "glass": (149, 33, 32), "ionosphere": (245, 53, 53),
               "waveform": (700, 150, 150), "australian": (482, 104, 104), "breast_cancer": (478, 103, 102)}


@pytest.mark.parametrize("name", UCI_CLASSIFICATION_SETS)
def test_uci_shapes_classes_and_standardised_split(name):
    for file in uci_files(name):
        mirror_file(file)
    X, y = load_uci_classification(mirror_root(), name)
    rows, columns, classes = UCI_SHAPES[name]
    assert X.shape == (rows, columns) and y.dtype == np.int64
    np.testing.assert_array_equal(np.bincount(y), CLASS_COUNTS[name])
    split = split_uci(X, y, seed=0)
    assert split.sizes() == SPLIT_SIZES[name] and split.n_classes == classes
    # StandardScaler fitted on train (ddof=0): train columns mean 0, std 1 (0 for a constant column)
    np.testing.assert_allclose(split.X_train.mean(axis=0), 0.0, atol=1e-12)
    std = split.X_train.std(axis=0)
    assert np.all(np.isclose(std, 1.0) | np.isclose(std, 0.0))
    X_tr, X_rest, _, y_rest = train_test_split(X, y, train_size=0.7, random_state=0)
    X_te, X_va, y_te, _ = train_test_split(X_rest, y_rest, train_size=0.5, random_state=0)
    mean, scale = X_tr.mean(axis=0), X_tr.std(axis=0)
    scale[scale == 0] = 1.0
    np.testing.assert_allclose(split.X_test, (X_te - mean) / scale, atol=1e-12)
    np.testing.assert_allclose(split.X_valid, (X_va - mean) / scale, atol=1e-12)
    np.testing.assert_array_equal(split.y_test, y_te)
    np.testing.assert_array_equal(split_uci(X, y, seed=0).X_train, split.X_train)
    assert not np.array_equal(split_uci(X, y, seed=1).y_test, split.y_test)


def test_uci_presplit_sets_concatenate_training_file_first():
    root = mirror_root()
    X, _ = load_uci_classification(root, "australian")
    first = np.loadtxt(mirror_file("uci_classification/australian_presplit/australian_scale_X_tr.csv"))
    np.testing.assert_array_equal(X[: len(first)], first)


def test_uci_errors_name_the_problem(tmp_path):
    with pytest.raises(ValueError, match="unknown UCI classification set 'iris'; known: vehicle, glass, "
                                         "ionosphere, waveform, australian, breast_cancer"):
        load_uci_classification(tmp_path, "iris")
    folder = tmp_path / "uci_classification" / "glass"
    folder.mkdir(parents=True)
    np.savetxt(folder / "X.txt", np.ones((214, 8)))
    np.savetxt(folder / "Y.txt", np.arange(214) % 6)
    with pytest.raises(ValueError, match=r"glass/X.txt: expected 9 feature columns for glass, got 8"):
        load_uci_classification(tmp_path, "glass")
    np.savetxt(folder / "X.txt", np.ones((214, 9)))
    np.savetxt(folder / "Y.txt", np.arange(213) % 6)
    with pytest.raises(ValueError, match=r"Y.txt: expected 214 labels .*got shape \(213,\)"):
        load_uci_classification(tmp_path, "glass")


def test_ionosphere_letter_labels_map_b_to_0_and_g_to_1(tmp_path):
    folder = tmp_path / "uci_classification" / "ionosphere"
    folder.mkdir(parents=True)
    rows = [",".join(["0.5"] * 34 + ["g" if i % 3 else "b"]) for i in range(351)]
    (folder / "ionosphere.data").write_text("\n".join(rows) + "\n")
    X, y = load_uci_classification(tmp_path, "ionosphere")
    assert X.shape == (351, 34)
    np.testing.assert_array_equal(y[:4], [0, 1, 1, 0])


# ---------------------------------------------------------------- MNIST family (App. D.5-D.6)


@pytest.fixture(scope="module")
def mnist():
    files = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
             "t10k-labels-idx1-ubyte.gz")
    return [read_idx(mirror_file(f"mnist/{name}")) for name in files]


def test_balanced_subset_is_exact_and_seeded(mnist):
    labels = mnist[1]
    a = balanced_training_subset(labels, 500, seed=0)
    assert a.shape == (5000,) and np.all(np.diff(a) > 0)
    np.testing.assert_array_equal(np.bincount(labels[a]), [500] * 10)
    np.testing.assert_array_equal(balanced_training_subset(labels, 500, seed=0), a)
    assert len(np.intersect1d(balanced_training_subset(labels, 500, seed=1), a)) < 1000
    with pytest.raises(ValueError, match="class 5 has 5421 images, fewer than per_class=5500"):
        balanced_training_subset(labels, 5500, seed=0)


def test_test_valid_split_equals_torch_random_split():
    torch = pytest.importorskip("torch")
    from torch.utils.data import random_split

    for n, n_valid, seed in ((10000, 2000, 42), (10000, 1000, 42), (37, 5, 3), (2, 1, 0)):
        valid, test = random_split(range(n), [n_valid, n - n_valid], generator=torch.Generator().manual_seed(seed))
        ours_valid, ours_test = mnist_family.test_valid_split(n, n_valid, seed)
        np.testing.assert_array_equal(ours_valid, list(valid))
        np.testing.assert_array_equal(ours_test, list(test))
    reference = torch.randperm(500, generator=torch.Generator().manual_seed(2**31 + 5)).numpy()
    np.testing.assert_array_equal(torch_randperm(500, 2**31 + 5), reference)


def test_prepare_mnist_like_sizes_and_pixels(mnist):
    split = prepare_mnist_like(*mnist, per_class=500, seed=0)
    assert split.sizes() == (5000, 2000, 8000) and split.n_classes == 10
    assert split.X_train.shape == (5000, 784) and split.X_train.dtype == np.float64
    assert split.X_test.min() == 0.0 and split.X_test.max() == 1.0
    valid, test = mnist_family.test_valid_split()
    np.testing.assert_array_equal(split.X_test[0], mnist[2][test[0]].reshape(-1) / 255.0)  # row-major, /255
    np.testing.assert_array_equal(split.y_valid, mnist[3][valid])


def test_ood_test_set_is_the_full_flattened_test_set():
    kmnist = prepare_image_test_set(mirror_file("kmnist/t10k-images-idx3-ubyte.gz"),
                                    mirror_file("kmnist/t10k-labels-idx1-ubyte.gz"))
    assert kmnist["X"].shape == (10000, 784) and kmnist["y"].shape == (10000,)
    assert 0.0 <= kmnist["X"].min() and kmnist["X"].max() <= 1.0
    np.testing.assert_array_equal(np.bincount(kmnist["y"]), [1000] * 10)


def _idx(path, magic: int, shape, payload: bytes) -> None:
    with gzip.open(path, "wb") as handle:
        handle.write(struct.pack(">I", magic) + struct.pack(f">{len(shape)}I", *shape) + payload)


def test_corrupted_idx_files_give_one_line_errors(tmp_path):
    _idx(tmp_path / "magic.gz", 0x00000D03, (1, 28, 28), bytes(784))
    with pytest.raises(ValueError, match=r"magic.gz: bad IDX magic number 0x00000d03, expected 0x00000801"):
        read_idx(tmp_path / "magic.gz")
    _idx(tmp_path / "short.gz", 0x00000803, (2, 28, 28), bytes(784))
    with pytest.raises(ValueError, match=r"short.gz: IDX header gives shape \(2, 28, 28\) = 1568 bytes of data, "
                                         r"file holds 784"):
        read_idx(tmp_path / "short.gz")
    (tmp_path / "broken.gz").write_bytes(gzip.compress(np.random.default_rng(0).bytes(2000))[:500])
    with pytest.raises(ValueError, match="broken.gz: not a readable IDX file"):
        read_idx(tmp_path / "broken.gz")
    _idx(tmp_path / "images.gz", 0x00000803, (2, 28, 28), bytes(1568))
    _idx(tmp_path / "labels.gz", 0x00000801, (3,), bytes(3))
    with pytest.raises(ValueError, match=r"labels.gz: expected 2 labels \(one per image\), got shape \(3,\)"):
        prepare_image_test_set(tmp_path / "images.gz", tmp_path / "labels.gz")
    image = read_idx(tmp_path / "images.gz")
    assert image.shape == (2, 28, 28) and image.dtype == np.uint8


# ---------------------------------------------------------------- the prepared format


def _toy() -> ClassificationSplit:
    X = np.arange(12.0).reshape(6, 2)
    y = np.array([0, 1, 2, 0, 1, 2])
    return ClassificationSplit(X[:3], y[:3], X[3:4], y[3:4], X[4:], y[4:], 3)


def test_split_round_trips_through_the_prepared_format(tmp_path):
    split = _toy()
    save_prepared(tmp_path / "s.npz", "classification_split", split.arrays(), {"seed": 0})
    loaded = ClassificationSplit.from_arrays(load_prepared(tmp_path / "s.npz", "classification_split"))
    assert loaded.n_classes == 3 and loaded.y_train.dtype == np.int64
    np.testing.assert_array_equal(loaded.X_test, split.X_test)
    ood = {"X": np.zeros((4, 784)), "y": np.arange(4)}
    save_prepared(tmp_path / "ood.npz", "image_test_set", ood)
    assert load_prepared(tmp_path / "ood.npz", "image_test_set")["X"].shape == (4, 784)


def test_check_split_errors():
    good = _toy()
    with pytest.raises(ValueError, match=r"^toy: y_test holds label 3 at row 1, outside \[0, 3\)$"):
        check_split(good._replace(y_test=np.array([1, 3])), "toy")
    with pytest.raises(ValueError, match=r"^toy: class\(es\) \[2\] of 3 missing from the training set$"):
        check_split(good._replace(y_train=np.array([0, 1, 1])), "toy")
    X = good.X_valid.copy()
    X[0, 1] = np.nan
    with pytest.raises(ValueError, match=r"^toy: X_valid holds 1 NaN/inf value\(s\) \(first at row 0, column 1\)$"):
        check_split(good._replace(X_valid=X), "toy")
    with pytest.raises(ValueError, match="toy: X_test has 3 columns, X_train has 2"):
        check_split(good._replace(X_test=np.ones((2, 3))), "toy")
    with pytest.raises(ValueError, match=r"toy: y_train must have shape \(3,\) like X_train, got \(2,\)"):
        check_split(good._replace(y_train=np.array([0, 1])), "toy")
    with pytest.raises(ValueError, match="toy: n_classes must be an integer >= 2, got 1"):
        check_split(good._replace(n_classes=1), "toy")
