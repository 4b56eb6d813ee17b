"""The 5-class pinwheel data of Bergamin et al. (2023), App. D.3 (Fig. D.6).

Generated as in the authors' ``datautils.make_pinwheel_data`` (commit ef5dba89; the classic
pinwheel of the autograd examples; notes Sec. 2.4), called by ``pinwheel_experiment.py`` with
``(0.3, 0.05, 5, 200, 0.25, seed=42)``:

1. seed NumPy's legacy Mersenne-Twister RNG (their ``np.random.seed(seed)``; here a private
   ``numpy.random.RandomState(seed)``, the same stream without touching the global state);
2. ``features = randn(C * n, 2) * [radial_std, tangential_std]``, then ``features[:, 0] += 1``;
3. labels ``repeat(arange(C), n)``; angle ``2 pi k / C + rate * exp(features[:, 0])``;
4. each row is multiplied by ``[[cos, -sin], [sin, cos]]`` from the right (a rotation by
   minus the angle);
5. the rows (with their labels) are shuffled by ``permutation`` of the same RNG.

Their experiment then takes rows ``[:350]`` for training, ``[350:400]`` for validation and
``[400:]`` (600 points) for testing, without scaling; the data do not change with the seed.
"""

from __future__ import annotations

import numpy as np

from geobayes.data.classification_split import ClassificationSplit, check_split

__all__ = ["PINWHEEL_SIZES", "make_pinwheel", "split_pinwheel"]

#: (train, valid, test) sizes of the paper's split (Bergamin et al. 2023, App. D.3).
PINWHEEL_SIZES = (350, 50, 600)


def make_pinwheel(radial_std: float = 0.3, tangential_std: float = 0.05, num_classes: int = 5,
                  num_per_class: int = 200, rate: float = 0.25, seed: int = 42) -> tuple[np.ndarray, np.ndarray]:
    """Pinwheel points and labels, shuffled (Bergamin et al. 2023, App. D.3; notes Sec. 2.4).

    Parameters
    ----------
    radial_std, tangential_std : float, optional
        Standard deviations of the two features before rotation (0.3, 0.05).
    num_classes : int, optional
        Number of arms (5).
    num_per_class : int, optional
        Points per arm (200).
    rate : float, optional
        Twist of the arms (0.25).
    seed : int, optional
        Seed of the legacy Mersenne-Twister stream (42).

    Returns
    -------
    X : numpy.ndarray, shape (num_classes * num_per_class, 2)
        Points, float64, in the authors' shuffled order.
    y : numpy.ndarray, shape (num_classes * num_per_class,)
        Arm indices ``0 .. num_classes - 1``, int64.

    Raises
    ------
    ValueError
        If a count is below 1 (``num_classes`` below 2) or a standard deviation is negative.
    """
    if int(num_classes) < 2 or int(num_per_class) < 1:
        raise ValueError(f"make_pinwheel: need num_classes >= 2 and num_per_class >= 1, got "
                         f"{num_classes} and {num_per_class}")
    if radial_std < 0 or tangential_std < 0:
        raise ValueError(f"make_pinwheel: standard deviations must be >= 0, got {radial_std}, {tangential_std}")
    rng = np.random.RandomState(seed)
    arm_angles = np.linspace(0, 2 * np.pi, num_classes, endpoint=False)
    features = rng.randn(num_classes * num_per_class, 2) * np.array([radial_std, tangential_std])
    features[:, 0] += 1.0
    labels = np.repeat(np.arange(num_classes), num_per_class)
    angles = arm_angles[labels] + rate * np.exp(features[:, 0])
    cos, sin = np.cos(angles), np.sin(angles)
    rotations = np.stack([np.stack([cos, -sin], axis=1), np.stack([sin, cos], axis=1)], axis=1)  # (N, 2, 2)
    rotated = np.einsum("ni,nij->nj", features, rotations)
    shuffled = rng.permutation(np.concatenate([rotated, labels[:, None].astype(np.float64)], axis=1))
    return shuffled[:, :2].copy(), shuffled[:, 2].astype(np.int64)


def split_pinwheel(X: np.ndarray, y: np.ndarray, n_train: int = 350, n_valid: int = 50) -> ClassificationSplit:
    """The authors' split: the first 350 rows train, the next 50 validate, the rest (600) test.

    Parameters
    ----------
    X, y
        The output of :func:`make_pinwheel` (already shuffled, so leading rows are random).
    n_train, n_valid : int, optional
        Sizes of the training and validation sets (350, 50; ``pinwheel_experiment.py``).

    Returns
    -------
    ClassificationSplit
        350 / 50 / 600 points for the default data; ``n_classes`` = ``max(y) + 1``.

    Raises
    ------
    ValueError
        If the shapes do not match, the sizes leave no test point, or a class is missing from
        the training set.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y).astype(np.int64)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"split_pinwheel: expected X (N, d) and y (N,), got X {X.shape} and y {y.shape}")
    if n_train < 1 or n_valid < 0 or n_train + n_valid >= len(y):
        raise ValueError(f"split_pinwheel: n_train={n_train}, n_valid={n_valid} must leave test points "
                         f"of the {len(y)} rows")
    cut = n_train + n_valid
    split = ClassificationSplit(X[:n_train], y[:n_train], X[n_train:cut], y[n_train:cut], X[cut:], y[cut:],
                                int(y.max()) + 1)
    return check_split(split, "pinwheel split")
