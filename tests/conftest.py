"""Shared pytest setup: JAX runs in float64 (see docs/conventions.md), one compilation cache per
session, the longest tests first, and the tiny run ahead of the tests beside it."""

import os
import shutil
import tempfile

import jax
import pytest

from compilation_mode import quick_compilation_by_default

jax.config.update("jax_enable_x64", True)

#: Environment variable naming the session's compilation cache, so that the xdist workers (started
#: after the controller's pytest_configure, with its environment) share the controller's.
SESSION_CACHE = "GEOBAYES_TEST_JAX_CACHE"


def pytest_configure(config):
    """Point this process's JAX at one persistent compilation cache for the whole session.

    Tests build the same programs again and again (each fit closes over a new posterior object,
    so JAX's in-memory cache misses, yet the XLA program is the same): the persistent cache keys
    on the program and loads it instead of compiling it again (geometry and methods tests:
    650 -> 602 CPU s). Draws are bit-identical with and without it
    (tests/pipeline/test_compilation_cache.py). Set through jax.config, not JAX's environment
    variables, so the subprocesses the tests start (Snakemake runs, fresh interpreters) keep their
    own caches. A fresh directory per session: no state is carried from one run to the next.
    """
    config._geobayes_start_niceness = os.nice(0)  # tests/test_suite_priority.py
    directory = os.environ.get(SESSION_CACHE)
    if directory is None:
        directory = os.environ[SESSION_CACHE] = tempfile.mkdtemp(prefix="geobayes-test-jax-cache-")
        config._geobayes_owns_cache = directory
    jax.config.update("jax_compilation_cache_dir", directory)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    quick_compilation_by_default()


def pytest_unconfigure(config):
    """Remove the session's cache (the process that made it does, after its workers are done)."""
    directory = getattr(config, "_geobayes_owns_cache", None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)
        os.environ.pop(SESSION_CACHE, None)

#: Test files that run a DAG for minutes (the tiny run, the SLURM cluster run), in the order they
#: are handed out. `make test` runs `pytest -n 2 --dist loadfile --no-loadscope-reorder`: each
#: file goes whole to one worker, in collection order, so these two start at once, one per
#: worker, and the short tests fill the time around them. Handed out last (xdist's default
#: order is by test count), the tiny run alone set the suite's wall time.
LONGEST_FIRST = ("tests/workflow/test_workflow.py", "tests/workflow/test_slurm_cluster.py")


def pytest_collection_modifyitems(config, items):
    """Collect LONGEST_FIRST's files first, and in the tiny-run file the tests of the run first."""

    def rank(item):
        path = item.path.as_posix()
        for order, suffix in enumerate(LONGEST_FIRST):
            if path.endswith(suffix):
                return order, "tiny_run" not in getattr(item, "fixturenames", ())
        return len(LONGEST_FIRST), False

    items.sort(key=rank)  # stable: every other test keeps its place


#: Niceness of an xdist worker from its first test that is not one of the tiny run's. The tiny
#: run (`tiny_run` in tests/workflow/test_workflow.py, a real Snakemake run of config/tiny.yaml)
#: is the suite's longest piece: 333 s alone on 2 cores, 523 s beside the other worker's tests,
#: which then took a CPU from it whenever both of its job slots were busy. Started by a worker
#: still at niceness 0, its Snakemake, warm process and jobs keep 0, and the other worker's tests
#: (and their subprocesses, the SLURM cluster's daemons and jobs among them) take what its jobs
#: leave. The suite's work is the same; its idle moments are filled (first rehearsal on a clean
#: clone: fixture 523 -> 377 s, pytest 1,003 -> 943 s). Only xdist workers lower themselves: a
#: plain `pytest` in a terminal keeps its priority.
PEER_NICENESS = 10


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Lower this xdist worker to PEER_NICENESS before a test that is not the tiny run's (once:
    an unprivileged process cannot raise its priority again)."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None or "tiny_run" in item.fixturenames:
        return
    current = os.nice(0)
    if current < PEER_NICENESS:
        os.nice(PEER_NICENESS - current)
