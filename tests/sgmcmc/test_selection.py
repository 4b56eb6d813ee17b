"""Yu et al.'s (2023) learning-rate selection (App. A.5): best mean validation LP, broken points excluded."""

from __future__ import annotations

import pytest

from geobayes.sgmcmc.selection import select_grid_point


def record(point, seed, valid_lp, failed=0):
    return {"anchor": point, "repetition": seed, "valid_lp": valid_lp, "n_failed": failed}


def test_best_mean_validation_lp_wins():
    records = [record("lr0.1", 0, -0.10), record("lr0.1", 1, -0.20),   # mean -0.15
               record("lr0.25", 0, -0.12), record("lr0.25", 1, -0.14)]  # mean -0.13
    choice = select_grid_point(records)
    assert choice.point == "lr0.25" and choice.excluded == []
    assert choice.scores == pytest.approx({"lr0.1": -0.15, "lr0.25": -0.13})


def test_a_point_with_one_diverged_seed_is_excluded():
    """"An LR is discarded if any of its runs breaks down" (notes Sec. 3.1), even with the best mean."""
    records = [record("lr0.5", 0, -0.01), record("lr0.5", 1, None, failed=1), record("lr0.25", 0, -0.2)]
    choice = select_grid_point(records)
    assert choice.point == "lr0.25" and choice.excluded == ["lr0.5"]


def test_no_valid_point_is_a_clear_error():
    with pytest.raises(ValueError, match="every grid point has a diverged run"):
        select_grid_point([record("lr1", 0, None, failed=1)])
    with pytest.raises(ValueError, match="no chain records"):
        select_grid_point([])


def test_each_alpha2_gets_its_own_validation_best_learning_rate_and_an_all_diverged_alpha2_is_left_out():
    from geobayes.sgmcmc.selection import select_per_alpha2

    def chain(lr, alpha2, seed, valid_lp, failed=0):
        return {"anchor": f"lr{lr}_a{alpha2}", "alpha2": alpha2, "repetition": seed, "valid_lp": valid_lp,
                "n_failed": failed}

    records = [chain(0.1, 0.5, 0, -0.2), chain(0.1, 0.5, 1, -0.2), chain(0.25, 0.5, 0, -0.1), chain(0.25, 0.5, 1, -0.25),
               chain(0.1, 1.25, 0, -0.3), chain(0.25, 1.25, 0, -0.05), chain(0.25, 2.5, 0, -0.01, failed=1)]
    chosen = select_per_alpha2(records)
    assert list(chosen) == [0.5, 1.25]  # 2.5 diverged everywhere
    assert chosen[0.5].point == "lr0.25_a0.5"  # mean validation LP -0.175 over -0.2
    assert chosen[1.25].point == "lr0.25_a1.25"
    with pytest.raises(ValueError, match="record 'lr0.1' has no alpha2"):
        select_per_alpha2([{"anchor": "lr0.1", "alpha2": None, "valid_lp": -1.0, "n_failed": 0}])
