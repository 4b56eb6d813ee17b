"""MNIST as Yu et al. (2023), Sec. 4.3 split it: 50,000 train / 10,000 validation / 10,000 test.

The code behind the paper (notes Sec. 3.4 [C], Sec. 8.1 item 2) splits the official 60,000
training images into 50,000 training and 10,000 validation images, with the validation indices

    np.random.seed(1); np.random.choice(60000, 10000, replace=False)

(NumPy's legacy global ``RandomState``; stored as ``index_val.pkl`` in the authors' repository),
and tests on the official 10,000 test images. :func:`validation_indices` reproduces the draw
exactly with ``np.random.RandomState(1).choice(...)``, which is the same generator and stream as
the seeded global one (legacy ``choice`` without replacement is ``permutation(60000)[:10000]``).

Conventions and decisions:

* validation images are kept in the order ``choice`` returns them; the training images are the
  other 50,000 in increasing index order (the order of the authors' training set is not stated;
  it only matters through the shuffled mini-batches, which a sampler draws itself);
* pixels: bnn_priors' ``MNIST().norm``, i.e. ``uint8 / 255`` flattened row-major to 784, no
  augmentation. bnn_priors divides in float32; we store float64 (values differ by float32
  rounding only), the project's convention;
* ``n_train`` / ``n_valid`` / ``n_test`` keep the FIRST images of each part (quick and tiny
  scales); the full split is ``None, None, None``.

The prepared file (data set :data:`MNIST_YU2023`) holds the arrays of
:class:`~geobayes.data.classification_split.ClassificationSplit` plus the index arrays
``train_indices`` and ``valid_indices`` into the official training set (the split artefact the
notes ask for, Sec. 8.1 item 2), after any ``n_*`` truncation. Raw files are read with
:func:`geobayes.data.mnist_family.read_idx`.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from geobayes.data import seeded_split
from geobayes.data.classification_split import SPLIT_ARRAYS, ClassificationSplit, check_split
from geobayes.data.mnist_family import IMAGE_PIXELS, read_idx
from geobayes.data.prepared import register_dataset

__all__ = ["MNIST_FILES", "MNIST_YU2023", "N_OFFICIAL_TRAIN", "N_VALID", "VALID_SEED", "prepare_mnist_yu2023",
           "read_mnist_yu2023", "split_indices", "validation_indices"]

#: Official MNIST training set size, validation size and seed of the split (notes Sec. 3.4 [C]).
N_OFFICIAL_TRAIN, N_VALID, VALID_SEED = 60000, 10000, 1

#: Registry names of the four raw files (``src/geobayes/data/registry.tsv``).
MNIST_FILES = {
    "train_images": "mnist/train-images-idx3-ubyte.gz",
    "train_labels": "mnist/train-labels-idx1-ubyte.gz",
    "test_images": "mnist/t10k-images-idx3-ubyte.gz",
    "test_labels": "mnist/t10k-labels-idx1-ubyte.gz",
}

#: The prepared MNIST split of Yu et al. (2023): a classification split plus its index arrays.
MNIST_YU2023 = register_dataset(
    "mnist_yu2023", (*SPLIT_ARRAYS, "train_indices", "valid_indices"),
    "MNIST 50k/10k/10k split of Yu et al. (2023): pixels/255 (float64), int64 labels, split indices",
)


def validation_indices(n: int = N_OFFICIAL_TRAIN, n_valid: int = N_VALID, seed: int = VALID_SEED) -> np.ndarray:
    """The code's held-out MNIST training indices (:func:`geobayes.data.seeded_split.validation_indices`)."""
    return seeded_split.validation_indices(n, n_valid, seed)


def split_indices(n: int = N_OFFICIAL_TRAIN, n_valid: int = N_VALID,
                  seed: int = VALID_SEED) -> tuple[np.ndarray, np.ndarray]:
    """``(train, valid)`` indices into the official MNIST training set (:func:`geobayes.data.seeded_split.split_indices`)."""
    return seeded_split.split_indices(n, n_valid, seed)


def _pixels(images: np.ndarray, name: str) -> np.ndarray:
    images = np.asarray(images)
    if images.ndim != 3 or images.shape[1:] != (28, 28) or images.dtype != np.uint8:
        raise ValueError(f"{name} must be uint8 images (N, 28, 28), got {images.dtype} {images.shape}")
    return images.reshape(images.shape[0], IMAGE_PIXELS).astype(np.float64) / 255.0


