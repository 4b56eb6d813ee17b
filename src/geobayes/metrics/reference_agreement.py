"""Do two NUTS references of one posterior agree? W1 between them beside the Monte Carlo floor.

Two independent implementations of NUTS (NumPyro's and Stan's) sampling the same posterior give
two sets of draws. Their exact W1 (:func:`~geobayes.metrics.wasserstein.wasserstein1`) is never 0:
both are finite samples. The floor is what two independent samples of *one* implementation score at
the same sizes. Each reference's chains are independent, so splitting its chains into two halves
gives two independent samples of it (a random split of the draws would put autocorrelated
neighbours into both halves and bias the floor low, :mod:`geobayes.metrics.monte_carlo_floor`).
With ``A1, A2`` and ``B1, B2`` the chain halves of references ``A`` and ``B``:

* floor of ``A`` = ``W1(A1, A2)``, floor of ``B`` = ``W1(B1, B2)``;
* between = the mean of ``W1(A1, B2)`` and ``W1(A2, B1)``: every distance pairs two independent
  halves of the same sizes;
* ratio = between / the larger floor. Two correct implementations give a ratio near 1; a pair
  whose ratio exceeds ``max_floor_ratio`` disagrees beyond Monte Carlo error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from geobayes.metrics.wasserstein import wasserstein1

__all__ = ["ReferenceAgreement", "chain_halves", "reference_agreement"]


@dataclass(frozen=True)
class ReferenceAgreement:
    """W1 between two references and each one's floor (see the module docstring).

    Attributes
    ----------
    between : float
        Mean W1 between a chain half of one reference and a chain half of the other.
    floor_a, floor_b : float
        W1 between the two chain halves of each reference.
    ratio : float
        ``between / max(floor_a, floor_b)``.
    disagrees : bool
        ``ratio > max_floor_ratio``.
    half_sizes : tuple of int
        Draws in each half: ``(A1, A2, B1, B2)``.
    """

    between: float
    floor_a: float
    floor_b: float
    ratio: float
    disagrees: bool
    half_sizes: tuple[int, int, int, int]


def chain_halves(draws: Any, chain_index: Any) -> tuple[np.ndarray, np.ndarray]:
    """The draws of the first half of the chains and of the second half.

    Parameters
    ----------
    draws : array_like
        Reference draws, shape (n, D).
    chain_index : array_like of int
        Chain of each draw, shape (n,).

    Raises
    ------
    ValueError
        If the shapes differ or there are fewer than two chains.
    """
    draws, chains = np.asarray(draws, dtype=np.float64), np.asarray(chain_index)
    if draws.ndim != 2 or chains.shape != (draws.shape[0],):
        raise ValueError(f"draws must be (n, D) with one chain index per draw; got {draws.shape} and {chains.shape}")
    labels = np.unique(chains)
    if labels.size < 2:
        raise ValueError(f"a reference needs at least two chains to split into independent halves; got {labels.size}")
    first = np.isin(chains, labels[: labels.size // 2])
    return draws[first], draws[~first]


def reference_agreement(draws_a: Any, chains_a: Any, draws_b: Any, chains_b: Any, *, num_iter_max: int | float,
                        max_floor_ratio: float) -> ReferenceAgreement:
    """W1 between references ``A`` and ``B`` of one posterior beside each one's floor.

    Parameters
    ----------
    draws_a, draws_b : array_like
        The two references' draws, shape (n_a, D) and (n_b, D).
    chains_a, chains_b : array_like of int
        Chain of each draw (each reference at least two chains).
    num_iter_max : int or float
        Iteration limit of the exact solver (``evaluation.wasserstein.num_iter_max``).
    max_floor_ratio : float
        A ratio above it marks the pair as disagreeing (``reference.crosscheck.max_floor_ratio``).

    Raises
    ------
    ValueError
        If the dimensions differ, a reference has fewer than two chains, or ``max_floor_ratio`` is
        not positive.
    """
    if not max_floor_ratio > 0:
        raise ValueError(f"max_floor_ratio must be > 0; got {max_floor_ratio!r}")
    a1, a2 = chain_halves(draws_a, chains_a)
    b1, b2 = chain_halves(draws_b, chains_b)
    if a1.shape[1] != b1.shape[1]:
        raise ValueError(f"the references have {a1.shape[1]} and {b1.shape[1]} parameters")
    floor_a = wasserstein1(a1, a2, num_iter_max=num_iter_max)
    floor_b = wasserstein1(b1, b2, num_iter_max=num_iter_max)
    between = 0.5 * (wasserstein1(a1, b2, num_iter_max=num_iter_max) + wasserstein1(a2, b1, num_iter_max=num_iter_max))
    ratio = between / max(floor_a, floor_b)
    return ReferenceAgreement(between=between, floor_a=floor_a, floor_b=floor_b, ratio=ratio,
                              disagrees=bool(ratio > max_floor_ratio),
                              half_sizes=(len(a1), len(a2), len(b1), len(b2)))
