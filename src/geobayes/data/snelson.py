"""Snelson's 1-D regression data, split as in the three papers' neural-network experiments.

Snelson & Ghahramani (2006): 200 labelled points with inputs in [0.06, 5.97]. The data
mirror holds them twice, in the same order: ``snelson/snelson.npz`` (``x_train``,
``y_train``; ratschlab/bnn_priors) and the text files ``snelson/train_inputs`` /
``snelson/train_outputs`` (Bergamin et al.'s repository). Splits (:data:`SNELSON_SPLITS`):

``complete_raw``, ``gap_raw``, ``complete_standardised``, ``gap_standardised``
    Yu et al. (2024), Sec. 5.4 and Supp. 15.10/16.5.2 (notes Sec. 2.6), read from the
    published RLAF split files (float32, converted to float64 exactly). *complete*: the
    50 test indices are ``np.random.seed(1); np.random.choice(200, 50, replace=False)`` in
    that order, the other 150 in ascending index order train. *gap*: the 52 points with
    ``1.5 <= x <= 3.0`` are the test set, the other 148 train, both in index order.
    *standardised*: inputs and training targets standardised with the training mean and
    population std, computed in float64 before the float32 cast; the test targets are
    left on the original scale. ``tests/data/test_snelson.py`` checks all of this
    against ``snelson.npz``.
``random``, ``between``
    Bergamin et al. (2023), Sec. 5.1 and App. D.1 (notes Sec. 2.2): their
    ``train_test_split(test_size=0.25, random_state=230)`` of the text files (150/50), and
    the "in-between" split (train on ``x`` outside [1.5, 3], test inside: 148/52, the same
    points as Yu's gap split). Raw scale, float64 (their code trains in float32).
``drop23``
    Hartmann et al. (2026), Sec. 5.3.2, Fig. 5 (notes E6): the 200 points with the 37 inputs
    in [2, 3] removed, ``n = 163``; no test set. Raw scale.

Every split is a dict of float64 arrays: ``X`` (N, 1) and ``y`` (N,) to train on, ``X_test``
(M, 1) on the same scale as ``X``, ``y_test`` (M,) always on the ORIGINAL scale, and the
scalars ``x_mean``, ``x_std``, ``y_mean``, ``y_std`` (0 and 1 for raw data): a prediction
``f`` on the training scale is mapped back as ``f * y_std + y_mean``. Where the split is
made here, ``train_index`` and ``test_index`` (int64 indices into the 200 points) are
included. :func:`sine_regression` builds the synthetic data of Yu et al.'s scalability study
in the same format.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from geobayes.data.prepared import register_dataset
from geobayes.io import load_npz

__all__ = [
    "SNELSON_SPLITS",
    "SPLIT_FILES",
    "SNELSON_POINTS",
    "GAP_INTERVAL",
    "HARTMANN_GAP",
    "HARTMANN_POINTS",
    "YU_GRID",
    "HARTMANN_GRID",
    "prepare_snelson",
    "yu2024_split",
    "bergamin2023_split",
    "hartmann2026_split",
    "sine_regression",
    "prediction_grid",
]

#: Number of labelled points in Snelson's data.
SNELSON_POINTS = 200
#: Held-out input interval of the gap / in-between splits (Yu et al.; Bergamin et al.).
GAP_INTERVAL = (1.5, 3.0)
#: Input interval removed by Hartmann et al. (2026), notes E6, and the points left.
HARTMANN_GAP = (2.0, 3.0)
HARTMANN_POINTS = 163
#: Prediction grids ``(lo, hi, n)``: Yu et al.'s figures (x in [-0.5, 6.5], 500 points) and
#: Hartmann et al.'s range [-3, 10] (the 301 points of ``snelson.npz`` ``x_test``).
YU_GRID = (-0.5, 6.5, 500)
HARTMANN_GRID = (-3.0, 10.0, 301)

_NPZ = "snelson/snelson.npz"
_TEXT_X, _TEXT_Y = "snelson/train_inputs", "snelson/train_outputs"
_RLAF = "snelson/rlaf_splits/"

# split name -> (RLAF file, standardised, expected train/test counts)
_YU_FILES = {
    "complete_raw": (_RLAF + "snelson_data.npz", False, (150, 50)),
    "gap_raw": (_RLAF + "snelson_data_between.npz", False, (148, 52)),
    "complete_standardised": (_RLAF + "snelson_data_standardized.npz", True, (150, 50)),
    "gap_standardised": (_RLAF + "snelson_data_between_standardized.npz", True, (148, 52)),
}

#: Registry files each split reads.
SPLIT_FILES: dict[str, tuple[str, ...]] = {
    **{split: (entry[0],) for split, entry in _YU_FILES.items()},
    "random": (_TEXT_X, _TEXT_Y),
    "between": (_TEXT_X, _TEXT_Y),
    "drop23": (_NPZ,),
}
#: Split names accepted by :func:`prepare_snelson`.
SNELSON_SPLITS = tuple(SPLIT_FILES)

Files = Mapping[str, str | os.PathLike[str]] | str | os.PathLike[str]


def _path(files: Files, name: str) -> Path:
    """Local path of registry file ``name``: ``files[name]`` or ``files / name``."""
    if isinstance(files, Mapping):
        if name not in files:
            raise ValueError(f"{name}: no local path given; the mapping holds {sorted(files)}")
        path = Path(files[name])
    else:
        path = Path(files) / name
    if not path.is_file():
        raise FileNotFoundError(f"{name}: not found at {path}")
    return path


def _split(X, y, X_test, y_test, *, train_index=None, test_index=None,
           x_mean=0.0, x_std=1.0, y_mean=0.0, y_std=1.0) -> dict[str, np.ndarray]:
    split = {
        "X": np.asarray(X, dtype=np.float64).reshape(-1, 1),
        "y": np.asarray(y, dtype=np.float64).reshape(-1),
        "X_test": np.asarray(X_test, dtype=np.float64).reshape(-1, 1),
        "y_test": np.asarray(y_test, dtype=np.float64).reshape(-1),
        "x_mean": np.float64(x_mean),
        "x_std": np.float64(x_std),
        "y_mean": np.float64(y_mean),
        "y_std": np.float64(y_std),
    }
    if train_index is not None:
        split["train_index"] = np.asarray(train_index, dtype=np.int64)
        split["test_index"] = np.asarray(test_index, dtype=np.int64)
    return split


def _check_count(name: str, what: str, array: np.ndarray, expected: int) -> None:
    if array.shape[0] != expected:
        raise ValueError(f"{name}: expected {expected} {what}, found {array.shape[0]}")


def _read_text(files: Files) -> tuple[np.ndarray, np.ndarray]:
    x, y = (np.loadtxt(_path(files, name), dtype=np.float64, ndmin=1) for name in (_TEXT_X, _TEXT_Y))
    _check_count(_TEXT_X, "inputs (one a line)", x, SNELSON_POINTS)
    _check_count(_TEXT_Y, "outputs (one a line)", y, SNELSON_POINTS)
    return x, y


def yu2024_split(files: Files, *, gap: bool = False, standardised: bool = False) -> dict[str, np.ndarray]:
    """Yu et al. (2024) Snelson split, as published in the RLAF repository.

    Yu et al. (2024), Sec. 5.4 (Table 3, raw data) and Supp. 16.5.2 (Table 5, standardised
    data); notes Sec. 2.6. The float32 arrays of the published file are converted to float64
    exactly. For standardised data ``X``, ``X_test`` and ``y`` are standardised and
    ``x_mean`` .. ``y_std`` are the published training mean and population std; ``y_test``
    is on the original scale, as published.

    Parameters
    ----------
    files : mapping or path
        Registry file name -> local path, or a directory laid out like the registry (the
        data mirror or ``data/raw``). Reads one file of :data:`SPLIT_FILES`.
    gap : bool, optional
        ``False``: the random 150/50 *complete* split; ``True``: the *gap* split (test =
        the 52 points with ``1.5 <= x <= 3``).
    standardised : bool, optional
        Read the standardised variant.

    Returns
    -------
    dict of str to numpy.ndarray
        ``X``, ``y``, ``X_test``, ``y_test``, ``x_mean``, ``x_std``, ``y_mean``, ``y_std``
        (no indices: the published file does not hold them).

    Raises
    ------
    ValueError
        If an array is missing, not of shape (n, 1), or the counts differ from 150/50
        (complete) or 148/52 (gap); the message names the file.
    """
    split = ("gap" if gap else "complete") + ("_standardised" if standardised else "_raw")
    name, _, (n_train, n_test) = _YU_FILES[split]
    keys = ["train_inputs", "train_outputs", "test_inputs", "test_outputs"]
    scalars = ["X_mean", "X_std", "y_mean", "y_std"] if standardised else []
    arrays = load_npz(_path(files, name), required=keys + scalars, what="RLAF Snelson split file")
    for key, count in zip(keys, (n_train, n_train, n_test, n_test)):
        if arrays[key].shape != (count, 1):
            raise ValueError(f"{name}: expected {key} of shape ({count}, 1), found {arrays[key].shape}")
    X, y, X_test, y_test = (np.float64(arrays[key]) for key in keys)
    stats = dict(zip(("x_mean", "x_std", "y_mean", "y_std"), (float(arrays[k]) for k in scalars)))
    return _split(X, y, X_test, y_test, **stats)


def bergamin2023_split(files: Files, *, between: bool = False) -> dict[str, np.ndarray]:
    """Bergamin et al. (2023) Snelson split (raw scale).

    Bergamin et al. (2023), Sec. 5.1 and App. D.1; notes Sec. 2.2 (their
    ``regression_experiment.py``). ``between=False``:
    ``sklearn.model_selection.train_test_split(x, y, test_size=0.25, random_state=230)`` of
    the text files (150 train / 50 test, in the order sklearn returns them). ``between=True``:
    the "in-between" setting of App. D.1, test = the points with ``1.5 <= x <= 3``, train = the
    rest, both in file order (148 / 52).

    Parameters
    ----------
    files : mapping or path
        Registry file name -> local path, or a directory laid out like the registry. Reads
        ``snelson/train_inputs`` and ``snelson/train_outputs``.
    between : bool, optional
        In-between split instead of the random one.

    Returns
    -------
    dict of str to numpy.ndarray
        ``X``, ``y``, ``X_test``, ``y_test``, the scalars (0 and 1) and ``train_index`` /
        ``test_index`` into the 200 points.

    Raises
    ------
    ValueError
        If a text file does not hold 200 values.
    """
    x, y = _read_text(files)
    index = np.arange(SNELSON_POINTS)
    if between:
        inside = (GAP_INTERVAL[0] <= x) & (x <= GAP_INTERVAL[1])
        train_index, test_index = index[~inside], index[inside]
    else:
        # scikit-learn here, not at module level: every prepared-data reader imports this module
        from sklearn.model_selection import train_test_split

        train_index, test_index = train_test_split(index, test_size=0.25, random_state=230)
    return _split(x[train_index], y[train_index], x[test_index], y[test_index],
                  train_index=train_index, test_index=test_index)


def hartmann2026_split(files: Files) -> dict[str, np.ndarray]:
    """Hartmann et al. (2026) Snelson data: the points with inputs in [2, 3] removed.

    Hartmann et al. (2026), Sec. 5.3.2, Fig. 5 (notes E6): ``n = 163``; removing the 37
    inputs in [2, 3] from the 200 points of ``snelson.npz`` is the one reading of the paper
    that gives that count. Raw scale; no test set (``M = 0``).

    Parameters
    ----------
    files : mapping or path
        Registry file name -> local path, or a directory laid out like the registry. Reads
        ``snelson/snelson.npz``.

    Returns
    -------
    dict of str to numpy.ndarray
        ``X`` (163, 1), ``y`` (163,), empty ``X_test`` (0, 1) and ``y_test`` (0,), the
        scalars (0 and 1), ``train_index`` (the kept points) and an empty ``test_index``.

    Raises
    ------
    ValueError
        If ``x_train``/``y_train`` is missing or not 200 long, or other than 163 points are
        left.
    """
    arrays = load_npz(_path(files, _NPZ), required=("x_train", "y_train"), what="Snelson data file")
    x, y = (np.asarray(arrays[key], dtype=np.float64).reshape(-1) for key in ("x_train", "y_train"))
    _check_count(_NPZ, "x_train values", x, SNELSON_POINTS)
    _check_count(_NPZ, "y_train values", y, SNELSON_POINTS)
    keep = np.flatnonzero((x < HARTMANN_GAP[0]) | (x > HARTMANN_GAP[1]))
    if keep.size != HARTMANN_POINTS:
        raise ValueError(
            f"{_NPZ}: removing the inputs in {list(HARTMANN_GAP)} should leave {HARTMANN_POINTS} "
            f"points (Hartmann et al. 2026, Fig. 5), found {keep.size}"
        )
    return _split(x[keep], y[keep], np.empty((0, 1)), np.empty(0),
                  train_index=keep, test_index=np.empty(0, dtype=np.int64))


def prepare_snelson(split: str, files: Files) -> dict[str, np.ndarray]:
    """One Snelson split by name (see :data:`SNELSON_SPLITS` and the module docstring).

    Parameters
    ----------
    split : str
        ``complete_raw``, ``gap_raw``, ``complete_standardised``, ``gap_standardised``
        (Yu et al. 2024), ``random``, ``between`` (Bergamin et al. 2023) or ``drop23``
        (Hartmann et al. 2026).
    files : mapping or path
        Registry file name -> local path, or a directory laid out like the registry (the
        data mirror, or ``data/raw`` of the pipeline). :data:`SPLIT_FILES` lists the files
        each split reads.

    Returns
    -------
    dict of str to numpy.ndarray
        The split (keys in the module docstring).

    Raises
    ------
    ValueError
        If ``split`` is unknown (the message lists the known ones) or a file is malformed.
    FileNotFoundError
        If a needed file is not at its path.
    """
    if split in _YU_FILES:
        return yu2024_split(files, gap=split.startswith("gap"), standardised=split.endswith("standardised"))
    if split in ("random", "between"):
        return bergamin2023_split(files, between=split == "between")
    if split == "drop23":
        return hartmann2026_split(files)
    raise ValueError(f"unknown Snelson split {split!r}; known: {', '.join(SNELSON_SPLITS)}")


def sine_regression(n_train: int, n_test: int, seed: int) -> dict[str, np.ndarray]:
    """Synthetic sine data of Yu et al.'s scalability study, standardised.

    Yu et al. (2024), Supp. 16.5.3, Fig. 15 (notes Sec. 2.7), following the laplace-torch
    regression example: ``X ~ U(0, 8)``, ``y = sin X + 0.3 eps``, ``eps ~ N(0, 1)``; the first
    ``n_train`` points train, the next ``n_test`` test. ``x`` and ``y`` are standardised with
    the training mean and the unbiased (``ddof=1``, ``torch.std``) std. The draws come from
    ``np.random.default_rng(seed)`` (all ``X`` first, then all ``eps``), not from torch's
    generator. Unlike their code, which standardises ``y_test`` too, ``y_test`` is kept on the
    original scale like every split of this module (their standardised-scale MSE is this
    scale's MSE divided by ``y_std**2``).

    Parameters
    ----------
    n_train : int
        Training points, at least 2.
    n_test : int
        Test points, at least 0.
    seed : int
        Seed of the generator.

    Returns
    -------
    dict of str to numpy.ndarray
        ``X``, ``y`` (standardised), ``X_test`` (standardised with the training statistics),
        ``y_test`` (original scale), ``x_mean``, ``x_std``, ``y_mean``, ``y_std``,
        ``train_index`` = ``0..n_train-1`` and ``test_index`` = the next ``n_test``.

    Raises
    ------
    ValueError
        If a count or the seed is not an integer in range.
    """
    for name, value, low in (("n_train", n_train, 2), ("n_test", n_test, 0), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}; got {value!r}")
    rng = np.random.default_rng(int(seed))
    n = int(n_train) + int(n_test)
    x = rng.uniform(0.0, 8.0, size=n)
    y = np.sin(x) + 0.3 * rng.standard_normal(n)
    train, test = slice(0, n_train), slice(n_train, n)
    x_mean, x_std = x[train].mean(), x[train].std(ddof=1)
    y_mean, y_std = y[train].mean(), y[train].std(ddof=1)
    return _split((x[train] - x_mean) / x_std, (y[train] - y_mean) / y_std,
                  (x[test] - x_mean) / x_std, y[test],
                  train_index=np.arange(n_train), test_index=np.arange(n_train, n),
                  x_mean=x_mean, x_std=x_std, y_mean=y_mean, y_std=y_std)


def prediction_grid(lo: float, hi: float, n: int) -> np.ndarray:
    """Equally spaced inputs for predictive plots, shape (n, 1), float64.

    Yu et al. (2024), Figs. 6 and 14 use ``x in [-0.5, 6.5]`` with 500 points
    (:data:`YU_GRID`); Hartmann et al. (2026), Fig. 5 plots ``x in [-3, 10]``
    (:data:`HARTMANN_GRID`). For a standardised split, map the grid with
    ``(grid - x_mean) / x_std`` before predicting.

    Parameters
    ----------
    lo, hi : float
        End points, ``lo < hi``, both included.
    n : int
        Number of points, at least 2.

    Returns
    -------
    numpy.ndarray, shape (n, 1)
        ``numpy.linspace(lo, hi, n)`` as a column.

    Raises
    ------
    ValueError
        If the end points are not finite with ``lo < hi`` or ``n < 2``.
    """
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise ValueError(f"need finite lo < hi; got lo={lo!r}, hi={hi!r}")
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 2:
        raise ValueError(f"n must be an integer >= 2; got {n!r}")
    return np.linspace(float(lo), float(hi), int(n)).reshape(-1, 1)


_SPLIT_ARRAYS = ("X", "y", "X_test", "y_test", "x_mean", "x_std", "y_mean", "y_std")
#: One prepared Snelson split: data/prepared/<network experiment>/<split>.npz.
SNELSON_DATASET = register_dataset("snelson", _SPLIT_ARRAYS, "one Snelson split, its test set and scaling")
#: A split with its trained network (rule train_network): results/network/<posterior>.npz.
TRAINED_NETWORK_DATASET = register_dataset(
    "trained_network", (*_SPLIT_ARRAYS, "theta_trained", "prior_variance", "noise_variance"),
    "a Snelson split plus the trained weights and the marginal-likelihood prior and noise variances")
