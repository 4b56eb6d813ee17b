"""USPS handwritten digits for Fig. 2 of Hartmann et al. (2026): multinomial GP on 3/5/7.

Hartmann et al. (2026), Sec. 5, Fig. 2 (notes E3) fit a three-class multinomial GP
classifier to 100 images drawn at random from the digits 3, 5 and 7 of the USPS training
images ("4699 segmented 16x16 greyscale images normalized so that the intensity of the
pixels lies in [-1, 1]"; most likely the 4649-image training half of the GPML
``usps_resampled`` re-split, in which 3/5/7 number 1157).

What the data mirror holds (``usps/zip.train.gz`` and ``usps/zip.test.gz``) is the
ORIGINAL USPS split as distributed with Hastie, Tibshirani & Friedman, *The Elements of
Statistical Learning*: 7291 training and 2007 test images, not the GPML 4649/4649
re-split (which is not obtainable; both are the same 9298 images). Each line holds the
digit label (``"6.0000"`` in the training file, ``"9"`` in the test file) followed by the
256 grey levels of a 16x16 image in row-major order, all in [-1, 1], separated by spaces.

Counts of the digits of Fig. 2 (checked by ``tests/data/test_usps.py``):

=========  ====  ====  ====  =====
split       3     5     7    3+5+7
=========  ====  ====  ====  =====
train       658   556   645   1859
test        166   160   147    473
=========  ====  ====  ====  =====

So the pool we draw from (train split, 1859 images) is larger than the paper's 1157;
only the 100-point random subset enters the model, so this changes which images can be
drawn but not the size or the form of the posterior.
"""

from __future__ import annotations

import gzip
import numbers
import os
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from geobayes.data.prepared import register_dataset

__all__ = [
    "USPS_PIXELS",
    "USPS_DIGITS",
    "UspsSubset",
    "load_usps",
    "select_digits",
    "prepare_usps_subset",
]

#: Pixels per image (16 x 16).
USPS_PIXELS = 256
#: Digits of Hartmann et al. (2026), Fig. 2; the last one (7) is the reference class.
USPS_DIGITS = (3, 5, 7)

_SUBSET_KEYS = ("X", "y", "indices", "digits", "pool_counts")


