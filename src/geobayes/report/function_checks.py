"""Input checks of the 1-D function figures (network predictives on a grid of inputs).

Shared by :mod:`geobayes.report.bnn_figures` (Yu et al. 2024, Bergamin et al. 2023) and
:mod:`geobayes.report.bnn_pushforward_figures` (Hartmann et al. 2026): each names the argument
and the shape it expected in one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["check_vector", "check_grid", "check_samples", "check_positive_int", "check_intervals"]


def check_vector(value: Any, name: str, length: int | None = None) -> np.ndarray:
    """``value`` as a finite 1-D float array (of ``length`` entries if given)."""
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim != 1 or (length is not None and arr.shape[0] != length):
        expected = f"({length},)" if length is not None else "(n,)"
        raise ValueError(f"{name} must be a 1-D array of shape {expected}; got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains {int(np.sum(~np.isfinite(arr)))} non-finite values")
    return arr


def check_grid(value: Any, name: str) -> np.ndarray:
    """``value`` as at least two strictly increasing finite inputs."""
    x = check_vector(value, name)
    if x.shape[0] < 2 or not np.all(np.diff(x) > 0):
        raise ValueError(f"{name} must hold at least two strictly increasing inputs; got shape {x.shape}")
    return x


def check_samples(value: Any, name: str, n_inputs: int) -> np.ndarray:
    """``value`` as finite function samples of shape ``(S, n_inputs)``, ``S >= 1``."""
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] != n_inputs or arr.shape[0] < 1:
        raise ValueError(
            f"{name} must be a 2-D array of shape (S, {n_inputs}) = (samples, grid inputs); got shape {arr.shape}"
        )
    bad = int(np.sum(~np.isfinite(arr)))
    if bad:
        raise ValueError(f"{name} contains {bad} non-finite values; drop failed samples (and count them) first")
    return arr


def check_positive_int(value: Any, name: str) -> int:
    """``value`` as an integer >= 1 (a bool is refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer; got {value!r}")
    return int(value)


def check_intervals(intervals: Sequence[tuple[float, float]], name: str) -> list[tuple[float, float]]:
    """``intervals`` as finite pairs ``(low, high)`` with ``low <= high``."""
    checked = []
    for interval in intervals:
        values = np.asarray(interval, dtype=np.float64)
        if values.shape != (2,) or not np.all(np.isfinite(values)) or not values[0] <= values[1]:
            raise ValueError(f"{name} must be pairs (low, high) with low <= high; got {interval!r}")
        checked.append((float(values[0]), float(values[1])))
    return checked
