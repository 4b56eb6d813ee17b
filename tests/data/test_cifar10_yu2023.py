"""CIFAR-10 split of Yu et al. (2023), Sec. 4.4: 40k train / 10k validation (seed-1 choice) / 10k test.

The official archive is not in the offline mirror, so each test builds a tiny stand-in
``cifar-10-python.tar.gz`` with the official layout (pickled dicts with ``b"data"`` uint8
``(n, 3072)`` and ``b"labels"``) in ``tmp_path``.
"""

import io
import pickle
import tarfile

import numpy as np
import pytest

from geobayes.data.cifar10_yu2023 import (
    CIFAR10_FILE,
    channel_statistics,
    prepare_cifar10_yu2023,
    read_cifar10_archive,
    read_cifar10_yu2023,
    split_indices,
    validation_indices,
)
from geobayes.data.prepared import load_prepared, save_prepared

#: ``np.random.seed(1); np.random.choice(50000, 10000, replace=False)[:8]`` (legacy RandomState).
FIRST_VALID = [26247, 35067, 34590, 16668, 12196, 2600, 9047, 2206]
PER_BATCH, N_TEST = 4, 3  # stand-in: 5 x 4 = 20 training images, 3 test images, classes 0 and 1


def _batch(rng, n, channel_offsets=(0, 60, 120)):
    images = rng.integers(0, 100, (n, 3, 32, 32)) + np.array(channel_offsets)[None, :, None, None]
    return {b"batch_label": b"stand-in", b"labels": [int(v) for v in rng.integers(0, 2, n)],
            b"data": images.astype(np.uint8).reshape(n, 3072), b"filenames": [b"x.png"] * n}


def _add(tar, name, obj):
    payload = pickle.dumps(obj, protocol=2)
    info = tarfile.TarInfo(f"cifar-10-batches-py/{name}")
    info.size = len(payload)
    tar.addfile(info, io.BytesIO(payload))


def _archive(path, skip=None, replace=None):
    rng = np.random.default_rng(0)
    members = {f"data_batch_{i}": _batch(rng, PER_BATCH) for i in range(1, 6)}
    members["test_batch"] = _batch(rng, N_TEST)
    members["batches.meta"] = {b"label_names": [b"airplane", b"automobile"], b"num_vis": 3072}
    members.update(replace or {})
    with tarfile.open(path, "w:gz") as tar:
        for name, obj in members.items():
            if name != skip:
                _add(tar, name, obj)
    return path, members


def test_validation_indices_are_the_seeded_global_choice():
    state = np.random.get_state()
    try:
        np.random.seed(1)
        expected = np.random.choice(50000, 10000, replace=False)  # the authors' exact call
    finally:
        np.random.set_state(state)
    valid = validation_indices()
    np.testing.assert_array_equal(valid, expected)
    assert valid[:8].tolist() == FIRST_VALID and valid.dtype == np.int64
    train, valid = split_indices()
    assert train.shape == (40000,) and valid.shape == (10000,) and np.all(np.diff(train) > 0)
    np.testing.assert_array_equal(np.sort(np.concatenate([train, valid])), np.arange(50000))


def test_reader_gives_nchw_batches_in_order(tmp_path):
    path, members = _archive(tmp_path / "cifar-10-python.tar.gz")
    raw = read_cifar10_archive(path)
    assert raw["train_images"].shape == (20, 3, 32, 32) and raw["train_images"].dtype == np.uint8
    assert raw["test_images"].shape == (N_TEST, 3, 32, 32) and raw["test_labels"].dtype == np.int64
    second = members["data_batch_2"]
    np.testing.assert_array_equal(raw["train_images"][PER_BATCH + 1, 2],  # row 1 of batch 2, blue plane
                                  second[b"data"][1, 2048:].reshape(32, 32))
    np.testing.assert_array_equal(raw["train_labels"][PER_BATCH:2 * PER_BATCH], second[b"labels"])


