"""``derive_seed``: integer seeds for NumPy generators, a pure function of the seed and labels."""

from __future__ import annotations

import numpy as np
import pytest

from geobayes.random import derive_seed, stable_int


def test_derive_seed_is_deterministic_and_a_seedsequence_of_seed_and_labels():
    first = derive_seed(3, "data", "ripley", 2)
    assert isinstance(first, int) and 0 <= first < 2**32
    assert derive_seed(3, "data", "ripley", 2) == first
    # The label count is part of the entropy (SeedSequence zero-pads short entropy).
    expected = int(np.random.SeedSequence([3, 3, stable_int("data"), stable_int("ripley"), 2]).generate_state(1)[0])
    assert first == expected
    assert derive_seed(7) == int(np.random.SeedSequence([7, 0]).generate_state(1)[0])


@pytest.mark.parametrize("a, b", [
    ((0, "a", "b"), (0, "b", "a")),  # label order matters
    ((0, "a"), (1, "a")),  # seed matters
    ((0, "a"), (0, "a", 0)),  # an extra zero label matters (SeedSequence zero-pads)
    ((5,), (5, 0, 0, 0)),
    ((0, "a", "b"), (0, "a", "b", "c")),  # an extra non-zero label matters
    ((0, "subset", 1), (0, "subset", 2)),  # repetition index matters
    ((5, "x"), (5, "y")),
])
def test_derive_seed_depends_on_seed_and_labels(a, b):
    assert derive_seed(*a) != derive_seed(*b)


def test_derived_generators_are_reproducible_and_distinct():
    draws = [np.random.default_rng(derive_seed(11, "synth", k)).normal(size=4) for k in (0, 0, 1)]
    np.testing.assert_array_equal(draws[0], draws[1])
    assert not np.allclose(draws[0], draws[2])
