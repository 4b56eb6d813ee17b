"""Equal computation time (Yu et al. 2023, App. A.6; notes Sec. 3.6, 8.4 item 13)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

__all__ = ["EqualTimeChoice", "value_at_time", "equal_time_choice"]


class EqualTimeChoice(NamedTuple):
    """One sampler's grid point re-selected at the budget, and its per-seed test metrics there.

    Attributes
    ----------
    point
        The grid point with the highest mean validation LP at the budget (``None``: no point had a
        sample by then).
    lp, accuracy
        Per seed, the test LP and accuracy of that point interpolated at the budget.
    """

    point: str | None
    lp: list[float]
    accuracy: list[float]


def value_at_time(curve: Sequence[float], seconds_per_epoch: float, budget: float) -> float:
    """A per-epoch curve read at wall time ``budget``: epoch ``e`` (0-based) ends at ``(e + 1) T``.

    Linear interpolation between epoch ends (the code's ``scipy.interp1d``); NaN where the curve
    is NaN at an end point (no sample yet) or the budget lies outside ``[T, E T]``.
    """
    values = np.asarray(curve, dtype=np.float64)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"curve must be a non-empty 1-D sequence, got shape {values.shape}")
    if not (np.isfinite(seconds_per_epoch) and seconds_per_epoch > 0):
        raise ValueError(f"seconds_per_epoch must be finite and > 0, got {seconds_per_epoch!r}")
    times = (np.arange(values.size) + 1) * seconds_per_epoch
    if budget < times[0] - 1e-9 * times[0] or budget > times[-1] * (1 + 1e-12):
        return float("nan")
    return float(np.interp(budget, times, values))


def equal_time_choice(curves: Mapping[str, Sequence[Mapping[str, np.ndarray]]], seconds_per_epoch: float,
                      budget: float) -> EqualTimeChoice:
    """Re-select one sampler's grid point at the budget and read its test metrics there.

    Yu et al. (2023), App. A.6: every sampler gets the wall time of the fastest one's whole run;
    its per-epoch cumulative-ensemble curves are placed on the time axis at ``(e + 1) T``, the
    learning rate is chosen anew by the mean validation LP interpolated at the budget, and the
    test LP and accuracy are read at the same time.

    Parameters
    ----------
    curves
        Grid point -> its seeds' curves (``valid_lp``, ``test_lp``, ``test_accuracy`` per epoch).
    seconds_per_epoch
        The sampler's time per epoch.
    budget
        The equal wall time, ``epochs x`` the fastest sampler's time per epoch.
    """
    scores = {}
    for point, seeds in curves.items():
        values = [value_at_time(c["valid_lp"], seconds_per_epoch, budget) for c in seeds]
        if values and all(np.isfinite(values)):
            scores[point] = float(np.mean(values))
    if not scores:
        return EqualTimeChoice(None, [], [])
    point = max(scores, key=scores.get)
    read = {name: [value_at_time(c[name], seconds_per_epoch, budget) for c in curves[point]]
            for name in ("test_lp", "test_accuracy")}
    return EqualTimeChoice(point, read["test_lp"], read["test_accuracy"])
