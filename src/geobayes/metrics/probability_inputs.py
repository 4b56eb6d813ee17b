"""Input checks of the classification metrics: probability arrays and labels, each problem in one
line naming the array, the first bad entry and what was expected (Bergamin et al. 2023's metrics,
:mod:`geobayes.metrics.classification` and :mod:`geobayes.metrics.calibration`)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["ROW_SUM_ATOL", "checked_bin_count", "checked_labels", "checked_probabilities", "probability_array"]

#: Largest allowed ``|sum_c p_nc - 1|`` of a probability row.
ROW_SUM_ATOL = 1e-6


def _index(name: str, idx: tuple[int, ...]) -> str:
    return f"{name}[{', '.join(str(int(i)) for i in idx)}]"


def probability_array(name: str, value: Any, ndim: int, layout: str) -> np.ndarray:
    """Validate an array of probability vectors along its last axis; return it as float64.

    ``layout`` names the axes for messages, e.g. ``"(N, C)"``.
    """
    arr = np.asarray(value)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"{name} must be a real numeric array of probabilities; got dtype {arr.dtype}")
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array of shape {layout}; got shape {arr.shape}")
    if arr.size == 0 or arr.shape[-1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}); need at least one row and two classes")
    if arr.shape[-1] < 2:
        raise ValueError(f"{name} must have at least 2 columns (classes); got shape {arr.shape}")
    arr = arr.astype(np.float64)
    nonfinite = ~np.isfinite(arr)
    if nonfinite.any():
        first = _index(name, tuple(np.argwhere(nonfinite)[0]))
        raise ValueError(
            f"{name} has {int(nonfinite.sum())} non-finite entries (NaN or inf); the first is {first}"
        )
    negative = arr < 0.0
    if negative.any():
        first = tuple(np.argwhere(negative)[0])
        raise ValueError(
            f"{name} has {int(negative.sum())} negative probabilities; "
            f"the first is {_index(name, first)} = {arr[first].item()!r}"
        )
    above = arr > 1.0
    if above.any():
        first = tuple(np.argwhere(above)[0])
        raise ValueError(
            f"{name} has {int(above.sum())} probabilities greater than 1; "
            f"the first is {_index(name, first)} = {arr[first].item()!r}"
        )
    sums = arr.sum(axis=-1)
    bad_rows = np.abs(sums - 1.0) > ROW_SUM_ATOL
    if bad_rows.any():
        first = tuple(np.argwhere(bad_rows)[0])
        where = f"row {int(first[0])}" if len(first) == 1 else _index(name, first)[:-1] + ", :]"
        raise ValueError(
            f"{name} rows must sum to 1 within {ROW_SUM_ATOL:g}; {int(bad_rows.sum())} do not, "
            f"the first is {where} with sum {float(sums[first])!r}"
        )
    return arr


def checked_probabilities(value: Any, name: str = "probs") -> np.ndarray:
    return probability_array(name, value, 2, "(N, C)")


def checked_labels(value: Any, n_rows: int, n_classes: int, probs_name: str = "probs") -> np.ndarray:
    """Validate integer labels for ``n_rows`` rows of ``n_classes`` classes; return them as int64."""
    y = np.asarray(value)
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D array of integer class labels; got shape {y.shape}")
    if y.dtype == bool or not (np.issubdtype(y.dtype, np.integer) or np.issubdtype(y.dtype, np.floating)):
        raise ValueError(f"y must hold integer class labels; got dtype {y.dtype}")
    if y.shape[0] != n_rows:
        raise ValueError(f"{probs_name} has {n_rows} rows but y has {y.shape[0]} labels")
    if np.issubdtype(y.dtype, np.floating):
        not_int = ~np.isfinite(y) | (y != np.round(y))
        if not_int.any():
            i = int(np.argmax(not_int))
            raise ValueError(
                f"y must hold integer class labels; {int(not_int.sum())} are not, the first is y[{i}] = {y[i].item()!r}"
            )
    out = (y < 0) | (y >= n_classes)
    if out.any():
        i = int(np.argmax(out))
        raise ValueError(
            f"y must lie in [0, {n_classes}) for {n_classes} classes; {int(out.sum())} labels do not, "
            f"the first is y[{i}] = {y[i].item()!r}"
        )
    labels = y.astype(np.int64)
    return labels


def checked_bin_count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"n_bins must be an integer >= 1; got {value!r}")
    return int(value)


# --------------------------------------------------------------------------- metrics