def _first(indices: np.ndarray, n: int | None, name: str) -> np.ndarray:
    if n is None:
        return indices
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= indices.size:
        raise ValueError(f"{name} must be an integer in [0, {indices.size}] or None, got {n!r}")
    return indices[: int(n)]


def prepare_mnist_yu2023(train_images: np.ndarray, train_labels: np.ndarray, test_images: np.ndarray,
                         test_labels: np.ndarray, *, n_train: int | None = None, n_valid: int | None = None,
                         n_test: int | None = None) -> dict[str, np.ndarray]:
    """The arrays of the prepared data set :data:`MNIST_YU2023` (Yu et al. 2023, Sec. 4.3).

    Parameters
    ----------
    train_images, test_images : numpy.ndarray, shape (N, 28, 28), uint8
        Official training (60,000) and test (10,000) images (:func:`read_idx`).
    train_labels, test_labels : numpy.ndarray, shape (N,)
        Their labels ``0 .. 9``.
    n_train, n_valid, n_test : int or None, optional
        Keep only the first ``n`` images of that part (``None``: all of them).

    Returns
    -------
    dict
        ``X_train, y_train, X_valid, y_valid, X_test, y_test, n_classes`` (float64 pixels in
        [0, 1] of shape (N, 784), int64 labels, ``n_classes = 10``), ``train_indices`` and
        ``valid_indices`` (int64 rows of the official training set).

    Raises
    ------
    ValueError
        If the training set does not have 60,000 images, images are not uint8 (N, 28, 28), label
        counts differ from image counts, or an ``n_*`` is out of range (each naming the argument).
    """
    train_images, test_images = np.asarray(train_images), np.asarray(test_images)
    if train_images.shape[:1] != (N_OFFICIAL_TRAIN,):
        raise ValueError(f"train_images must hold the {N_OFFICIAL_TRAIN} official training images, "
                         f"got shape {train_images.shape}")
    for name, labels, images in (("train_labels", train_labels, train_images),
                                 ("test_labels", test_labels, test_images)):
        if np.shape(labels) != images.shape[:1]:
            raise ValueError(f"{name} must have one label per image, shape ({images.shape[0]},), "
                             f"got {np.shape(labels)}")
    train, valid = split_indices()
    train = _first(train, n_train, "n_train")
    valid = _first(valid, n_valid, "n_valid")
    test = _first(np.arange(test_images.shape[0]), n_test, "n_test")
    y_all, y_test_all = np.asarray(train_labels).astype(np.int64), np.asarray(test_labels).astype(np.int64)
    split = ClassificationSplit(
        _pixels(train_images[train], "train_images"), y_all[train],
        _pixels(train_images[valid], "train_images"), y_all[valid],
        _pixels(test_images[test], "test_images"), y_test_all[test], 10,
    )
    check_split(split, "MNIST split of Yu et al. (2023)")
    return {**split.arrays(), "train_indices": train, "valid_indices": valid}


def read_mnist_yu2023(directory: str | os.PathLike[str], *, verify: bool = True, n_train: int | None = None,
                      n_valid: int | None = None, n_test: int | None = None) -> dict[str, np.ndarray]:
    """Read the four raw MNIST files from ``directory`` and :func:`prepare_mnist_yu2023` them.

    Parameters
    ----------
    directory : str or os.PathLike
        Folder holding ``train-images-idx3-ubyte.gz`` etc. (the mirror's ``mnist/``).
    verify : bool, optional
        Check each file's size and sha256 against the registry first
        (:func:`geobayes.data.verify.verified`).
    n_train, n_valid, n_test : int or None, optional
        As :func:`prepare_mnist_yu2023`.

    Raises
    ------
    geobayes.data.download.DataSourceError, geobayes.data.download.ChecksumMismatchError
        If a file is missing or differs from the registry (with ``verify``).
    ValueError
        From :func:`read_idx` or :func:`prepare_mnist_yu2023`.
    """
    from geobayes.data.verify import verified

    paths = {}
    for key, registered in MNIST_FILES.items():
        path = Path(directory) / Path(registered).name
        paths[key] = verified(path, registered) if verify else path
    raw = {key: read_idx(path) for key, path in paths.items()}
    return prepare_mnist_yu2023(raw["train_images"], raw["train_labels"], raw["test_images"], raw["test_labels"],
                                n_train=n_train, n_valid=n_valid, n_test=n_test)
