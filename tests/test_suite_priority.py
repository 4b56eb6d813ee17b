"""The suite's xdist workers yield the CPUs to the tiny run (tests/conftest.py, PEER_NICENESS)."""

import os

from conftest import PEER_NICENESS


def test_a_worker_runs_other_tests_below_the_tiny_run_and_a_plain_run_keeps_its_priority(request):
    start = request.config._geobayes_start_niceness
    if os.environ.get("PYTEST_XDIST_WORKER"):
        assert os.nice(0) == max(start, PEER_NICENESS)
    else:
        assert os.nice(0) == start
