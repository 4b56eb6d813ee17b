"""The validation split of Yu et al.'s (2023) code: a legacy-NumPy seeded draw (notes Secs. 3.4-3.5).

Both of its data sets hold out ``np.random.seed(1); np.random.choice(n, n_valid, replace=False)``
of the official training set (MNIST 10,000 of 60,000; CIFAR-10 10,000 of 50,000).
"""

from __future__ import annotations

import numpy as np

__all__ = ["validation_indices", "split_indices"]


def validation_indices(n: int, n_valid: int, seed: int = 1) -> np.ndarray:
    """``np.random.seed(seed); np.random.choice(n, n_valid, replace=False)``, bit for bit (int64).

    Raises
    ------
    ValueError
        If ``n_valid`` is not in ``[0, n]``.
    """
    if not 0 <= int(n_valid) <= int(n):
        raise ValueError(f"n_valid must be in [0, n={n}], got {n_valid}")
    return np.random.RandomState(int(seed)).choice(int(n), int(n_valid), replace=False).astype(np.int64)


def split_indices(n: int, n_valid: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``(train, valid)`` indices into the official training set: ``valid`` is
    :func:`validation_indices` (in draw order), ``train`` the other ``n - n_valid``, increasing."""
    valid = validation_indices(n, n_valid, seed)
    keep = np.ones(int(n), dtype=bool)
    keep[valid] = False
    return np.flatnonzero(keep).astype(np.int64), valid
