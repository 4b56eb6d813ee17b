"""Yu et al.'s (2023) equal-time comparison (App. A.6): curves read at the fastest sampler's wall time."""

from __future__ import annotations

import numpy as np
import pytest

from geobayes.sgmcmc.equal_time import equal_time_choice, value_at_time


def test_value_at_time_interpolates_between_epoch_ends():
    curve = [np.nan, -0.3, -0.2, -0.1]  # epoch ends at 2, 4, 6, 8 s
    assert value_at_time(curve, 2.0, 5.0) == pytest.approx(-0.25)
    assert value_at_time(curve, 2.0, 8.0) == pytest.approx(-0.1)
    assert np.isnan(value_at_time(curve, 2.0, 3.0))   # between a NaN end (no sample yet) and the next
    assert np.isnan(value_at_time(curve, 2.0, 9.0))   # past the run
    with pytest.raises(ValueError, match="seconds_per_epoch must be finite and > 0"):
        value_at_time(curve, 0.0, 1.0)


def _curves(valid, test):
    return {"valid_lp": np.asarray(valid), "test_lp": np.asarray(test), "test_accuracy": np.asarray(test) + 1.0}


def test_the_point_is_re_selected_at_the_budget():
    """Point a wins at the end of its run, point b at the budget (half of it): b is chosen there."""
    curves = {"a": [_curves([-0.5, -0.4, -0.1, -0.05], [-0.6, -0.5, -0.2, -0.1])],
              "b": [_curves([-0.3, -0.2, -0.2, -0.2], [-0.35, -0.25, -0.25, -0.25])]}
    choice = equal_time_choice(curves, seconds_per_epoch=1.0, budget=2.0)
    assert choice.point == "b" and choice.lp == [pytest.approx(-0.25)] and choice.accuracy == [pytest.approx(0.75)]
    assert equal_time_choice(curves, 1.0, 4.0).point == "a"


def test_no_sample_by_the_budget_gives_no_point():
    curves = {"a": [_curves([np.nan, np.nan, -0.1], [np.nan, np.nan, -0.1])]}
    assert equal_time_choice(curves, seconds_per_epoch=1.0, budget=1.5).point is None
