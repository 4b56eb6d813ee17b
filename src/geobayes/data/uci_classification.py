"""The six UCI classification sets of Bergamin et al. (2023), Sec. 5.2 and App. D.4 (Tables 2, 5, 6).

Their loader is ``datautils.UCIClassificationDatasets`` (commit ef5dba89), the loader of Immer
et al. (2021, "BNN-predictions") on the same preprocessed files (notes Sec. 2.5), registered
under ``uci_classification/``:

* ``australian`` and ``breast_cancer``: LIBSVM-scaled presplit CSVs
  ``<set>_presplit/<set>_scale_{X,y}_{tr,te}.csv`` (whitespace separated), concatenated
  training part first;
* ``ionosphere``: ``ionosphere/ionosphere.data``, comma separated, the label last (the
  registered copy codes it 0/1; the UCI original's ``b``/``g`` are accepted and map to 0/1);
* ``vehicle``, ``glass``, ``waveform``: ``<set>/X.txt`` and ``<set>/Y.txt`` (whitespace).

Labels are mapped to ``0 .. C-1`` in sorted order (the registered files already hold
``0 .. C-1``, so the mapping is the identity on them). The split (:func:`split_uci`) is
``train_test_split(train_size=0.7, random_state=seed)`` and a second ``train_test_split`` of
the rest with ``train_size=0.5`` and the same seed, whose FIRST part is the test set and
second part the validation set (70 / 15 / 15); then a scikit-learn ``StandardScaler``
(population standard deviation, ddof = 0; a constant column is centred and left unscaled)
fitted on the training set transforms all three parts.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from geobayes.data.classification_split import ClassificationSplit, check_split

__all__ = ["UCI_CLASSIFICATION_SETS", "UCI_SHAPES", "load_uci_classification", "split_uci", "uci_files"]

#: The six sets of Bergamin et al. (2023), Tables 2, 5 and 6, in table order.
UCI_CLASSIFICATION_SETS = ("vehicle", "glass", "ionosphere", "waveform", "australian", "breast_cancer")

#: Rows, features and classes of each registered set (notes Sec. 6.1; waveform: 1,000 rows).
UCI_SHAPES = {
    "vehicle": (846, 18, 4),
    "glass": (214, 9, 6),
    "ionosphere": (351, 34, 2),
    "waveform": (1000, 21, 3),
    "australian": (690, 14, 2),
    "breast_cancer": (683, 10, 2),
}

_PREFIX = "uci_classification"
_PRESPLIT = {"australian": ("australian_presplit", "australian_scale"),
             "breast_cancer": ("breast_cancer_scale_presplit", "breast_cancer_scale")}


def _check_name(name: str) -> None:
    if name not in UCI_CLASSIFICATION_SETS:
        raise ValueError(f"unknown UCI classification set {name!r}; known: {', '.join(UCI_CLASSIFICATION_SETS)}")


def uci_files(name: str) -> tuple[str, ...]:
    """Registry paths (relative to the data directory) of one set's files, in reading order.

    Raises
    ------
    ValueError
        If ``name`` is not one of :data:`UCI_CLASSIFICATION_SETS` (the message lists them).
    """
    _check_name(name)
    if name in _PRESPLIT:
        folder, stem = _PRESPLIT[name]
        return tuple(f"{_PREFIX}/{folder}/{stem}_{v}_{part}.csv" for v in ("X", "y") for part in ("tr", "te"))
    if name == "ionosphere":
        return (f"{_PREFIX}/ionosphere/ionosphere.data",)
    return (f"{_PREFIX}/{name}/X.txt", f"{_PREFIX}/{name}/Y.txt")


def _read_table(path: Path, ndim: int, delimiter: str | None = None) -> np.ndarray:
    try:
        table = np.loadtxt(path, delimiter=delimiter, dtype=np.float64, ndmin=ndim)
    except ValueError as error:
        raise ValueError(f"{path}: not a numeric table ({str(error).splitlines()[0]})") from error
    if ndim == 2 and table.shape[0] == 0:
        raise ValueError(f"{path}: holds no rows")
    return table


def _read_ionosphere(path: Path) -> tuple[np.ndarray, np.ndarray]:
    try:
        cells = np.loadtxt(path, delimiter=",", dtype=str, ndmin=2)
    except ValueError as error:
        raise ValueError(f"{path}: not a comma-separated table ({str(error).splitlines()[0]})") from error
    raw = np.char.strip(cells[:, -1])
    if np.isin(raw, ("b", "g")).all():
        labels = (raw == "g").astype(np.float64)  # sorted order: b -> 0, g -> 1
    else:
        try:
            labels = raw.astype(np.float64)
        except ValueError as error:
            raise ValueError(f"{path}: labels must be numbers or 'b'/'g' ({error})") from error
    try:
        features = cells[:, :-1].astype(np.float64)
    except ValueError as error:
        raise ValueError(f"{path}: not a numeric table ({error})") from error
    return features, labels


def load_uci_classification(root: str | os.PathLike[str], name: str) -> tuple[np.ndarray, np.ndarray]:
    """Features and 0-based labels of one UCI set, as Bergamin et al.'s loader concatenates them.

    Parameters
    ----------
    root : str or os.PathLike
        The data directory holding ``uci_classification/`` (``data/raw`` or a data mirror);
        the caller checks the files against the registry (:func:`geobayes.data.verified`).
    name : str
        One of :data:`UCI_CLASSIFICATION_SETS`.

    Returns
    -------
    X : numpy.ndarray, shape (N, d)
        Unscaled features, float64 (presplit sets: training file rows first).
    y : numpy.ndarray, shape (N,)
        Labels mapped to ``0 .. C-1`` in sorted order of the file's values, int64.

    Raises
    ------
    ValueError
        If ``name`` is unknown (listing the known sets), a file is not a numeric table, the
        feature and label files disagree in rows, a label is not an integer (or b/g), or the
        rows, features or classes differ from :data:`UCI_SHAPES` (naming the file, expected
        and actual).
    """
    _check_name(name)
    paths = [Path(root) / file for file in uci_files(name)]
    if name in _PRESPLIT:
        X_tr, X_te, y_tr, y_te = (_read_table(p, 2 if i < 2 else 1) for i, p in enumerate(paths))
        for X_part, y_part, px, py in ((X_tr, y_tr, paths[0], paths[2]), (X_te, y_te, paths[1], paths[3])):
            if y_part.ndim != 1 or y_part.shape[0] != X_part.shape[0]:
                raise ValueError(f"{py}: expected {X_part.shape[0]} labels (one per row of {px.name}), "
                                 f"got shape {y_part.shape}")
        if X_te.shape[1] != X_tr.shape[1]:
            raise ValueError(f"{paths[1]}: expected {X_tr.shape[1]} columns like {paths[0].name}, got {X_te.shape[1]}")
        X, labels, source = np.concatenate([X_tr, X_te]), np.concatenate([y_tr, y_te]), paths[0]
    elif name == "ionosphere":
        X, labels = _read_ionosphere(paths[0])
        source = paths[0]
    else:
        X, labels = _read_table(paths[0], 2), _read_table(paths[1], 1)
        if labels.ndim != 1 or labels.shape[0] != X.shape[0]:
            raise ValueError(f"{paths[1]}: expected {X.shape[0]} labels (one per row of {paths[0].name}), "
                             f"got shape {labels.shape}")
        source = paths[0]
    rows, columns, classes = UCI_SHAPES[name]
    if X.shape[1] != columns:
        raise ValueError(f"{source}: expected {columns} feature columns for {name}, got {X.shape[1]}")
    if X.shape[0] != rows:
        raise ValueError(f"{source}: expected {rows} rows for {name}, got {X.shape[0]}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{source}: non-finite feature values")
    if not np.all(np.isfinite(labels) & (np.mod(labels, 1) == 0)):
        raise ValueError(f"{source}: {name} labels must be integers")
    values, y = np.unique(labels, return_inverse=True)
    if values.size != classes:
        raise ValueError(f"{source}: expected {classes} classes for {name}, got {values.size} "
                         f"({values[:10].tolist()})")
    return X, y.astype(np.int64)


def split_uci(X: np.ndarray, y: np.ndarray, seed: int, *, train_size: float = 0.7) -> ClassificationSplit:
    """70 / 15 / 15 split and train-fitted standardisation (Bergamin et al. 2023, App. D.4).

    Parameters
    ----------
    X, y
        The output of :func:`load_uci_classification`.
    seed : int
        ``random_state`` of both ``train_test_split`` calls (the loader's ``random_seed``;
        which value the paper's runs used is not known, notes Sec. 2.5).
    train_size : float, optional
        Training fraction of the first split (0.7).

    Returns
    -------
    ClassificationSplit
        Standardised features (training columns have mean 0 and population std 1 unless
        constant), labels as given, ``n_classes = max(y) + 1``.

    Raises
    ------
    ValueError
        If the shapes do not match, ``seed`` is not an integer, or a class is missing from the
        training set (naming the seed).
    """
    from sklearn.model_selection import train_test_split  # not at module level: see geobayes.data.prepared
    from sklearn.preprocessing import StandardScaler

    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y).astype(np.int64)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"split_uci: expected X (N, d) and y (N,), got X {X.shape} and y {y.shape}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"split_uci: seed must be an integer, got {seed!r}")
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, train_size=train_size, random_state=int(seed))
    X_test, X_valid, y_test, y_valid = train_test_split(X_rest, y_rest, train_size=0.5, random_state=int(seed))
    scaler = StandardScaler().fit(X_train)
    split = ClassificationSplit(scaler.transform(X_train), y_train, scaler.transform(X_valid), y_valid,
                                scaler.transform(X_test), y_test, int(y.max()) + 1)
    return check_split(split, f"UCI split (seed {seed})")
