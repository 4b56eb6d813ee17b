"""Reference draws thinned evenly before the exact Wasserstein distances (config ``evaluation.max_reference_draws``).

The exact distances (POT's network simplex, :mod:`geobayes.metrics.wasserstein`) cost more than
linearly in the reference's size. A NUTS reference of many draws holds far fewer effective ones:
Yu et al. (2024)'s banana gives NUTS about one effective draw in ten, so its quick-scale reference
has 4 x 5,000 draws to pass ESS >= 400. Every ``k``-th draw, ``k = ceil(n / max_draws)``, keeps
nearly all of that information: on the banana, W1 of the 28 quick-scale approximations to every
4th of the 20,000 draws differed from W1 to all of them by at most 0.0097 (3.6 %) and took
0.3-0.4 s instead of 4-10 s each; the methods' order by mean W1 held but for two 0.003 apart
(``benchmarks/bench_reference_thinning.py``, 2026-11-29). The evaluations,
the Monte Carlo floors and the NumPyro-Stan cross-check read the same thinned reference, so the
distances and their floors stay comparable.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["thinning_stride", "thinned_reference"]


def thinning_stride(n: int, max_draws: int | None) -> int:
    """``k = ceil(n / max_draws)``, the stride that leaves at most ``max_draws`` of ``n`` draws (1: keep all).

    Parameters
    ----------
    n : int
        Draws in the reference (``>= 0``).
    max_draws : int or None
        At most this many draws are kept (``>= 2``); None keeps every draw.

    Raises
    ------
    ValueError
        One line, if ``max_draws`` is neither None nor an integer ``>= 2`` (``evaluation.max_reference_draws``).
    """
    if max_draws is None:
        return 1
    if isinstance(max_draws, bool) or not isinstance(max_draws, (int, np.integer)) or max_draws < 2:
        raise ValueError(f"evaluation.max_reference_draws must be null or an integer >= 2; got {max_draws!r}")
    return max(1, math.ceil(int(n) / int(max_draws)))


def thinned_reference(draws: Any, max_draws: int | None, chain_index: Any = None) -> tuple[np.ndarray, Any]:
    """Every ``k``-th reference draw (:func:`thinning_stride`), and the same rows of ``chain_index``.

    Parameters
    ----------
    draws : array_like, shape (n, D)
        The reference's draws, chains one after another.
    max_draws : int or None
        ``evaluation.max_reference_draws``: at most this many draws are returned; None returns all.
    chain_index : array_like of int, shape (n,), optional
        Chain of each draw (the cross-check splits by chain), thinned alike.

    Returns
    -------
    draws : numpy.ndarray, shape (ceil(n / k), D)
        ``draws[::k]``.
    chain_index : numpy.ndarray or None
        ``chain_index[::k]``, or None if none was given.

    Raises
    ------
    ValueError
        One line, if ``draws`` is not (n, D), ``chain_index`` has another length, or ``max_draws`` is invalid.
    """
    draws = np.asarray(draws)
    if draws.ndim != 2:
        raise ValueError(f"reference draws must be (n, D); got shape {draws.shape}")
    stride = thinning_stride(draws.shape[0], max_draws)
    if chain_index is None:
        return draws[::stride], None
    chain_index = np.asarray(chain_index)
    if chain_index.shape != (draws.shape[0],):
        raise ValueError(f"chain_index must have one entry per draw ({draws.shape[0]}); got shape {chain_index.shape}")
    return draws[::stride], chain_index[::stride]
