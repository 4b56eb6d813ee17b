"""CIFAR-10 as Yu et al. (2023), Sec. 4.4 split it: 40,000 train / 10,000 validation / 10,000 test.

The code behind the paper (notes Sec. 3.5 [C]) splits the official 50,000 training images into
40,000 training and 10,000 validation images, with the validation indices

    np.random.seed(1); np.random.choice(50000, 10000, replace=False)

(NumPy's legacy global ``RandomState``), tests on the official 10,000 test images, and
standardises each colour channel with the mean and std of the *training split*; no augmentation.
:func:`validation_indices` reproduces the draw with ``np.random.RandomState(1).choice(...)``.

The raw file is the official ``cifar-10-python.tar.gz`` (registry name :data:`CIFAR10_FILE`): a
tar of pickled dicts ``cifar-10-batches-py/data_batch_1`` .. ``data_batch_5`` and ``test_batch``,
each with ``b"data"`` (``(10000, 3072)`` uint8, rows of three 32 x 32 channel planes, i.e. NCHW
after a reshape) and ``b"labels"`` (10,000 ints). It is read with the standard library only
(:func:`read_cifar10_archive`; no torchvision); the pickles come from the checksum-pinned archive.

Conventions and decisions:

* validation images are kept in the order ``choice`` returns them; the training images are the
  other 40,000 in increasing index order (as :mod:`geobayes.data.mnist_yu2023`);
* standardisation: per channel ``(x - mean_c) / std_c`` on the raw 0..255 values, ``mean_c`` and
  ``std_c`` over all training-split pixels of channel ``c``, ``std`` with ``ddof = 1`` (bnn_priors'
  ``CIFAR10`` uses ``torch.std``, which is unbiased). bnn_priors computes in float32; we use float64
  (values differ by float32 rounding only). The statistics are those of the FULL training split,
  also when ``n_train`` truncates it, so quick runs see the same inputs as full ones;
* images are float64 NCHW ``(N, 3, 32, 32)`` (the input of :mod:`geobayes.networks.resnet20`),
  labels int64 ``0 .. 9``; the full prepared file holds 60,000 float64 images (about 1.5 GB);
* ``split_total`` / ``split_valid`` (defaults 50,000 / 10,000) are the sizes of the split, for
  stand-in archives in tests; ``n_train`` / ``n_valid`` / ``n_test`` keep the FIRST images of each
  part (quick scales); ``None`` keeps all.

The prepared file (data set :data:`CIFAR10_YU2023`) holds ``X_train, y_train, X_valid, y_valid,
X_test, y_test, n_classes``, the index arrays ``train_indices`` / ``valid_indices`` into the
official training set (after truncation) and ``channel_mean`` / ``channel_std`` (3,).
"""

from __future__ import annotations

import io
import os
import pickle
import tarfile
from pathlib import Path

import numpy as np

from geobayes.data import seeded_split
from geobayes.data.classification_split import SPLIT_ARRAYS
from geobayes.data.prepared import check_finite, register_dataset

__all__ = ["ARCHIVE_FOLDER", "CIFAR10_FILE", "CIFAR10_YU2023", "IMAGE_SHAPE", "N_CLASSES", "N_OFFICIAL_TRAIN",
           "N_VALID", "VALID_SEED", "channel_statistics", "prepare_cifar10_yu2023", "read_cifar10_archive",
           "read_cifar10_yu2023", "split_indices", "validation_indices"]

#: Official CIFAR-10 training set size, validation size and seed of the split (notes Sec. 3.5 [C]).
N_OFFICIAL_TRAIN, N_VALID, VALID_SEED = 50000, 10000, 1
#: Image shape (channels, height, width) and number of classes.
IMAGE_SHAPE, N_CLASSES = (3, 32, 32), 10
#: Registry name of the raw archive (``src/geobayes/data/registry.tsv``).
CIFAR10_FILE = "cifar10/cifar-10-python.tar.gz"
#: Folder of the pickled batches inside the archive.
ARCHIVE_FOLDER = "cifar-10-batches-py"
_TRAIN_BATCHES = tuple(f"data_batch_{i}" for i in range(1, 6))

#: The prepared CIFAR-10 split of Yu et al. (2023): images, labels, split indices, channel statistics.
CIFAR10_YU2023 = register_dataset(
    "cifar10_yu2023", (*SPLIT_ARRAYS, "train_indices", "valid_indices", "channel_mean", "channel_std"),
    "CIFAR-10 40k/10k/10k split of Yu et al. (2023): float64 NCHW images standardised per channel with "
    "training-split statistics, int64 labels, split indices, the channel mean and std",
)


def validation_indices(n: int = N_OFFICIAL_TRAIN, n_valid: int = N_VALID, seed: int = VALID_SEED) -> np.ndarray:
    """The code's held-out CIFAR-10 training indices (:func:`geobayes.data.seeded_split.validation_indices`)."""
    return seeded_split.validation_indices(n, n_valid, seed)


