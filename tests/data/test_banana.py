"""The banana data set is exactly the authors' (Yu et al. 2024, Sec. 5.2; notes Sec. 2.3)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from geobayes.data.banana import generate_banana_data
from geobayes.data.prepared import load_prepared, save_prepared


def test_same_draws_as_the_authors_code_without_touching_global_state():
    """Their code: ``np.random.seed(1); ys = scipy.stats.norm.rvs(loc=0.5+0.75, scale=2.0,
    size=100)``, run here verbatim; the global generator state is restored afterwards."""
    saved = np.random.get_state()
    try:
        np.random.seed(1)
        authors = scipy.stats.norm.rvs(loc=0.5 + 0.75, scale=2.0, size=100)
        state_before = np.random.get_state()
        prepared = generate_banana_data()
        state_after = np.random.get_state()
    finally:
        np.random.set_state(saved)
    np.testing.assert_array_equal(prepared.y, authors)
    # generate_banana_data uses a private generator: the global state did not move.
    assert state_before[0] == state_after[0]
    np.testing.assert_array_equal(state_before[1], state_after[1])
    assert state_before[2:] == state_after[2:]


def test_layout_and_settings():
    prepared = generate_banana_data(seed=3, n=50, theta1=-1.0, theta2_squared=2.0, noise_std=0.5)
    assert prepared.X.shape == (50, 0)
    assert prepared.y.shape == (50,) and prepared.y.dtype == np.float64
    assert prepared.feature_mean.shape == (0,) and prepared.feature_std.shape == (0,)
    assert prepared.standardised is False
    # Sample mean and sd within 5 standard errors of 1 and 0.5.
    assert abs(prepared.y.mean() - 1.0) < 5 * 0.5 / np.sqrt(50)
    assert abs(prepared.y.std(ddof=1) / 0.5 - 1.0) < 5 / np.sqrt(2 * 49)
    # The seed matters.
    assert not np.array_equal(prepared.y, generate_banana_data(seed=4, n=50).y)


def test_round_trip_through_prepared_file(tmp_path):
    prepared = generate_banana_data()
    path = save_prepared(tmp_path / "banana.npz", "banana", prepared.arrays())
    loaded = load_prepared(path, "banana")
    assert loaded["X"].shape == (100, 0)
    np.testing.assert_array_equal(loaded["y"], prepared.y)
    assert loaded["feature_mean"].shape == (0,) and loaded["feature_std"].shape == (0,)
    assert bool(loaded["standardised"]) is False


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"n": 0}, "n"),
        ({"n": 2.5}, "n"),
        ({"noise_std": 0.0}, "noise_std"),
        ({"theta2_squared": -1.0}, "theta2_squared"),
        ({"theta1": float("inf")}, "theta1"),
    ],
)
def test_bad_settings_raise(kwargs, field):
    with pytest.raises(ValueError, match=field):
        generate_banana_data(**kwargs)
