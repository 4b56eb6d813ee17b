"""MNIST-style image sets of Bergamin et al. (2023), Sec. 5.2, App. D.5-D.6 (Tables 3, 7-10).

In-distribution sets (MNIST, FashionMNIST; notes Sec. 2.6), as the authors' loaders
``get_subsampled_MNIST`` / ``get_subsampled_FMNIST`` (``datautils.py``, commit ef5dba89) build them:

* training: 500 images of each class, 5,000 in all. Their code takes the first 500 of each
  class in the order of a shuffled torch ``DataLoader``; that order comes from the global
  torch RNG after whatever the (unreleased) experiment script drew before, so it cannot be
  reproduced. :func:`balanced_training_subset` keeps the algorithm (a random permutation, then
  the first ``per_class`` of each class in permutation order) with the permutation drawn from
  ``numpy.random.default_rng(seed)``. This is a deliberate deviation: the images differ from
  the authors' (unknowable) subset, while the subset's size, balance and randomness per seed
  are the same;
* validation / test: the official 10,000-image test set split by
  ``torch.utils.data.random_split(test_set, [2000, 8000], generator=torch.Generator().manual_seed(42))``,
  the same in every run. :func:`test_valid_split` reproduces it exactly without torch
  (``tests/data/test_classification_splits.py`` checks it against ``random_split`` itself);
* pixels: ``transforms.ToTensor()`` only, i.e. ``uint8 / 255`` in [0, 1] and no normalisation;
  stored in float64 (ToTensor gives float32; the values differ by float32 rounding only), each
  28 x 28 image flattened row-major to 784 features (the network reshapes to (1, 28, 28)).

Out-of-distribution sets (App. D.6, Tables 9-10; notes Sec. 2.7): the full official test set of
FashionMNIST/MNIST, KMNIST (10,000 each) and EMNIST ``digits`` (40,000), ToTensor only
(:func:`prepare_image_test_set`). torchvision does not transpose EMNIST images (they are stored
transposed relative to MNIST) and neither did the authors' loader; ``transpose=False`` keeps
that, ``transpose=True`` turns them upright.

Files are the gzipped IDX files of the registry (``mnist/``, ``fashion_mnist/``, ``kmnist/``):
a big-endian header ``0x0000 <type 0x08 = uint8> <ndim>`` and one uint32 size per dimension,
then the data.
"""

from __future__ import annotations

import gzip
import os
import struct
from pathlib import Path

import numpy as np

from geobayes.data.classification_split import ClassificationSplit, check_split

__all__ = [
    "IMAGE_PIXELS",
    "balanced_training_subset",
    "prepare_image_test_set",
    "prepare_mnist_like",
    "read_idx",
    "test_valid_split",
    "torch_randperm",
]

#: Pixels of a flattened 28 x 28 image.
IMAGE_PIXELS = 28 * 28

#: torch's CPU ``randperm`` draws 32-bit numbers below this size (above, 64-bit ones).
_RANDPERM_32BIT_LIMIT = (2**32 - 1) // 20


def _open_maybe_gzip(path: Path):
    with open(path, "rb") as handle:
        magic = handle.read(2)
    return gzip.open(path, "rb") if magic == b"\x1f\x8b" else open(path, "rb")


def read_idx(path: str | os.PathLike[str]) -> np.ndarray:
    """Read an unsigned-byte IDX file (gzipped or not): images ``(N, 28, 28)`` or labels ``(N,)``.

    Parameters
    ----------
    path : str or os.PathLike
        An ``*-idx3-ubyte[.gz]`` (images) or ``*-idx1-ubyte[.gz]`` (labels) file.

    Returns
    -------
    numpy.ndarray
        uint8 array of the shape the header gives (``(N, rows, cols)`` for images).

    Raises
    ------
    ValueError
        One line naming the file, if it is not readable gzip, the magic number is not
        ``0x0801`` / ``0x0803`` (unsigned bytes, 1 or 3 dimensions), the header is truncated,
        or the data size differs from the header's dimensions.
    """
    path = Path(path)
    try:
        with _open_maybe_gzip(path) as handle:
            content = handle.read()
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        raise ValueError(f"{path}: not a readable IDX file ({error})") from error
    if len(content) < 4:
        raise ValueError(f"{path}: {len(content)} bytes, too short for an IDX header")
    zero, dtype_code, ndim = struct.unpack(">HBB", content[:4])
    if zero != 0 or dtype_code != 0x08 or ndim not in (1, 3):
        raise ValueError(f"{path}: bad IDX magic number 0x{content[:4].hex()}, expected 0x00000801 (labels) "
                         f"or 0x00000803 (images) of unsigned bytes")
    header = 4 + 4 * ndim
    if len(content) < header:
        raise ValueError(f"{path}: truncated IDX header ({len(content)} bytes, expected {header})")
    shape = struct.unpack(f">{ndim}I", content[4:header])
    expected = int(np.prod(shape, dtype=np.int64))
    actual = len(content) - header
    if actual != expected:
        raise ValueError(f"{path}: IDX header gives shape {shape} = {expected} bytes of data, file holds {actual}")
    return np.frombuffer(content, dtype=np.uint8, offset=header).reshape(shape).copy()