def split_indices(n: int = N_OFFICIAL_TRAIN, n_valid: int = N_VALID,
                  seed: int = VALID_SEED) -> tuple[np.ndarray, np.ndarray]:
    """``(train, valid)`` indices into the official CIFAR-10 training set (:func:`geobayes.data.seeded_split.split_indices`)."""
    return seeded_split.split_indices(n, n_valid, seed)


def _load_batch(archive: tarfile.TarFile, path: str, member: str) -> tuple[np.ndarray, np.ndarray]:
    name = f"{ARCHIVE_FOLDER}/{member}"
    try:
        handle = archive.extractfile(name)
    except KeyError:
        handle = None
    if handle is None:
        raise ValueError(f"archive {path} has no member {name} (not the official cifar-10-python.tar.gz?)")
    try:
        batch = pickle.load(io.BytesIO(handle.read()), encoding="bytes")
    except Exception as error:  # noqa: BLE001 - any unpickling failure is one bad member
        raise ValueError(f"archive {path} member {name} is not a pickled batch: {error}") from None
    if not isinstance(batch, dict) or b"data" not in batch or b"labels" not in batch:
        raise ValueError(f"archive {path} member {name} must be a dict with keys b'data' and b'labels'")
    data, labels = np.asarray(batch[b"data"]), np.asarray(batch[b"labels"])
    pixels = int(np.prod(IMAGE_SHAPE))
    if data.ndim != 2 or data.shape[1] != pixels or data.dtype != np.uint8:
        raise ValueError(f"archive {path} member {name}: b'data' must be uint8 (n, {pixels}), "
                         f"got {data.dtype} {data.shape}")
    if labels.shape != (data.shape[0],) or not np.issubdtype(labels.dtype, np.integer):
        raise ValueError(f"archive {path} member {name}: b'labels' must be {data.shape[0]} integers, "
                         f"got {labels.dtype} {labels.shape}")
    return data.reshape(-1, *IMAGE_SHAPE), labels.astype(np.int64)