def test_prepare_split_and_train_only_standardisation(tmp_path):
    path, _ = _archive(tmp_path / "cifar-10-python.tar.gz")
    raw = read_cifar10_archive(path)
    arrays = read_cifar10_yu2023(path, verify=False, split_total=20, split_valid=5)
    train, valid = split_indices(20, 5)
    np.testing.assert_array_equal(valid, np.random.RandomState(1).choice(20, 5, replace=False))
    np.testing.assert_array_equal(arrays["train_indices"], train)
    np.testing.assert_array_equal(arrays["valid_indices"], valid)
    assert arrays["X_train"].shape == (15, 3, 32, 32) and arrays["X_valid"].shape == (5, 3, 32, 32)
    assert arrays["X_test"].shape == (N_TEST, 3, 32, 32) and arrays["X_train"].dtype == np.float64
    assert int(arrays["n_classes"]) == 10
    np.testing.assert_array_equal(arrays["y_valid"], raw["train_labels"][valid])
    # statistics of the training split only (ddof 1, as torch.std), not of all 20 training images
    pixels = raw["train_images"][train].astype(np.float64).transpose(1, 0, 2, 3).reshape(3, -1)
    np.testing.assert_allclose(arrays["channel_mean"], pixels.mean(axis=1), rtol=1e-14)
    np.testing.assert_allclose(arrays["channel_std"], pixels.std(axis=1, ddof=1), rtol=1e-14)
    assert not np.allclose(arrays["channel_mean"], raw["train_images"].mean(axis=(0, 2, 3)), rtol=1e-9)
    flat = arrays["X_train"].transpose(1, 0, 2, 3).reshape(3, -1)
    np.testing.assert_allclose(flat.mean(axis=1), 0.0, atol=1e-12)
    np.testing.assert_allclose(flat.std(axis=1, ddof=1), 1.0, rtol=1e-12)
    expected = (raw["test_images"][0].astype(np.float64) - arrays["channel_mean"][:, None, None]) \
        / arrays["channel_std"][:, None, None]
    np.testing.assert_allclose(arrays["X_test"][0], expected, rtol=1e-14)
    # truncation keeps the first images and the full split's statistics
    small = prepare_cifar10_yu2023(raw["train_images"], raw["train_labels"], raw["test_images"],
                                   raw["test_labels"], split_total=20, split_valid=5, n_train=4, n_valid=2, n_test=1)
    assert small["X_train"].shape[0] == 4 and small["X_valid"].shape[0] == 2 and small["X_test"].shape[0] == 1
    np.testing.assert_array_equal(small["channel_std"], arrays["channel_std"])
    np.testing.assert_array_equal(small["X_train"], arrays["X_train"][:4])
    out = save_prepared(tmp_path / "cifar.npz", "cifar10_yu2023", arrays)
    loaded = load_prepared(out, "cifar10_yu2023")
    np.testing.assert_array_equal(loaded["X_valid"], arrays["X_valid"])


def test_one_line_errors(tmp_path):
    path, _ = _archive(tmp_path / "missing.tar.gz", skip="data_batch_3")
    with pytest.raises(ValueError, match=r"has no member cifar-10-batches-py/data_batch_3") as error:
        read_cifar10_archive(path)
    assert "\n" not in str(error.value)
    bad = {b"data": np.zeros((2, 3000), np.uint8), b"labels": [0, 1]}
    path, _ = _archive(tmp_path / "shape.tar.gz", replace={"test_batch": bad})
    with pytest.raises(ValueError, match=r"test_batch: b'data' must be uint8 \(n, 3072\), got uint8 \(2, 3000\)"):
        read_cifar10_archive(path)
    with pytest.raises(ValueError, match="archive must be an existing"):
        read_cifar10_archive(tmp_path / "absent.tar.gz")
    (tmp_path / "text.tar.gz").write_text("not a tar")
    with pytest.raises(ValueError, match="is not a readable tar file"):
        read_cifar10_archive(tmp_path / "text.tar.gz")
    path, _ = _archive(tmp_path / "ok.tar.gz")
    raw = read_cifar10_archive(path)
    args = (raw["train_images"], raw["train_labels"], raw["test_images"], raw["test_labels"])
    with pytest.raises(ValueError, match="train_images must hold the split_total=50000"):
        prepare_cifar10_yu2023(*args)
    with pytest.raises(ValueError, match="split_valid must be an integer in"):
        prepare_cifar10_yu2023(*args, split_total=20, split_valid=20)
    with pytest.raises(ValueError, match="n_train must be an integer in"):
        prepare_cifar10_yu2023(*args, split_total=20, split_valid=5, n_train=16)
    with pytest.raises(ValueError, match=r"test_images must be NCHW"):
        prepare_cifar10_yu2023(args[0], args[1], args[2][:, :, :16], args[3], split_total=20, split_valid=5)
    with pytest.raises(ValueError, match=r"train_labels must lie in \[0, 10\)"):
        prepare_cifar10_yu2023(args[0], args[1] + 9, *args[2:], split_total=20, split_valid=5)
    with pytest.raises(ValueError, match="constant channel"):
        channel_statistics(np.zeros((2, 3, 4, 4)))
    assert CIFAR10_FILE == "cifar10/cifar-10-python.tar.gz"