class UspsSubset(NamedTuple):
    """Inputs and class labels of the Fig. 2 subset (Hartmann et al. 2026, Sec. 5).

    Attributes
    ----------
    X : numpy.ndarray, shape (n, 256)
        Raw pixel values in [-1, 1] (the kernel uses them unscaled), float64.
    y : numpy.ndarray, shape (n,)
        Class index ``c`` (float64) = position of the digit in ``digits``; the last class
        ``C - 1`` is the reference class with ``eta_{iC} = 0``.
    indices : numpy.ndarray, shape (n,)
        Sorted int64 indices into the pool of selected-digit images (the output of
        :func:`select_digits`), not into the full file.
    class_counts : dict of int to int
        Number of images of each digit in the pool, in the order of ``digits`` (so
        ``list(class_counts)`` recovers ``digits``).
    n_pool : int
        Size of the pool, ``sum(class_counts.values())``.
    """

    X: np.ndarray
    y: np.ndarray
    indices: np.ndarray
    class_counts: dict[int, int]
    n_pool: int

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays of the prepared file: ``X``, ``y``, ``indices``, ``digits`` (int64, class
        order) and ``pool_counts`` (int64, aligned with ``digits``)."""
        return {"X": np.asarray(self.X, dtype=np.float64), "y": np.asarray(self.y, dtype=np.float64),
                "indices": np.asarray(self.indices, dtype=np.int64),
                "digits": np.asarray(list(self.class_counts), dtype=np.int64),
                "pool_counts": np.asarray(list(self.class_counts.values()), dtype=np.int64)}


#: Prepared USPS subset of Hartmann et al. (2026), Fig. 2: data/prepared/usps/.
USPS_DATASET = register_dataset("usps", _SUBSET_KEYS, "pixels and class indices of a digit subset")


def _open_text(path: Path):
    with open(path, "rb") as handle:
        magic = handle.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="ascii")
    return open(path, encoding="ascii")


def load_usps(path: str | os.PathLike[str]) -> tuple[np.ndarray, np.ndarray]:
    """Read a USPS file in the ESL text format (Hartmann et al. 2026, Fig. 2 data).

    Parameters
    ----------
    path : str or os.PathLike
        ``zip.train.gz`` / ``zip.test.gz`` (gzip is detected from the file's magic bytes,
        so an uncompressed copy works too). Blank lines are ignored.

    Returns
    -------
    images : numpy.ndarray, shape (N, 256)
        Grey levels in [-1, 1], float64, row-major 16x16.
    labels : numpy.ndarray, shape (N,)
        Digits 0..9, int64.

    Raises
    ------
    ValueError
        If a line does not hold 257 numbers, a value is not a finite number, a label is not
        an integer in 0..9 or a pixel lies outside [-1, 1]; the message names the file and
        the (1-based) line. Also if the file holds no images.
    """
    path = Path(path)
    rows: list[list[str]] = []
    line_numbers: list[int] = []
    try:
        with _open_text(path) as handle:
            for number, line in enumerate(handle, start=1):
                tokens = line.split()
                if not tokens:
                    continue
                if len(tokens) != USPS_PIXELS + 1:
                    raise ValueError(
                        f"{path}, line {number}: expected {USPS_PIXELS + 1} values (label + "
                        f"{USPS_PIXELS} pixels); got {len(tokens)}"
                    )
                rows.append(tokens)
                line_numbers.append(number)
    except (UnicodeDecodeError, EOFError, gzip.BadGzipFile) as error:
        raise ValueError(f"{path}: not a readable USPS text file ({error})") from error
    if not rows:
        raise ValueError(f"{path}: contains no images")
    try:
        array = np.array(rows, dtype=np.float64)
    except ValueError:
        for tokens, number in zip(rows, line_numbers):
            for position, token in enumerate(tokens):
                try:
                    float(token)
                except ValueError:
                    raise ValueError(
                        f"{path}, line {number}: value {position + 1} is not a number: "
                        f"{token!r}"
                    ) from None
        raise  # pragma: no cover - numpy rejected something float() accepts
    finite = np.isfinite(array).all(axis=1)
    if not finite.all():
        bad = int(np.flatnonzero(~finite)[0])
        raise ValueError(f"{path}, line {line_numbers[bad]}: non-finite value (NaN or inf)")
    raw_labels = array[:, 0]
    bad_label = (raw_labels != np.round(raw_labels)) | (raw_labels < 0) | (raw_labels > 9)
    if bad_label.any():
        bad = int(np.flatnonzero(bad_label)[0])
        raise ValueError(
            f"{path}, line {line_numbers[bad]}: label must be an integer digit 0..9; got "
            f"{raw_labels[bad]!r}"
        )
    images = np.ascontiguousarray(array[:, 1:])
    out_of_range = (np.abs(images) > 1.0).any(axis=1)
    if out_of_range.any():
        bad = int(np.flatnonzero(out_of_range)[0])
        row = images[bad]
        raise ValueError(
            f"{path}, line {line_numbers[bad]}: pixel values must lie in [-1, 1]; got range "
            f"[{row.min()!r}, {row.max()!r}]"
        )
    return images, raw_labels.astype(np.int64)


def _check_digits(digits: Sequence[int]) -> tuple[int, ...]:
    values = tuple(digits)
    for digit in values:
        if isinstance(digit, bool) or not isinstance(digit, numbers.Integral) or not (
            0 <= digit <= 9
        ):
            raise ValueError(f"digits must be integers 0..9; got {values!r}")
    if len(values) < 2 or len(set(values)) != len(values):
        raise ValueError(f"digits must be at least two distinct digits; got {values!r}")
    return tuple(int(digit) for digit in values)


def select_digits(
    images: np.ndarray, labels: np.ndarray, digits: Sequence[int] = USPS_DIGITS
) -> tuple[np.ndarray, np.ndarray]:
    """Keep the images of some digits and recode them as classes 0..C-1 (Fig. 2).

    Hartmann et al. (2026), Sec. 5 (notes E3): the multinomial model has ``C = 3`` classes
    with the reference class ``eta_{iC} = 0``. The class of an image is the position of
    its digit in ``digits``; with the default ``(3, 5, 7)`` the digit 7 is class 2, the
    reference class. The images keep their order in the file.

    Parameters
    ----------
    images : array_like, shape (N, 256)
        Output of :func:`load_usps`.
    labels : array_like of int, shape (N,)
        Digits 0..9.
    digits : sequence of int
        Distinct digits to keep, at least two; the last one is the reference class.

    Returns
    -------
    images : numpy.ndarray, shape (M, 256)
        The kept images, float64.
    classes : numpy.ndarray, shape (M,)
        Class indices 0..C-1, int64.

    Raises
    ------
    ValueError
        On mismatched shapes, invalid ``digits``, or a digit with no images.
    """
    digits = _check_digits(digits)
    images = np.asarray(images, dtype=np.float64)
    labels = np.asarray(labels)
    if images.ndim != 2 or images.shape[1] != USPS_PIXELS:
        raise ValueError(f"images must have shape (N, {USPS_PIXELS}); got {images.shape}")
    if labels.shape != (images.shape[0],):
        raise ValueError(
            f"labels must have shape ({images.shape[0]},) to match images; got {labels.shape}"
        )
    classes = np.full(labels.shape, -1, dtype=np.int64)
    for position, digit in enumerate(digits):
        match = labels == digit
        if not match.any():
            raise ValueError(f"digit {digit} (of digits {digits}) has no images")
        classes[match] = position
    keep = classes >= 0
    return np.ascontiguousarray(images[keep]), classes[keep]


def prepare_usps_subset(
    images: np.ndarray,
    labels: np.ndarray,
    *,
    digits: Sequence[int] = USPS_DIGITS,
    n_points: int = 100,
    seed: int,
) -> UspsSubset:
    """Draw the random Fig. 2 subset (Hartmann et al. 2026, Sec. 5, notes E3).

    The paper "randomly select[s] 100 data points among the three classes" without saying
    how. We draw a simple random sample (not stratified) from the pool of selected-digit
    images with ``np.random.default_rng(seed).choice(M, n_points, replace=False)`` and sort
    the indices (so rows keep their file order).

    Parameters
    ----------
    images : array_like, shape (N, 256)
        Output of :func:`load_usps` (all digits).
    labels : array_like of int, shape (N,)
        Digits 0..9.
    digits : sequence of int
        Digits to keep (paper: 3, 5, 7); the last is the reference class.
    n_points : int
        Subset size (paper: 100).
    seed : int
        Seed of :func:`numpy.random.default_rng`.

    Returns
    -------
    UspsSubset
        ``X`` (n, 256), ``y`` class indices (float64), sorted pool ``indices``, and the
        pool's per-digit counts and size.

    Raises
    ------
    ValueError
        If ``n_points`` is not an integer in ``[1, M]`` (``M`` = pool size), or on the
        errors of :func:`select_digits`.
    """
    digits = _check_digits(digits)
    pool_images, pool_classes = select_digits(images, labels, digits)
    n_pool = pool_images.shape[0]
    if isinstance(n_points, bool) or not isinstance(n_points, numbers.Integral):
        raise ValueError(f"n_points must be an integer; got {n_points!r}")
    if not 1 <= n_points <= n_pool:
        raise ValueError(
            f"n_points must be between 1 and the number of images of digits {digits} "
            f"({n_pool}); got {n_points}"
        )
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise ValueError(f"seed must be an integer; got {seed!r}")
    rng = np.random.default_rng(int(seed))
    indices = np.sort(rng.choice(n_pool, int(n_points), replace=False)).astype(np.int64)
    counts = np.bincount(pool_classes, minlength=len(digits))
    return UspsSubset(
        X=np.ascontiguousarray(pool_images[indices]),
        y=pool_classes[indices].astype(np.float64),
        indices=indices,
        class_counts={digit: int(count) for digit, count in zip(digits, counts)},
        n_pool=int(n_pool),
    )
