"""The Monte Carlo floor of a Wasserstein evaluation: the distance between two parts of the reference.

An approximation is evaluated by the distance between its ``n`` draws and the ``R`` draws of
the reference (:mod:`geobayes.metrics.wasserstein`). Even an exact sampler scores above zero
there, because both sides are finite samples. The floor measures that noise with the
reference alone: split the ``R`` reference draws at random into two disjoint parts ``A`` (``n``
draws) and ``B`` (the other ``R - n``) and compute the same distance between them, with the same
solver settings. A method whose distance is within the floor's spread is indistinguishable from
exact at this ``n`` and ``R``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jax
import numpy as np

from geobayes.metrics.wasserstein import _as_samples, wasserstein1, wasserstein1_1d, wasserstein2

__all__ = ["DISTANCES", "MonteCarloFloor", "floor_sizes", "monte_carlo_floor", "split_reference"]

#: Distance names of the config's ``experiments.<name>.wasserstein`` lists: exact W1 in R^D,
#: the 1-D W1 of the first coordinate, exact W2 (as workflow/scripts/evaluate.py computes them).
DISTANCES = ("full", "first_coordinate", "w2")


@dataclass(frozen=True)
class MonteCarloFloor:
    """The floor of each distance and the part sizes it was computed at.

    Attributes
    ----------
    values : Mapping[str, float]
        Distance name (one of :data:`DISTANCES`) -> distance between the two parts.
    size_a, size_b : int
        Draws in part ``A`` (the stand-in for the approximation) and part ``B`` (the stand-in
        for the reference).
    """

    values: Mapping[str, float]
    size_a: int
    size_b: int


def floor_sizes(reference_size: int, n: int) -> tuple[int, int]:
    """Sizes of the two parts: ``(n, R - n)``, or ``(R // 2, R // 2)`` when ``n > R / 2``.

    Parameters
    ----------
    reference_size : int
        ``R``, the number of reference draws (at least 2).
    n : int
        The evaluation's sample count, ``1 <= n < R``.

    Raises
    ------
    ValueError
        If ``n`` is not an integer with ``1 <= n < R``.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"n must be an integer number of draws; got {n!r}")
    if not 1 <= n < reference_size:
        raise ValueError(f"n must satisfy 1 <= n < R = {reference_size} (the reference's draw count); got n = {n}")
    if 2 * n > reference_size:
        return reference_size // 2, reference_size // 2
    return int(n), reference_size - int(n)


def split_reference(reference: Any, n: int, key: jax.Array) -> tuple[np.ndarray, np.ndarray]:
    """Two disjoint parts of the reference draws, chosen by a random permutation from ``key``.

    Parameters
    ----------
    reference : array_like
        Reference draws shaped ``(R, D)``.
    n : int
        The evaluation's sample count; the part sizes are :func:`floor_sizes` ``(R, n)``.
    key : jax.Array
        PRNG key of the permutation; the same key gives the same parts.

    Returns
    -------
    part_a, part_b : numpy.ndarray
        Rows of ``reference``: ``part_a`` the first ``size_a`` of the permuted rows, ``part_b``
        the next ``size_b`` (when ``R`` is odd and ``n > R / 2`` one draw is left out).
    """
    reference = _as_samples("reference", reference, 2)
    size_a, size_b = floor_sizes(reference.shape[0], n)
    order = np.asarray(jax.random.permutation(key, reference.shape[0]))
    return reference[order[:size_a]], reference[order[size_a:size_a + size_b]]


