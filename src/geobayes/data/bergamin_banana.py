"""The banana train/valid/test split of Bergamin et al. (2023), Sec. 5.2 and App. D.2.

Their banana experiment (notes Sec. 2.3; ``banana_experiment.py`` of the authors' code at
commit ef5dba89) reads ``banana.csv`` (5,300 points, labels 1/2 shifted to 0/1; read here with
:func:`geobayes.data.banana_classification.load_banana_csv`), then

1. ``train_test_split(X, y, train_size=0.7, random_state=230)`` (shuffled, not stratified):
   ``floor(0.7 * 5300)`` evaluates to 3,709 in floating point (0.7 * 5300 = 3709.9999...),
   so 3,709 training candidates and 1,591 held-out points;
2. ``train_test_split`` of the held-out points with ``train_size=0.5, random_state=230``,
   whose FIRST part is the test set and whose second part the validation set
   (``floor(0.5 * 1591)`` = 795 test, 796 validation; the notes' "795 / 795" is off by one
   for the validation set, the 795 test points agree with Table 1's 3446/3975 = 5 x 795);
3. keeps only the first 265 training candidates.

No feature scaling. The split is the same for every seed (the seed moves the network's
initialisation and the posterior samples only).
"""

from __future__ import annotations

import numpy as np

from geobayes.data.classification_split import ClassificationSplit, check_split

__all__ = ["BANANA_SIZES", "split_banana"]

#: (train, valid, test) sizes of the code's split of the 5,300-point file: ``floor(0.7 * 5300)`` is
#: 3,709 in floating point, so 1,591 points are held out, 795 of them test and 796 validation.
BANANA_SIZES = (265, 796, 795)


def split_banana(X: np.ndarray, y: np.ndarray, *, train_size: float = 0.7, random_state: int = 230,
                 n_train: int = 265) -> ClassificationSplit:
    """Bergamin et al.'s banana split (Sec. 5.2, App. D.2; notes Sec. 2.3).

    Parameters
    ----------
    X : numpy.ndarray, shape (N, 2)
        Features of ``banana.csv`` (unscaled).
    y : numpy.ndarray, shape (N,)
        Labels in {0, 1} (file labels minus one).
    train_size : float, optional
        Fraction of the first split kept as training candidates (0.7).
    random_state : int, optional
        ``random_state`` of both ``train_test_split`` calls (230).
    n_train : int, optional
        Number of leading training candidates kept (265).

    Returns
    -------
    ClassificationSplit
        265 train / 796 valid / 795 test points for the 5,300-point file; ``n_classes`` 2.

    Raises
    ------
    ValueError
        If ``X`` and ``y`` do not match, ``y`` is not in {0, 1}, ``n_train`` is not between 1
        and the number of training candidates, or a class is missing from the training set.
    """
    from sklearn.model_selection import train_test_split  # not at module level: see geobayes.data.prepared

    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"split_banana: expected X (N, d) and y (N,), got X {X.shape} and y {y.shape}")
    if not np.isin(y, (0, 1)).all():
        raise ValueError(f"split_banana: labels must be 0 or 1, found {np.unique(y)[:10].tolist()}")
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, train_size=train_size, random_state=random_state)
    X_test, X_valid, y_test, y_valid = train_test_split(X_rest, y_rest, train_size=0.5, random_state=random_state)
    if not 1 <= n_train <= len(y_train):
        raise ValueError(f"split_banana: n_train must be between 1 and {len(y_train)} (the training "
                         f"candidates), got {n_train}")
    split = ClassificationSplit(X_train[:n_train], y_train[:n_train].astype(np.int64), X_valid,
                                y_valid.astype(np.int64), X_test, y_test.astype(np.int64), 2)
    return check_split(split, "banana split")
