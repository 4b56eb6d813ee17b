"""Logistic-regression benchmark data (ripley, pima, heart, australian, german).

Preprocessing of Yu et al. (2024), "Riemannian Laplace approximation with the Fisher
metric" (AISTATS), Sec. 5.3 and Supp. 15.9: the raw ``.npy`` arrays hold the features
followed by a 0/1 label in the last column; the features are used either as they are
("raw") or z-scored with the population standard deviation (like scikit-learn's
``StandardScaler``), and a column of ones for the intercept is appended last.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from geobayes.data.prepared import register_dataset

__all__ = [
    "LOGREG_DATASETS",
    "PreparedData",
    "load_logreg_raw",
    "prepare_logreg",
]

#: The five benchmark sets; registry files are ``logreg/<name>.npy``.
LOGREG_DATASETS = ("ripley", "pima", "heart", "australian", "german")


class PreparedData(NamedTuple):
    """Design matrix and labels ready for the logistic-regression posterior.

    Attributes
    ----------
    X : numpy.ndarray, shape (N, D)
        Features (z-scored if ``standardised``) with the intercept column of ones last.
    y : numpy.ndarray, shape (N,)
        Labels in {0.0, 1.0}, float64.
    feature_mean : numpy.ndarray, shape (D - 1,)
        Mean subtracted from each raw feature (zeros for raw data).
    feature_std : numpy.ndarray, shape (D - 1,)
        Scale dividing each centred feature (ones for raw data and constant columns).
    standardised : bool
        Whether the features were z-scored.
    """

    X: np.ndarray
    y: np.ndarray
    feature_mean: np.ndarray
    feature_std: np.ndarray
    standardised: bool

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays of the prepared file (:func:`geobayes.data.prepared.save_prepared`)."""
        return {"X": self.X, "y": self.y, "feature_mean": self.feature_mean, "feature_std": self.feature_std,
                "standardised": np.asarray(self.standardised, dtype=bool)}


#: Prepared files of the logistic regressions (Yu et al. 2024, Sec. 5.3): data/prepared/logreg/.
LOGREG_DATASET = register_dataset("logreg", ("X", "y", "feature_mean", "feature_std", "standardised"),
                                  "features (intercept last) and 0/1 labels of one benchmark set")


def _check_labels(labels: np.ndarray, source: str) -> None:
    values = np.unique(labels)
    if values.size != 2 or not np.array_equal(values, [0.0, 1.0]):
        shown = values[:20].tolist()
        more = f" (and {values.size - 20} more)" if values.size > 20 else ""
        raise ValueError(
            f"{source}: labels must be exactly {{0, 1}}; found values {shown}{more}"
        )


def load_logreg_raw(path: str | os.PathLike[str]) -> tuple[np.ndarray, np.ndarray]:
    """Load one raw benchmark array (Yu et al. 2024, Sec. 5.3).

    Parameters
    ----------
    path : str or os.PathLike
        ``.npy`` file of shape (N, D0 + 1): D0 feature columns, then the label.

    Returns
    -------
    features : numpy.ndarray, shape (N, D0)
        Float64 features, unchanged.
    labels : numpy.ndarray, shape (N,)
        Float64 labels in {0, 1}.

    Raises
    ------
    ValueError
        If the array is not 2-D with at least two columns, holds non-finite values, or
        its labels are not exactly the set {0, 1}; the message names the file.
    """
    path = Path(path)
    array = np.load(path, allow_pickle=False)
    if array.ndim != 2 or array.shape[1] < 2 or array.shape[0] < 1:
        raise ValueError(
            f"{path}: expected a 2-D array (cases x [features..., label]) with at least two "
            f"columns; got shape {array.shape}"
        )
    array = np.asarray(array, dtype=np.float64)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{path}: contains non-finite values (NaN or inf)")
    features, labels = array[:, :-1].copy(), array[:, -1].copy()
    _check_labels(labels, f"{path} (last column)")
    return features, labels


def prepare_logreg(
    features: np.ndarray, labels: np.ndarray, standardise: bool
) -> PreparedData:
    """Build the design matrix of Yu et al. (2024), Sec. 5.3 / Supp. 15.9.

    Optionally z-scores each feature with its mean and population standard deviation
    (``ddof=0``, as scikit-learn's ``StandardScaler``; constant columns get scale 1),
    then appends a column of ones for the intercept as the LAST column.

    Parameters
    ----------
    features : array_like, shape (N, D0)
        Raw features.
    labels : array_like, shape (N,)
        Labels in {0, 1}.
    standardise : bool
        Whether to z-score the features.

    Returns
    -------
    PreparedData
        ``X`` of shape (N, D0 + 1), ``y`` of shape (N,), and the transform used.

    Raises
    ------
    ValueError
        On mismatched shapes or labels outside {0, 1}.
    """
    F = np.asarray(features, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    if F.ndim != 2:
        raise ValueError(f"features must be 2-D (N, D0); got shape {F.shape}")
    if y.shape != (F.shape[0],):
        raise ValueError(
            f"labels must have shape ({F.shape[0]},) to match features; got {y.shape}"
        )
    _check_labels(y, "labels")
    if standardise:
        mean = F.mean(axis=0)
        std = F.std(axis=0)
        tiny = 10 * np.finfo(np.float64).eps * np.maximum(np.abs(mean), 1.0)
        std = np.where(std <= tiny, 1.0, std)
    else:
        mean = np.zeros(F.shape[1])
        std = np.ones(F.shape[1])
    Z = (F - mean) / std if standardise else F.copy()
    X = np.concatenate([Z, np.ones((F.shape[0], 1))], axis=1)
    return PreparedData(
        X=X, y=y, feature_mean=mean, feature_std=std, standardised=bool(standardise)
    )
