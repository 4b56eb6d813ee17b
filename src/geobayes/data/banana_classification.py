"""The 2-D banana classification data, subsampled for Hartmann et al. (2026), App. D (Figs. 8-9).

Hartmann et al. (2026), App. D fit a 2-15-15-1 SiLU classifier to "n = 200 observations" with
covariates in R^2 but do not name the data set (notes E8 and Sec. 6.2 item 11). We use the
banana set of Bergamin et al. (2023), Sec. 5.2 -- the 2-D binary classification benchmark of
the Riemannian-Laplace line of work that Hartmann et al. build on (registry file
``banana/banana.csv``, pinned to the authors' repository): 5,300 points, two features that are
already centred and of unit variance, labels coded 1/2. A simple random sample of ``n`` rows
is drawn from a seed (:func:`geobayes.data.glm_subsets.subset_indices`) and the indices are
stored with the data.
"""

from __future__ import annotations

import os
from typing import NamedTuple

import numpy as np

from geobayes.data.glm_subsets import subset_indices
from geobayes.data.prepared import register_dataset

__all__ = ["CLASSIFICATION_DATASET", "ClassificationSubset", "load_banana_csv", "prepare_banana_subset"]

_KEYS = ("X", "y", "indices", "seed", "n_total")


class ClassificationSubset(NamedTuple):
    """A 2-D binary classification subset.

    Attributes
    ----------
    X : numpy.ndarray, shape (n, 2)
        Covariates (float64, the file's values unchanged).
    y : numpy.ndarray, shape (n,)
        Labels in {0.0, 1.0} (file label 2 -> 1, label 1 -> 0).
    indices : numpy.ndarray, shape (n,)
        Sorted row indices into the full file (int64).
    seed : int
        Seed of the subset draw.
    n_total : int
        Number of rows of the full file.
    """

    X: np.ndarray
    y: np.ndarray
    indices: np.ndarray
    seed: int
    n_total: int

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays of the prepared file (``X, y, indices, seed, n_total``)."""
        return {"X": self.X, "y": self.y, "indices": self.indices, "seed": np.int64(self.seed),
                "n_total": np.int64(self.n_total)}


#: Prepared subset of the classification experiment (Bergamin et al. 2023, App. D).
CLASSIFICATION_DATASET = register_dataset("banana_classification", _KEYS, "a 2-D binary classification subset")


def load_banana_csv(path: str | os.PathLike[str]) -> tuple[np.ndarray, np.ndarray]:
    """Features (N, 2) and 0/1 labels (N,) of Bergamin et al.'s ``banana.csv``.

    The file has no header; each row is ``x1,x2,label`` with labels in {1, 2}, which their
    code shifts to {0, 1} (Bergamin et al. 2023 notes, Sec. 2.3); so do we.

    Raises
    ------
    ValueError
        If the file does not have three columns, has non-finite features, or labels other
        than 1 and 2 (naming the file).
    """
    table = np.loadtxt(path, delimiter=",", dtype=np.float64, ndmin=2)
    if table.shape[1] != 3:
        raise ValueError(f"{path}: the banana file needs 3 columns (x1, x2, label), got {table.shape[1]}")
    features, labels = table[:, :2], table[:, 2]
    if not np.all(np.isfinite(features)):
        raise ValueError(f"{path}: non-finite feature values")
    bad = ~np.isin(labels, (1.0, 2.0))
    if bad.any():
        raise ValueError(f"{path}: labels must be 1 or 2; row {int(np.argmax(bad))} has {labels[bad][0]!r}")
    return features, labels - 1.0


def prepare_banana_subset(features: np.ndarray, labels: np.ndarray, n: int, seed: int) -> ClassificationSubset:
    """``n`` random rows (without replacement, sorted) of the banana data.

    Parameters
    ----------
    features, labels
        The full data from :func:`load_banana_csv`.
    n
        Subset size (Hartmann et al. 2026, App. D: 200).
    seed
        Seed of :func:`numpy.random.default_rng` (derived from the config seed by the caller).

    Raises
    ------
    ValueError
        If ``n`` is not between 1 and the number of rows, or the subset holds one class only
        (a classifier cannot be fitted; naming the seed).
    """
    indices = subset_indices(labels.shape[0], n, seed)
    y = labels[indices]
    if np.all(y == y[0]):
        raise ValueError(f"banana subset of {n} rows (seed {seed}) holds one class only")
    return ClassificationSubset(features[indices], y, indices, int(seed), int(labels.shape[0]))
