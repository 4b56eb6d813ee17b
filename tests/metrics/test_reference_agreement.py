"""Two references of one posterior: W1 between their chain halves beside each one's floor."""

import numpy as np
import pytest

from geobayes.metrics.reference_agreement import chain_halves, reference_agreement


def _reference(rng, shift=0.0, chains=4, per_chain=300):
    draws = rng.normal(size=(chains * per_chain, 2)) + shift
    return draws, np.repeat(np.arange(chains), per_chain)


def test_two_samples_of_one_posterior_agree_and_a_shifted_one_is_flagged():
    rng = np.random.default_rng(0)
    a, b, shifted = _reference(rng), _reference(rng), _reference(rng, shift=0.5)
    same = reference_agreement(*a, *b, num_iter_max=1e6, max_floor_ratio=1.5)
    assert 0.7 < same.ratio < 1.3 and not same.disagrees and same.half_sizes == (600, 600, 600, 600)
    assert same.ratio == pytest.approx(same.between / max(same.floor_a, same.floor_b))
    off = reference_agreement(*a, *shifted, num_iter_max=1e6, max_floor_ratio=1.5)
    assert off.disagrees and off.ratio > 2 and off.between > 0.4


def test_halves_are_whole_chains():
    draws = np.arange(12.0).reshape(6, 2)
    first, second = chain_halves(draws, np.array([0, 0, 1, 1, 2, 2]))
    np.testing.assert_array_equal(first, draws[:2])  # chain 0 of 3
    np.testing.assert_array_equal(second, draws[2:])
    with pytest.raises(ValueError, match="at least two chains"):
        chain_halves(draws, np.zeros(6, dtype=int))
    with pytest.raises(ValueError, match="one chain index per draw"):
        chain_halves(draws, np.zeros(5, dtype=int))
    with pytest.raises(ValueError, match="max_floor_ratio must be > 0"):
        reference_agreement(draws, np.arange(6) % 2, draws, np.arange(6) % 2, num_iter_max=1e6, max_floor_ratio=0)
