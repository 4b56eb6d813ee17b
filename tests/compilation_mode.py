"""How the unit tests compile: XLA's quick mode by default, the pipeline's full optimisation where a
test's result depends on rounding.

Most of a unit test's CPU time is XLA compiling small programs that then run for milliseconds, so
the tests compile with JAX's ``jax_disable_most_optimizations`` (the unit tests outside the DAG runs:
1,534 -> 1,185 s of test time, measured in docs/architecture.md). The pipeline does so only for
the jobs its config ``fast_compile`` lists (:mod:`geobayes.pipeline.compile_effort`, which adds the
fusion flag too); every subprocess a test starts compiles as its own code says (the flag is set
through ``jax.config`` in the test process only). Tests whose outcome depends on rounding (network training
followed by a Hessian that must stay positive definite, evidence fits with a gradient-norm
threshold) use :func:`production_compilation`. Set ``GEOBAYES_TEST_FULL_OPTIMIZATION=1`` to run the
whole suite as the pipeline compiles.
"""

from __future__ import annotations

import contextlib
import os

import jax

#: Environment variable that, set to 1, compiles every test with XLA's full optimisation.
FULL_OPTIMIZATION = "GEOBAYES_TEST_FULL_OPTIMIZATION"


def quick_compilation_by_default() -> None:
    """Compile with ``jax_disable_most_optimizations`` unless ``GEOBAYES_TEST_FULL_OPTIMIZATION=1``."""
    if os.environ.get(FULL_OPTIMIZATION, "0") != "1":
        jax.config.update("jax_disable_most_optimizations", True)


@contextlib.contextmanager
def production_compilation():
    """Compile with XLA's full optimisation inside the block, as the pipeline does.

    The flag is not part of JAX's in-memory jit key, so the in-memory caches are cleared on entry
    and on exit: no program compiled in one mode is reused in the other. (The persistent cache's
    key includes XLA's debug options, hence the optimisation level.)
    """
    previous = jax.config._read("jax_disable_most_optimizations")
    jax.config.update("jax_disable_most_optimizations", False)
    jax.clear_caches()
    try:
        yield
    finally:
        jax.config.update("jax_disable_most_optimizations", previous)
        jax.clear_caches()
