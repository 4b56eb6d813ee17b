"""Shared pytest setup: JAX runs in float64 (see docs/conventions.md); the longest tests first."""

import jax

jax.config.update("jax_enable_x64", True)

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
