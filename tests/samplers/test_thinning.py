"""Reference draws thinned before the exact distances (geobayes.samplers.thinning, config
``evaluation.max_reference_draws``)."""

import numpy as np
import pytest

from geobayes.samplers.thinning import thinned_reference, thinning_stride


@pytest.mark.parametrize("n, max_draws, stride, kept", [
    (20000, 5000, 4, 5000),  # the quick banana: every 4th
    (10000, 5000, 2, 5000),  # Poisson n = 10
    (4000, 5000, 1, 4000),   # the other quick references: untouched
    (10, 4, 3, 4),           # not a divisor: never more than max_draws
    (10, None, 1, 10),       # null: every draw
])
def test_every_kth_draw_is_kept_and_never_more_than_the_maximum(n, max_draws, stride, kept):
    draws = np.arange(2 * n, dtype=float).reshape(n, 2)
    chains = np.repeat(np.arange(2), n // 2 + 1)[:n]
    thinned, thinned_chains = thinned_reference(draws, max_draws, chains)
    assert thinning_stride(n, max_draws) == stride
    assert thinned.shape == (kept, 2) and kept <= (max_draws or n)
    np.testing.assert_array_equal(thinned, draws[::stride])
    np.testing.assert_array_equal(thinned_chains, chains[::stride])
    assert thinned_reference(draws, max_draws)[1] is None


def test_thinning_keeps_every_chain_in_the_cross_checks_halves():
    """Chains one after another (as references are stored): each chain keeps its share."""
    chains = np.repeat(np.arange(4), 5000)
    _, thinned = thinned_reference(np.zeros((20000, 2)), 5000, chains)
    assert np.bincount(thinned).tolist() == [1250] * 4


@pytest.mark.parametrize("max_draws", [1, 0, -5, 2.5, True, "5000"])
def test_a_bad_maximum_names_the_config_key(max_draws):
    with pytest.raises(ValueError, match=r"^evaluation\.max_reference_draws must be null or an integer >= 2; got"):
        thinned_reference(np.zeros((10, 2)), max_draws)


def test_bad_draws_or_chain_index_are_named():
    with pytest.raises(ValueError, match=r"must be \(n, D\); got shape \(10,\)"):
        thinned_reference(np.zeros(10), 5)
    with pytest.raises(ValueError, match=r"one entry per draw \(10\); got shape \(9,\)"):
        thinned_reference(np.zeros((10, 2)), 5, np.zeros(9, dtype=int))
