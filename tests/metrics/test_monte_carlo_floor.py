"""The Monte Carlo floor: exact answers, the split, its determinism, and its expectation."""

import math

import numpy as np
import pytest

from geobayes.metrics import wasserstein1_1d
from geobayes.metrics.monte_carlo_floor import DISTANCES, floor_sizes, monte_carlo_floor, split_reference
from geobayes.random import derive_key

BIG = 1e10  # the paper's numItermax


def test_identical_points_give_zero():
    # Every draw is the same point, so both parts are the same measure and every distance is 0
    # (up to ot.dist's rounding floor of about 1e-8 * ||x||, see test_wasserstein.py).
    reference = np.tile([0.7, -2.0, 3.1], (40, 1))
    floor = monte_carlo_floor(reference, 15, derive_key(0, "test"), list(DISTANCES), num_iter_max=BIG)
    assert set(floor.values) == set(DISTANCES)
    for value in floor.values.values():
        assert value == pytest.approx(0.0, abs=1e-6)


def test_two_points_give_their_distance():
    # R = 2, n = 1: whatever the permutation, one part is {x} and the other {y}; the only
    # coupling moves all mass from x to y, so W1 = W2 = ||x - y|| and the first-coordinate
    # W1 is |x_0 - y_0|.
    x, y = np.array([1.0, 2.0, -1.0]), np.array([-0.5, 4.0, 1.0])
    for k in range(4):
        floor = monte_carlo_floor(np.stack([x, y]), 1, derive_key(0, "test", k), list(DISTANCES), num_iter_max=BIG)
        assert floor.values["full"] == pytest.approx(np.linalg.norm(x - y), rel=1e-12)
        assert floor.values["w2"] == pytest.approx(np.linalg.norm(x - y), rel=1e-12)
        assert floor.values["first_coordinate"] == pytest.approx(abs(x[0] - y[0]), rel=1e-12)
        assert (floor.size_a, floor.size_b) == (1, 1)


@pytest.mark.parametrize("size, n, expected", [(100, 30, (30, 70)), (100, 50, (50, 50)), (100, 80, (50, 50)),
                                               (11, 8, (5, 5)), (11, 5, (5, 6)), (2, 1, (1, 1))])
def test_sizes(size, n, expected):
    assert floor_sizes(size, n) == expected


@pytest.mark.parametrize("n", [30, 70, 99])
def test_split_is_disjoint_random_and_deterministic(n):
    size = 101
    reference = np.arange(size, dtype=float)[:, None] * np.ones((1, 2))  # row i holds i: rows are their ids
    key = derive_key(3, "floor", "test", 0)
    part_a, part_b = split_reference(reference, n, key)
    a, b = part_a[:, 0].astype(int), part_b[:, 0].astype(int)
    assert (a.size, b.size) == floor_sizes(size, n)
    assert len(set(a)) == a.size and len(set(b)) == b.size and not set(a) & set(b)
    again_a, again_b = split_reference(reference, n, key)
    np.testing.assert_array_equal(again_a, part_a)
    np.testing.assert_array_equal(again_b, part_b)
    other_a, _ = split_reference(reference, n, derive_key(3, "floor", "test", 1))
    assert set(other_a[:, 0].astype(int)) != set(a)
    assert set(a) != set(range(a.size))  # a permutation, not the first n rows


def test_same_key_same_number():
    rng = np.random.default_rng(0)
    reference = rng.normal(size=(300, 3))
    key = derive_key(1, "floor", "posterior", 0)
    first = monte_carlo_floor(reference, 100, key, ["full", "w2"], num_iter_max=BIG)
    second = monte_carlo_floor(reference, 100, key, ["full", "w2"], num_iter_max=BIG)
    other = monte_carlo_floor(reference, 100, derive_key(1, "floor", "posterior", 1), ["full", "w2"],
                              num_iter_max=BIG)
    assert first == second
    assert other.values["full"] != first.values["full"]


def test_only_requested_distances():
    reference = np.random.default_rng(1).normal(size=(50, 2))
    floor = monte_carlo_floor(reference, 10, derive_key(0, "test"), ["first_coordinate"], num_iter_max=BIG)
    assert list(floor.values) == ["first_coordinate"]


def test_full_equals_first_coordinate_in_one_dimension():
    # In 1-D the exact EMD with |x - y| cost is the sorted-sample W1.
    reference = np.random.default_rng(2).normal(size=(200, 1))
    floor = monte_carlo_floor(reference, 60, derive_key(0, "test"), ["full", "first_coordinate"], num_iter_max=BIG)
    assert floor.values["full"] == pytest.approx(floor.values["first_coordinate"], rel=1e-9)


def test_floor_of_normal_matches_expected_distance_of_two_independent_samples():
    # The floor of n draws against R - n is one draw of W1 between two independent empirical
    # measures of the reference's distribution. Over fresh standard-normal references (seed 0)
    # its mean must match the mean of W1 between independent N(0, 1) samples of the same sizes,
    # simulated directly with another seed; tolerance: 4 standard errors of the difference.
    size, n, repeats = 400, 100, 300
    references = np.random.default_rng(0).normal(size=(repeats, size, 1))
    floors = np.array([monte_carlo_floor(references[k], n, derive_key(0, "floor", "normal", k), ["first_coordinate"],
                                         num_iter_max=BIG).values["first_coordinate"] for k in range(repeats)])
    rng = np.random.default_rng(1)
    direct = np.array([wasserstein1_1d(rng.normal(size=n), rng.normal(size=size - n)) for _ in range(repeats)])
    standard_error = math.sqrt(floors.var(ddof=1) / repeats + direct.var(ddof=1) / repeats)
    assert abs(floors.mean() - direct.mean()) < 4 * standard_error
    # The check has power: overlapping parts (A inside B) would score far lower.
    overlapping = np.array([wasserstein1_1d(r[:n, 0], r[:, 0]) for r in references])
    assert abs(overlapping.mean() - direct.mean()) > 4 * standard_error


@pytest.mark.parametrize(
    "reference, n, distances, match",
    [
        (np.zeros((10, 2)), 0, ["full"], r"1 <= n < R = 10"),
        (np.zeros((10, 2)), 10, ["full"], r"1 <= n < R = 10"),
        (np.zeros((10, 2)), 2.5, ["full"], "integer"),
        (np.zeros((10, 2)), True, ["full"], "integer"),
        (np.zeros((10, 2)), 3, ["w3"], r"unknown distance name\(s\) \['w3'\]"),
        (np.zeros((10, 2)), 3, [], "at least one"),
        (np.zeros((10, 2)), 3, "full", "list of names"),
        (np.zeros((10, 2)), 3, ["full", "full"], "repeat"),
        (np.zeros(10), 3, ["full"], "2-D"),
        (np.full((10, 2), np.nan), 3, ["full"], "non-finite"),
    ],
)
def test_bad_inputs_raise_one_line(reference, n, distances, match):
    with pytest.raises(ValueError, match=match) as error:
        monte_carlo_floor(reference, n, derive_key(0, "test"), distances, num_iter_max=BIG)
    assert "\n" not in str(error.value)
