"""JAX's persistent compilation cache (config `compilation_cache`): same draws, compiled once.

Three fresh processes draw RLA-F samples on the squiggle (a non-trivial geodesic solve): without
a cache, filling an empty cache, and reading the filled cache under another posterior name. The
draws must be bit-identical, the second must write entries and the third must add none (every
executable came from the cache). A posterior's name is a static field, but it never enters the
compiled program, so data sets of equal shapes (a data set's raw and standardised inputs)
compile once per run; and a run that reads under a new name reads under the same name too.
"""

from pathlib import Path

import numpy as np
import pytest

from fresh_process_draws import cache_entries, draw_in_fresh_process

DRAW = """
import sys
import jax, jax.numpy as jnp, numpy as np
jax.config.update("jax_enable_x64", True)
from geobayes.methods import get_method
from geobayes.targets.squiggle import Squiggle
target = Squiggle(name=sys.argv[2], a=1.5, variances=(5.0, 0.05))
key = jax.random.PRNGKey(3)
fitted = get_method("rla_f").fit(target, {"precision": "fisher"}, key, mode=jnp.zeros(2))
draws = fitted.approximation.sample(jax.random.PRNGKey(4), 16)
np.save(sys.argv[1], np.asarray(draws.theta))
"""


def draw(path: Path, cache: Path | None, name: str = "easy-squiggle") -> np.ndarray:
    return draw_in_fresh_process(DRAW, path, name, cache=cache)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Draws of three fresh processes: no cache, filling an empty cache, and an equal-shaped target
    of another name reading it; and the cache's entries after the filling and after the reading."""
    tmp = tmp_path_factory.mktemp("cache_runs")
    cache = tmp / "cache"
    uncached = draw(tmp / "a.npy", None)
    filling = draw(tmp / "b.npy", cache, name="easy-squiggle")
    written = cache_entries(cache)
    renamed = draw(tmp / "c.npy", cache, name="renamed-squiggle")
    return {"uncached": uncached, "filling": filling, "renamed": renamed, "written": written,
            "after_reading": cache_entries(cache)}


def test_cached_and_uncached_draws_are_bit_identical(runs):
    assert runs["written"], "the first cached run wrote no cache entries"
    assert np.isfinite(runs["uncached"]).all()
    np.testing.assert_array_equal(runs["filling"], runs["uncached"])
    np.testing.assert_array_equal(runs["renamed"], runs["uncached"])


def test_an_equal_shaped_target_of_another_name_compiles_nothing_new(runs):
    # Every executable of the second cached run came from the cache: nothing was compiled again,
    # though the posterior's name (a static field) differs.
    assert runs["after_reading"] == runs["written"], "a new name compiled its programs again"
