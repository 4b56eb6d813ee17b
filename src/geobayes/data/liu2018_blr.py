"""Liu & Zhu's (2018) Bayesian logistic regression data: Splice (realisation 19) and Covertype.

Sec. 5.1 and Fig. 1 of Liu & Zhu (2018), "Riemannian Stein variational gradient descent for
Bayesian inference" (AAAI), as their code reads the files (reproduction notes Sec. 2.1 and
5.4 B, J, K):

* ``splice/benchmarks.mat`` (Raetsch's benchmark collection): the MATLAB struct ``splice`` with
  ``x`` (2,991 x 60), ``t`` (labels -1/+1) and the 1-based index rows ``train`` (20 x 1,000) and
  ``test`` (20 x 2,175); realisation 19 is row 19. Features as stored.
* ``covertype/covertype.mat``: ``covtype`` (581,012 x 55), the label (1 or 2) in column 0 and the
  54 features after it, as stored; label 2 becomes 0. A random 80/20 split per run (the
  caption; the code's fixed ``random_state=42`` split is ``split_seed`` 42 for every run).
* Offline stand-ins (neither file is in the mirror): a data set of the mirror's ``logreg/``
  (German or Australian credit), z-scored features, an 80/20 split per run.

Every design matrix gets a column of ones appended last (the code's bias), so ``m = 61`` for
Splice and ``55`` for Covertype. Labels are 0/1.
"""

from __future__ import annotations

import os

import numpy as np

from geobayes.data.logreg import load_logreg_raw
from geobayes.data.prepared import register_dataset

__all__ = ["LIU2018_BLR", "append_bias", "prepare_split", "read_covertype", "read_splice", "read_stand_in", "split_rows",
           "standardise"]

LIU2018_BLR = register_dataset(
    "liu2018_blr", ("X_train", "y_train", "X_test", "y_test"),
    "Liu & Zhu (2018) Fig. 1: a logistic-regression train/test split, a bias column last, labels 0/1",
)


def append_bias(features: np.ndarray) -> np.ndarray:
    """``[features, 1]``: the code's bias column, last."""
    return np.concatenate([features, np.ones((features.shape[0], 1))], axis=1)


def _field(struct, name: str, path: str) -> np.ndarray:
    try:
        return np.asarray(struct[name][0, 0])
    except (KeyError, ValueError, IndexError) as error:
        raise ValueError(f"{path}: the struct 'splice' has no field {name!r} ({error})") from None


def read_splice(path: str | os.PathLike[str], realisation: int = 19) -> dict[str, np.ndarray]:
    """Splice realisation ``realisation`` (1-based, as the code's ``train[19-1]``) of ``benchmarks.mat``.

    Returns
    -------
    dict
        ``X_train`` (1,000 x 61), ``y_train``, ``X_test`` (2,175 x 61), ``y_test``; labels 0/1.

    Raises
    ------
    ValueError
        A file without the struct or its fields, a realisation out of range, or indices outside the
        rows; the one-line message names the file.
    """
    from scipy.io import loadmat

    path = os.fspath(path)
    mat = loadmat(path)
    if "splice" not in mat:
        raise ValueError(f"{path}: no variable 'splice' (found {sorted(k for k in mat if not k.startswith('__'))})")
    struct = mat["splice"]
    x, t = _field(struct, "x", path).astype(np.float64), _field(struct, "t", path).reshape(-1)
    train, test = _field(struct, "train", path), _field(struct, "test", path)
    if not 1 <= realisation <= train.shape[0]:
        raise ValueError(f"{path}: realisation {realisation} out of range 1..{train.shape[0]}")
    rows = {"train": train[realisation - 1].astype(np.int64) - 1, "test": test[realisation - 1].astype(np.int64) - 1}
    for part, index in rows.items():
        if index.min() < 0 or index.max() >= x.shape[0]:
            raise ValueError(f"{path}: splice.{part} row {realisation} indexes outside the {x.shape[0]} rows")
    labels = _zero_one(t, {-1: 0, 1: 1}, path)
    return {"X_train": append_bias(x[rows["train"]]), "y_train": labels[rows["train"]],
            "X_test": append_bias(x[rows["test"]]), "y_test": labels[rows["test"]]}


def read_covertype(path: str | os.PathLike[str]) -> tuple[np.ndarray, np.ndarray]:
    """Features with the bias column (n x 55) and 0/1 labels of ``covertype.mat`` (label 2 -> 0)."""
    from scipy.io import loadmat

    path = os.fspath(path)
    mat = loadmat(path)
    if "covtype" not in mat:
        raise ValueError(f"{path}: no variable 'covtype' (found {sorted(k for k in mat if not k.startswith('__'))})")
    data = np.asarray(mat["covtype"], dtype=np.float64)
    return append_bias(data[:, 1:]), _zero_one(data[:, 0], {2: 0, 1: 1}, path)


def _zero_one(labels: np.ndarray, coding: dict[int, int], path: str) -> np.ndarray:
    values = set(np.unique(labels).tolist())
    if not values <= set(coding):
        raise ValueError(f"{path}: labels {sorted(values)}, expected values in {sorted(coding)}")
    out = np.zeros(labels.shape, dtype=np.float64)
    for source, target in coding.items():
        out[labels == source] = target
    return out


def standardise(features: np.ndarray) -> np.ndarray:
    """z-scored columns (population std; a constant column is only centred)."""
    std = features.std(axis=0)
    return (features - features.mean(axis=0)) / np.where(std > 0, std, 1.0)


def split_rows(X: np.ndarray, y: np.ndarray, test_fraction: float, seed: int) -> dict[str, np.ndarray]:
    """A random train/test split of the rows (``test_fraction`` of them to test), seeded."""
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must lie in (0, 1), got {test_fraction}")
    order = np.random.default_rng(seed).permutation(X.shape[0])
    n_test = int(round(test_fraction * X.shape[0]))
    test, train = order[:n_test], order[n_test:]
    return {"X_train": X[train], "y_train": y[train], "X_test": X[test], "y_test": y[test]}


def read_stand_in(path: str | os.PathLike[str]) -> tuple[np.ndarray, np.ndarray]:
    """A mirror data set (``logreg/<name>.npy``) standing in offline: z-scored features, the bias column."""
    features, labels = load_logreg_raw(path)
    return append_bias(standardise(features)), labels.astype(np.float64)


def prepare_split(data: str, raw: str | os.PathLike[str], split: int, test_fraction: float = 0.2) -> dict[str, np.ndarray]:
    """The arrays of one prepared split of ``data`` read from its registered ``raw`` file.

    Parameters
    ----------
    data
        ``splice19`` (realisation 19; ``split`` is ignored), ``covertype``, or a ``logreg/`` data set
        standing in offline.
    raw
        The registered file (``splice/benchmarks.mat``, ``covertype/covertype.mat``, ``logreg/<data>.npy``).
    split
        Seed of the random train/test split (Covertype and the stand-ins).
    test_fraction
        Share of the rows tested (the caption's 20 %).
    """
    if data == "splice19":
        return read_splice(raw, 19)
    X, y = read_covertype(raw) if data == "covertype" else read_stand_in(raw)
    return split_rows(X, y, test_fraction, split)