def read_cifar10_archive(archive: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The official training and test images of ``cifar-10-python.tar.gz``, uint8 NCHW.

    Parameters
    ----------
    archive : str or os.PathLike
        Path of the tar.gz (members ``cifar-10-batches-py/data_batch_1`` .. ``_5``, ``test_batch``).

    Returns
    -------
    dict
        ``train_images`` (uint8 ``(N, 3, 32, 32)``, the five data batches in order),
        ``train_labels`` (int64 ``(N,)``), ``test_images`` and ``test_labels``.

    Raises
    ------
    ValueError
        One line naming the archive (and member) if ``archive`` is not a readable tar file, a
        member is missing or not a pickled ``{b"data", b"labels"}`` dict, or ``b"data"`` is not
        uint8 ``(n, 3072)`` with ``n`` labels.
    """
    path = os.fspath(archive)
    if not Path(path).is_file():
        raise ValueError(f"archive must be an existing cifar-10-python.tar.gz file, got {path}")
    try:
        tar = tarfile.open(path, "r:*")
    except (tarfile.TarError, OSError) as error:
        raise ValueError(f"archive {path} is not a readable tar file: {error}") from None
    with tar:
        train = [_load_batch(tar, path, member) for member in _TRAIN_BATCHES]
        test_images, test_labels = _load_batch(tar, path, "test_batch")
    return {"train_images": np.concatenate([b[0] for b in train]),
            "train_labels": np.concatenate([b[1] for b in train]),
            "test_images": test_images, "test_labels": test_labels}


def channel_statistics(images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel ``(mean, std)`` of NCHW ``images`` over ``(N, H, W)``, float64, ``std`` with
    ``ddof = 1`` (``torch.std(X, (0, 2, 3))``).

    Raises
    ------
    ValueError
        If ``images`` is not 4-D with at least two values per channel, or a std is 0.
    """
    x = np.asarray(images, dtype=np.float64)
    if x.ndim != 4 or x.shape[0] * x.shape[2] * x.shape[3] < 2:
        raise ValueError(f"images must be NCHW with at least 2 values per channel, got shape {x.shape}")
    mean, std = x.mean(axis=(0, 2, 3)), x.std(axis=(0, 2, 3), ddof=1)
    if not np.all(std > 0):
        raise ValueError(f"images have a constant channel (std {std.tolist()}); cannot standardise")
    return mean, std


def _first(indices: np.ndarray, n: int | None, name: str) -> np.ndarray:
    if n is None:
        return indices
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= indices.size:
        raise ValueError(f"{name} must be an integer in [0, {indices.size}] or None, got {n!r}")
    return indices[: int(n)]


def _check_images(images: np.ndarray, labels: np.ndarray, name: str, labels_name: str) -> None:
    if images.ndim != 4 or images.shape[1:] != IMAGE_SHAPE:
        raise ValueError(f"{name} must be NCHW images (N, 3, 32, 32), got {images.dtype} {images.shape}")
    if labels.shape != images.shape[:1] or not np.issubdtype(labels.dtype, np.integer):
        raise ValueError(f"{labels_name} must be ({images.shape[0]},) integer labels, "
                         f"got {labels.dtype} {labels.shape}")
    bad = np.flatnonzero((labels < 0) | (labels >= N_CLASSES))
    if bad.size:
        raise ValueError(f"{labels_name} must lie in [0, {N_CLASSES}); {labels_name}[{bad[0]}] = {int(labels[bad[0]])}")


def prepare_cifar10_yu2023(train_images: np.ndarray, train_labels: np.ndarray, test_images: np.ndarray,
                           test_labels: np.ndarray, *, split_total: int = N_OFFICIAL_TRAIN,
                           split_valid: int = N_VALID, n_train: int | None = None, n_valid: int | None = None,
                           n_test: int | None = None) -> dict[str, np.ndarray]:
    """The arrays of the prepared data set :data:`CIFAR10_YU2023` (Yu et al. 2023, Sec. 4.4).

    Parameters
    ----------
    train_images, test_images : numpy.ndarray, shape (N, 3, 32, 32)
        Official training (50,000) and test (10,000) images, raw 0..255 values
        (:func:`read_cifar10_archive`).
    train_labels, test_labels : numpy.ndarray, shape (N,)
        Their labels ``0 .. 9``.
    split_total, split_valid : int, optional
        Number of official training images and of validation images drawn from them (the
        code's 50,000 and 10,000; smaller for stand-in data).
    n_train, n_valid, n_test : int or None, optional
        Keep only the first ``n`` images of that part (``None``: all of them).

    Returns
    -------
    dict
        ``X_train, y_train, X_valid, y_valid, X_test, y_test`` (float64 NCHW standardised images,
        int64 labels), ``n_classes = 10``, ``train_indices`` / ``valid_indices`` (int64 rows of the
        official training set) and ``channel_mean`` / ``channel_std`` (float64 (3,), of the full
        training split, raw pixel units).

    Raises
    ------
    ValueError
        One line naming the argument if the training set does not hold ``split_total`` images,
        images are not ``(N, 3, 32, 32)``, labels do not match or lie outside ``0 .. 9``,
        ``split_valid`` is out of range, or an ``n_*`` is out of range.
    """
    train_images, test_images = np.asarray(train_images), np.asarray(test_images)
    train_labels, test_labels = np.asarray(train_labels), np.asarray(test_labels)
    _check_images(train_images, train_labels, "train_images", "train_labels")
    _check_images(test_images, test_labels, "test_images", "test_labels")
    if train_images.shape[0] != split_total:
        raise ValueError(f"train_images must hold the split_total={split_total} official training images, "
                         f"got {train_images.shape[0]}")
    if isinstance(split_valid, bool) or not isinstance(split_valid, (int, np.integer)) or \
            not 0 < split_valid < split_total:
        raise ValueError(f"split_valid must be an integer in (0, split_total={split_total}), got {split_valid!r}")
    train, valid = split_indices(split_total, split_valid)
    mean, std = channel_statistics(train_images[train])
    train = _first(train, n_train, "n_train")
    valid = _first(valid, n_valid, "n_valid")
    test = _first(np.arange(test_images.shape[0]), n_test, "n_test")

    def standardise(images):
        return (images.astype(np.float64) - mean[None, :, None, None]) / std[None, :, None, None]

    arrays = {
        "X_train": standardise(train_images[train]), "y_train": train_labels[train].astype(np.int64),
        "X_valid": standardise(train_images[valid]), "y_valid": train_labels[valid].astype(np.int64),
        "X_test": standardise(test_images[test]), "y_test": test_labels[test].astype(np.int64),
        "n_classes": np.int64(N_CLASSES), "train_indices": train, "valid_indices": valid,
        "channel_mean": mean, "channel_std": std,
    }
    check_finite(arrays, "CIFAR-10 split of Yu et al. (2023)")
    return arrays


def read_cifar10_yu2023(archive: str | os.PathLike[str], *, verify: bool = True, split_total: int = N_OFFICIAL_TRAIN,
                        split_valid: int = N_VALID, n_train: int | None = None, n_valid: int | None = None,
                        n_test: int | None = None) -> dict[str, np.ndarray]:
    """Read ``cifar-10-python.tar.gz`` at ``archive`` and :func:`prepare_cifar10_yu2023` it.

    Parameters
    ----------
    archive : str or os.PathLike
        The archive (the mirror's ``cifar10/cifar-10-python.tar.gz``).
    verify : bool, optional
        Check its size and sha256 against the registry entry :data:`CIFAR10_FILE` first
        (:func:`geobayes.data.verify.verified`).
    split_total, split_valid, n_train, n_valid, n_test
        As :func:`prepare_cifar10_yu2023`.

    Raises
    ------
    geobayes.data.download.DataSourceError, geobayes.data.download.ChecksumMismatchError
        If the file is missing or differs from the registry (with ``verify``).
    ValueError
        From :func:`read_cifar10_archive` or :func:`prepare_cifar10_yu2023`.
    """
    if verify:
        from geobayes.data.verify import verified

        archive = verified(archive, CIFAR10_FILE)
    raw = read_cifar10_archive(archive)
    return prepare_cifar10_yu2023(raw["train_images"], raw["train_labels"], raw["test_images"], raw["test_labels"],
                                  split_total=split_total, split_valid=split_valid, n_train=n_train,
                                  n_valid=n_valid, n_test=n_test)
