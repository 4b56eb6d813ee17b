"""The one prepared format of every classification data set: train / valid / test and ``C``.

Bergamin et al. (2023), Sec. 5.2 and App. D.2-D.6 fit every classifier (banana, pinwheel,
the six UCI sets, MNIST and FashionMNIST) to a training set, tune nothing on the validation
set that the tables depend on, and report metrics on a held-out test set (notes Secs. 2.3-2.6).
Each data module of :mod:`geobayes.data` returns a :class:`ClassificationSplit`, which the
prepare step writes with :func:`geobayes.data.prepared.save_prepared` under the data set
:data:`CLASSIFICATION_SPLIT`; out-of-distribution test images (Bergamin et al. 2023,
App. D.6, Tables 9-10; notes Sec. 2.7) are written under :data:`IMAGE_TEST_SET`.

Conventions: features ``X_*`` are float64 ``(N, d)``; labels ``y_*`` are int64 class indices
``0 .. C-1``; ``n_classes`` is an int64 scalar ``C``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from geobayes.data.prepared import register_dataset

__all__ = ["CLASSIFICATION_SPLIT", "IMAGE_TEST_SET", "SPLIT_ARRAYS", "ClassificationSplit", "check_split"]

#: Arrays of a prepared classification split, in order.
SPLIT_ARRAYS = ("X_train", "y_train", "X_valid", "y_valid", "X_test", "y_test", "n_classes")

#: A prepared classification data set (Bergamin et al. 2023, Sec. 5.2, App. D.2-D.5).
CLASSIFICATION_SPLIT = register_dataset(
    "classification_split", SPLIT_ARRAYS,
    "float64 features and int64 labels 0..C-1 of a train/valid/test split, and C",
)

#: Out-of-distribution test images (Bergamin et al. 2023, App. D.6): X (N, 784) in [0, 1], y (N,).
IMAGE_TEST_SET = register_dataset(
    "image_test_set", ("X", "y"),
    "a full official image test set, flattened, pixels in [0, 1] (float64), int64 labels",
)

#: A trained classifier's network file (rule train_classifier): its split, the training inputs and
#: labels again as ``X``, ``y`` (what a posterior reads), the trained weights and one prior's variance.
TRAINED_CLASSIFIER = register_dataset(
    "trained_classifier", (*SPLIT_ARRAYS, "X", "y", "theta_trained", "prior_variance"),
    "a classification split with the trained weights and the prior variance of one prior setting",
)

_PARTS = ("train", "valid", "test")


class ClassificationSplit(NamedTuple):
    """A classification data set split into training, validation and test sets.

    Attributes
    ----------
    X_train, X_valid, X_test : numpy.ndarray, shape (N_part, d)
        Features, float64.
    y_train, y_valid, y_test : numpy.ndarray, shape (N_part,)
        Class indices in ``0 .. n_classes - 1``, int64.
    n_classes : int
        Number of classes ``C``.
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_valid: np.ndarray
    y_valid: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    n_classes: int

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays of the prepared file (:data:`SPLIT_ARRAYS`), X float64, y and C int64."""
        out: dict[str, np.ndarray] = {}
        for part in _PARTS:
            out[f"X_{part}"] = np.asarray(getattr(self, f"X_{part}"), dtype=np.float64)
            out[f"y_{part}"] = np.asarray(getattr(self, f"y_{part}"), dtype=np.int64)
        out["n_classes"] = np.int64(self.n_classes)
        return out

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, Any]) -> ClassificationSplit:
        """Rebuild a split from a mapping holding :data:`SPLIT_ARRAYS` (e.g. a loaded prepared file)."""
        return cls(*(arrays[name] for name in SPLIT_ARRAYS[:-1]), int(arrays["n_classes"]))

    def sizes(self) -> tuple[int, int, int]:
        """``(N_train, N_valid, N_test)``."""
        return tuple(int(np.shape(getattr(self, f"y_{part}"))[0]) for part in _PARTS)


def check_split(split: ClassificationSplit, where: str) -> ClassificationSplit:
    """Check a split's shapes, dtypes, labels and finiteness; return it unchanged.

    Parameters
    ----------
    split
        The split to check.
    where
        What the split is (a file or a data set name), the start of every message.

    Returns
    -------
    ClassificationSplit
        ``split`` itself, so constructors can ``return check_split(...)``.

    Raises
    ------
    ValueError
        One line naming ``where``, the array and expected vs. actual, if: ``n_classes`` is not
        an integer >= 2; an ``X`` is not 2-D or the three ``X`` differ in column count; a ``y``
        is not 1-D, not integer-valued or its length differs from its ``X``'s rows; the training
        or test set is empty; a label lies outside ``[0, C)``; a class is missing from the
        training set; or an ``X`` holds NaN/inf.
    """
    n_classes = split.n_classes
    if np.ndim(n_classes) != 0 or not float(n_classes).is_integer() or int(n_classes) < 2:
        raise ValueError(f"{where}: n_classes must be an integer >= 2, got {n_classes!r}")
    n_classes = int(n_classes)
    columns = None
    for part in _PARTS:
        X, y = np.asarray(getattr(split, f"X_{part}")), np.asarray(getattr(split, f"y_{part}"))
        if X.ndim != 2:
            raise ValueError(f"{where}: X_{part} must be 2-D (N, d), got shape {X.shape}")
        if columns is None:
            columns = X.shape[1]
        elif X.shape[1] != columns:
            raise ValueError(f"{where}: X_{part} has {X.shape[1]} columns, X_train has {columns}")
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"{where}: y_{part} must have shape ({X.shape[0]},) like X_{part}, got {y.shape}")
        if part != "valid" and X.shape[0] == 0:
            raise ValueError(f"{where}: the {part} set is empty")
        if not (np.issubdtype(y.dtype, np.integer)
                or (np.issubdtype(y.dtype, np.floating) and np.all(np.mod(y, 1) == 0))):
            raise ValueError(f"{where}: y_{part} must hold integer class indices, got dtype {y.dtype}")
        outside = (y < 0) | (y >= n_classes)
        if outside.any():
            row = int(np.argmax(outside))
            raise ValueError(f"{where}: y_{part} holds label {y[row].item()!r} at row {row}, outside [0, {n_classes})")
        bad = ~np.isfinite(X)
        if bad.any():
            row, column = (int(i) for i in np.argwhere(bad)[0])
            raise ValueError(f"{where}: X_{part} holds {int(bad.sum())} NaN/inf value(s) "
                             f"(first at row {row}, column {column})")
    missing = sorted(set(range(n_classes)) - set(np.asarray(split.y_train).astype(np.int64).tolist()))
    if missing:
        raise ValueError(f"{where}: class(es) {missing} of {n_classes} missing from the training set")
    return split