def torch_randperm(n: int, seed: int) -> np.ndarray:
    """``torch.randperm(n, generator=torch.Generator().manual_seed(seed))`` without torch.

    torch's CPU generator is a 32-bit Mersenne Twister seeded like NumPy's legacy
    ``RandomState(seed)``; for ``n`` below ``(2**32 - 1) // 20`` its ``randperm`` is the
    Fisher-Yates shuffle ``for i in 0..n-2: swap(r[i], r[i + u_i % (n - i)])`` of ``0..n-1``,
    ``u_i`` the i-th raw 32-bit draw.

    Raises
    ------
    ValueError
        If ``n`` is negative or too large for the 32-bit path, or ``seed`` outside [0, 2**32).
    """
    if not 0 <= int(n) < _RANDPERM_32BIT_LIMIT:
        raise ValueError(f"torch_randperm: n must be in [0, {_RANDPERM_32BIT_LIMIT}), got {n}")
    if not 0 <= int(seed) < 2**32:
        raise ValueError(f"torch_randperm: seed must be in [0, 2**32), got {seed}")
    n = int(n)
    draws = np.random.RandomState(int(seed)).randint(0, 2**32, size=max(n - 1, 0), dtype=np.uint64)
    offsets = (draws % np.arange(n, 1, -1, dtype=np.uint64)).astype(np.int64).tolist()
    order = list(range(n))
    for i, offset in enumerate(offsets):
        j = i + offset
        order[i], order[j] = order[j], order[i]
    return np.asarray(order, dtype=np.int64)


def test_valid_split(n: int = 10000, n_valid: int = 2000, seed: int = 42) -> tuple[np.ndarray, np.ndarray]:
    """Indices of ``random_split(range(n), [n_valid, n - n_valid], torch.Generator().manual_seed(seed))``.

    Bergamin et al.'s split of the official 10,000-image test set into 2,000 validation and
    8,000 test images (App. D.5; notes Sec. 2.6), bit for bit: ``random_split`` draws
    ``randperm(n)`` (:func:`torch_randperm`) and cuts it in that order.

    Returns
    -------
    valid : numpy.ndarray, shape (n_valid,)
        int64 indices, in the order ``random_split`` lists them.
    test : numpy.ndarray, shape (n - n_valid,)
        int64 indices, likewise.

    Raises
    ------
    ValueError
        If ``n_valid`` is not in ``[0, n]`` (naming both).
    """
    if not 0 <= int(n_valid) <= int(n):
        raise ValueError(f"test_valid_split: n_valid must be in [0, n={n}], got {n_valid}")
    order = torch_randperm(n, seed)
    return order[: int(n_valid)], order[int(n_valid):]


test_valid_split.__test__ = False  # a function of this module, not a pytest test


def balanced_training_subset(labels: np.ndarray, per_class: int, seed: int) -> np.ndarray:
    """The first ``per_class`` images of each class in a random order (sorted indices).

    Parameters
    ----------
    labels : numpy.ndarray, shape (N,)
        Class labels of the full training set.
    per_class : int
        Images per class (500 in Bergamin et al. 2023, App. D.5).
    seed : int
        Seed of :func:`numpy.random.default_rng`, whose permutation of ``0..N-1`` replaces the
        authors' shuffled torch ``DataLoader`` order (see the module docstring).

    Returns
    -------
    numpy.ndarray
        ``per_class * C`` sorted int64 indices, exactly ``per_class`` of each class.

    Raises
    ------
    ValueError
        If ``labels`` is not 1-D, ``per_class`` is below 1, or a class has fewer images
        (naming the class and its count).
    """
    labels = np.asarray(labels)
    if labels.ndim != 1:
        raise ValueError(f"balanced_training_subset: labels must be 1-D, got shape {labels.shape}")
    if int(per_class) < 1:
        raise ValueError(f"balanced_training_subset: per_class must be >= 1, got {per_class}")
    order = np.random.default_rng(seed).permutation(labels.shape[0])
    chosen = []
    for value in np.unique(labels):
        members = order[labels[order] == value]
        if members.size < per_class:
            raise ValueError(f"balanced_training_subset: class {value} has {members.size} images, "
                             f"fewer than per_class={per_class}")
        chosen.append(members[:per_class])
    return np.sort(np.concatenate(chosen)).astype(np.int64)