def monte_carlo_floor(
    reference: Any,
    n: int,
    key: jax.Array,
    distances: Sequence[str],
    *,
    num_iter_max: int | float,
) -> MonteCarloFloor:
    """The Monte Carlo floor of each distance: the distance between two disjoint parts of the reference.

    The ``R`` reference draws are split at random (:func:`split_reference`) into part ``A`` of
    ``n`` draws and part ``B`` of the remaining ``R - n``; if ``n > R / 2`` both parts have
    ``R // 2`` draws instead, and the sizes used are returned. Each distance is then computed
    between ``A`` and ``B`` exactly as an evaluation computes it between an approximation's
    draws and the reference: ``"full"`` exact W1 in R^D (:func:`~geobayes.metrics.wasserstein1`),
    ``"first_coordinate"`` the 1-D W1 of the first coordinate
    (:func:`~geobayes.metrics.wasserstein1_1d`), ``"w2"`` exact W2
    (:func:`~geobayes.metrics.wasserstein2`).

    What it estimates: the distance that an exact sampler drawing ``size_a`` independent draws
    from the reference's distribution would score against ``size_b`` reference draws. For
    independent reference draws (an exact reference) it is one draw of
    :math:`W(\\hat\\mu_{n_A}, \\hat\\mu'_{n_B})` for two independent empirical measures of the
    same distribution. At equal sizes (``n_A = n_B``) its expectation is the expected W between
    two exact samplers of that size. Its mean over repetitions (different keys) is an unbiased
    estimate of that expectation, which is positive and shrinks as the sizes grow (for W1 in
    R^D like ``n^(-1/2)`` for D = 1 and ``n^(-1/D)`` for D >= 3; Fournier & Guillin 2015,
    Thm. 1), so a floor belongs to its sizes and cannot be carried to another ``n`` or ``R``.
    Repetitions of the floor, like the evaluation's repetitions, share one reference, so their
    spread is the spread given that reference (it leaves out the reference's own variation).

    Bias relative to an evaluation: an evaluation compares ``n`` draws with all ``R`` reference
    draws, the floor with only ``R - n`` (or ``R / 2``), so the floor is somewhat larger than
    what an exact sampler would score in the evaluation (a smaller reference is noisier): a
    method at or below the floor is indistinguishable from exact, not better than exact. A
    NUTS reference has autocorrelated draws; a random split puts neighbouring (correlated)
    draws into both parts, which makes the parts more alike than independent draws would be,
    so for a reference whose effective sample size is well below ``R`` the floor is biased low.

    Parameters
    ----------
    reference : array_like
        Reference draws shaped ``(R, D)``, ``R >= 2``.
    n : int
        The evaluation's sample count, ``1 <= n < R``.
    key : jax.Array
        PRNG key of the split (e.g. ``derive_key(seed, "floor", posterior, repetition)``).
    distances : sequence of str
        Names from :data:`DISTANCES`, at least one, no repeats.
    num_iter_max : int or float
        Iteration limit of the network simplex for ``"full"`` and ``"w2"`` (config key
        ``evaluation.wasserstein.num_iter_max``, as in the evaluation).

    Returns
    -------
    MonteCarloFloor
        The value of each requested distance and the part sizes used.

    Raises
    ------
    ValueError
        If ``reference`` is not a finite 2-D real array, ``n`` is out of range, or a distance
        name is unknown, repeated or none is given.
    WassersteinNotConvergedError
        If the exact solver does not reach optimality within ``num_iter_max``.
    """
    if isinstance(distances, str):
        raise ValueError(f"distances must be a list of names from {list(DISTANCES)}; got the string {distances!r}")
    distances = list(distances)
    if not distances:
        raise ValueError(f"distances must name at least one of {list(DISTANCES)}; got none")
    unknown = [d for d in distances if d not in DISTANCES]
    if unknown:
        raise ValueError(f"unknown distance name(s) {unknown}; expected names from {list(DISTANCES)}")
    if len(set(distances)) != len(distances):
        raise ValueError(f"distances must not repeat a name; got {distances}")
    part_a, part_b = split_reference(reference, n, key)
    compute = {
        "full": lambda: wasserstein1(part_a, part_b, num_iter_max=num_iter_max),
        "first_coordinate": lambda: wasserstein1_1d(part_a[:, 0], part_b[:, 0]),
        "w2": lambda: wasserstein2(part_a, part_b, num_iter_max=num_iter_max),
    }
    values = {name: float(compute[name]()) for name in distances}
    return MonteCarloFloor(values=values, size_a=part_a.shape[0], size_b=part_b.shape[0])
