"""Validation of posterior *function samples*: a finite float64 array ``f_samples`` of shape ``(S, M)``,
row ``s`` the network output :math:`f_{\\theta_s}(x_m)` of posterior sample :math:`\\theta_s` at ``M``
inputs. Shared by :mod:`geobayes.metrics.predictive` and :mod:`geobayes.metrics.pushforward_w2`. A NaN or
inf is refused with a message that says so: a sample whose exponential map failed must be dropped (and
counted) by the caller.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["real_array", "check_finite", "function_samples"]


def real_array(name: str, value: Any) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"{name} must be a real numeric array; got dtype {arr.dtype}")
    return arr.astype(np.float64)


def check_finite(name: str, arr: np.ndarray) -> None:
    bad = int(np.count_nonzero(~np.isfinite(arr)))
    if bad:
        raise ValueError(
            f"{name} contains {bad} non-finite values (NaN or inf) in an array of shape {arr.shape}; "
            "drop failed samples (and count them) before computing predictive metrics"
        )


def function_samples(name: str, value: Any) -> np.ndarray:
    """Validate function samples: a finite float64 array of shape ``(S, M)``, S, M >= 1."""
    arr = real_array(name, value)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array of shape (S, M) = (samples, inputs); got shape {arr.shape} "
            "(use f[None, :] for a single sample or f[:, None] for a single input)"
        )
    if arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"{name} must hold at least one sample and one input; got shape {arr.shape}")
    check_finite(name, arr)
    return arr