def _pixels(images: np.ndarray, where: str, transpose: bool = False) -> np.ndarray:
    images = np.asarray(images)
    if images.ndim != 3 or images.shape[1:] != (28, 28) or images.dtype != np.uint8:
        raise ValueError(f"{where}: expected uint8 images (N, 28, 28), got {images.dtype} {images.shape}")
    if transpose:
        images = images.transpose(0, 2, 1)
    return images.reshape(images.shape[0], IMAGE_PIXELS).astype(np.float64) / 255.0


def _labels(labels: np.ndarray, n: int, where: str) -> np.ndarray:
    labels = np.asarray(labels)
    if labels.shape != (n,):
        raise ValueError(f"{where}: expected {n} labels (one per image), got shape {labels.shape}")
    return labels.astype(np.int64)


def prepare_mnist_like(train_images: np.ndarray, train_labels: np.ndarray, test_images: np.ndarray,
                       test_labels: np.ndarray, *, per_class: int, seed: int, n_valid: int = 2000,
                       split_seed: int = 42) -> ClassificationSplit:
    """Balanced training subset and the fixed valid/test split (Bergamin et al. 2023, App. D.5).

    Parameters
    ----------
    train_images, test_images : numpy.ndarray, shape (N, 28, 28), uint8
        Official training and test images (:func:`read_idx`).
    train_labels, test_labels : numpy.ndarray, shape (N,)
        Their labels ``0 .. 9``.
    per_class : int
        Training images per class (500).
    seed : int
        Seed of the training subset (:func:`balanced_training_subset`), one per experiment seed.
    n_valid, split_seed : int, optional
        Validation images taken from the test set and the torch seed of that split (2000, 42).

    Returns
    -------
    ClassificationSplit
        ``X_*`` (N, 784) float64 pixels in [0, 1]; ``y_*`` int64; 5,000 / 2,000 / 8,000 images
        for ``per_class=500``; ``n_classes`` the number of training classes (10).

    Raises
    ------
    ValueError
        If images are not uint8 (N, 28, 28), label counts differ from image counts, a class
        has fewer than ``per_class`` images, or the labels are not ``0 .. C-1``.
    """
    y_all = _labels(train_labels, np.shape(train_images)[0], "training labels")
    y_test_all = _labels(test_labels, np.shape(test_images)[0], "test labels")
    X_all = np.asarray(train_images)
    _pixels(X_all[:0], "training images")  # shape/dtype check before indexing
    chosen = balanced_training_subset(y_all, per_class, seed)
    valid, test = test_valid_split(y_test_all.shape[0], n_valid, split_seed)
    X_test_all = _pixels(test_images, "test images")
    split = ClassificationSplit(_pixels(X_all[chosen], "training images"), y_all[chosen], X_test_all[valid],
                                y_test_all[valid], X_test_all[test], y_test_all[test], int(np.unique(y_all).size))
    return check_split(split, f"MNIST-like split (per_class {per_class}, seed {seed})")


def prepare_image_test_set(images_path: str | os.PathLike[str], labels_path: str | os.PathLike[str], *,
                           transpose: bool = False) -> dict[str, np.ndarray]:
    """A full official test set for out-of-distribution evaluation (Bergamin et al. 2023, App. D.6).

    Parameters
    ----------
    images_path, labels_path : str or os.PathLike
        The set's ``*-images-idx3-ubyte.gz`` and ``*-labels-idx1-ubyte.gz``.
    transpose : bool, optional
        Swap each image's rows and columns (EMNIST's stored orientation is transposed relative
        to MNIST); ``False`` (default) is what the authors' torchvision loader fed the networks.

    Returns
    -------
    dict
        ``X`` (N, 784) float64 pixels in [0, 1] and ``y`` (N,) int64 labels: the arrays of
        :data:`geobayes.data.classification_split.IMAGE_TEST_SET`.

    Raises
    ------
    ValueError
        From :func:`read_idx`, or if the images are not (N, 28, 28) or the label count differs
        (naming the labels file).
    """
    images = read_idx(images_path)
    X = _pixels(images, os.fspath(images_path), transpose)
    y = _labels(read_idx(labels_path), X.shape[0], os.fspath(labels_path))
    return {"X": X, "y": y}
