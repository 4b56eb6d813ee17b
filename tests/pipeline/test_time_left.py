"""The run's time-left estimate (geobayes.pipeline.time_left) and its rule weights."""

from __future__ import annotations

from pathlib import Path

import pytest

from geobayes.pipeline.time_left import format_time_left, job_stats, load_rule_seconds, time_left

REPO = Path(__file__).resolve().parents[2]
WEIGHTS = {"table": 1.0, "reference": 30.0, "approximate": 10.0}


def test_the_remaining_jobs_take_the_done_ones_pace_by_their_rules_weight():
    # 60 s for one reference and two tables (32 weight): a reference and an approximation left (40)
    assert time_left(60.0, ["reference", "table", "table"], ["reference", "approximate"], WEIGHTS) == \
        pytest.approx(60.0 * 40 / 32)
    # the same jobs at another pace: the estimate scales with it
    assert time_left(120.0, ["reference", "table", "table"], ["reference", "approximate"], WEIGHTS) == \
        pytest.approx(2 * 60.0 * 40 / 32)


def test_a_rule_without_a_weight_weighs_the_median_rule():
    assert time_left(10.0, ["table"], ["new_rule"], WEIGHTS) == pytest.approx(10.0 * 10.0 / 1.0)


def test_no_estimate_before_a_job_is_done_and_zero_when_nothing_remains():
    assert time_left(5.0, [], ["table"], WEIGHTS) is None
    assert time_left(0.0, ["table"], ["table"], WEIGHTS) is None
    assert time_left(5.0, ["table"], [], WEIGHTS) == 0.0
    assert time_left(5.0, ["table"], ["table"], {}) is None
    # a download's worth done of a run that weighs 100 times more: too early to say
    assert time_left(5.0, ["table"], ["approximate"] * 10, WEIGHTS) is None
    assert time_left(5.0, ["table"], ["approximate"] * 10, WEIGHTS, min_done_fraction=0.0) == pytest.approx(500.0)


@pytest.mark.parametrize(("seconds", "text"), [(20, "under a minute left"), (12 * 60 + 10, "about 12 min left"),
                                               (65 * 60, "about 1 h 05 min left")])
def test_format(seconds, text):
    assert format_time_left(seconds) == text


def test_the_shipped_weights_load_and_cover_the_heaviest_rules():
    weights = load_rule_seconds(REPO / "workflow" / "resources" / "rule_seconds.tsv")
    assert {"approximate", "reference", "map", "evaluate"} <= set(weights)
    assert all(value > 0 for value in weights.values())


def test_a_bad_row_names_the_file_and_line(tmp_path):
    path = tmp_path / "weights.tsv"
    path.write_text("rule\tseconds\ntable\t1.0\nmap\t-2\n")
    with pytest.raises(ValueError, match=r"weights.tsv:3: expected a rule name and positive seconds"):
        load_rule_seconds(path)


def test_job_stats_reads_snakemakes_table_and_nothing_else():
    output = ("Building DAG of jobs...\nJob stats:\njob            count\n-----------  -------\n"
              "all                1\napproximate       12\ntotal             13\n\n"
              "Reasons:\n    (check individual jobs above for details)\n")
    assert job_stats(output) == {"all": 1, "approximate": 12, "total": 13}
    assert job_stats("Building DAG of jobs...\nNothing to be done (all requested files are present).\n") == {}
