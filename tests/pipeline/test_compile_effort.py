"""XLA's compile effort of a job (config `fast_compile`, geobayes.pipeline.compile_effort).

Fresh processes draw RLA-B samples of the 5-D Gaussian (a geodesic solve, the quick run's most
compile-bound kind of job) with `optimised` and with `fast` programs. The fast draws must differ
from the optimised ones, which shows the programs were compiled otherwise, but only at round-off;
they must be the same uncached, filling a persistent cache and read from it; and the two efforts
must never share a cache entry, so that a run's timing jobs (always optimised) never time a fast
program.
"""

import os
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

from fresh_process_draws import cache_entries, draw_in_fresh_process
from geobayes.pipeline.compile_effort import EFFORTS, FAST_XLA_FLAGS, use_compile_effort

DRAW = """
import sys
from geobayes.pipeline.compile_effort import use_compile_effort
use_compile_effort(sys.argv[2])
import jax, jax.numpy as jnp, numpy as np
import geobayes  # float64
from geobayes.methods import get_method, method_config
from geobayes.targets.isotropic_gaussian import IsotropicGaussian
target = IsotropicGaussian("d5-gaussian", 5)
key = jax.random.PRNGKey(3)
fitted = get_method("rla_b").fit(target, method_config("rla_b", {"precision": "hessian"}), key, mode=jnp.zeros(5))
draws = fitted.approximation.sample(jax.random.PRNGKey(4), 64)
np.save(sys.argv[1], np.asarray(draws.theta))
"""


def draw(path: Path, effort: str, cache: Path | None = None) -> np.ndarray:
    return draw_in_fresh_process(DRAW, path, effort, cache=cache)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Draws of fresh processes: optimised uncached, fast uncached, fast filling an empty cache, fast
    reading it, optimised reading it; and the cache's entries after each cached run."""
    tmp = tmp_path_factory.mktemp("effort_runs")
    cache = tmp / "cache"
    out = {"optimised": draw(tmp / "a.npy", "optimised"), "fast": draw(tmp / "b.npy", "fast")}
    out["fast_filling"] = draw(tmp / "c.npy", "fast", cache)
    out["written"] = cache_entries(cache)
    out["fast_reading"] = draw(tmp / "d.npy", "fast", cache)
    out["after_reading"] = cache_entries(cache)
    out["optimised_cached"] = draw(tmp / "e.npy", "optimised", cache)
    out["after_optimised"] = cache_entries(cache)
    return out


def test_fast_programs_draw_what_optimised_ones_do_to_round_off(runs):
    assert np.isfinite(runs["fast"]).all()
    np.testing.assert_allclose(runs["fast"], runs["optimised"], rtol=0, atol=1e-10)
    # not bit for bit: had the effort not reached XLA, the programs and their draws would be the same
    assert not np.array_equal(runs["fast"], runs["optimised"])


def test_fast_draws_are_the_same_uncached_filling_and_reading_the_cache(runs):
    assert runs["written"], "the first cached run wrote no cache entries"
    np.testing.assert_array_equal(runs["fast_filling"], runs["fast"])
    np.testing.assert_array_equal(runs["fast_reading"], runs["fast"])
    assert runs["after_reading"] == runs["written"], "a fast run compiled again what the cache held"


def test_the_two_efforts_never_share_a_cache_entry(runs):
    # an optimised job after a fast one compiles its own programs: every sample program is new
    new = runs["after_optimised"] - runs["after_reading"]
    assert {name.split("-")[0] for name in new} >= {"jit_sample"}, sorted(new)
    np.testing.assert_array_equal(runs["optimised_cached"], runs["optimised"])


def test_an_unknown_effort_is_one_line_naming_it_and_the_choices():
    with pytest.raises(ValueError, match=r"^compile effort 'quick' is not one of optimised, fast$"):
        use_compile_effort("quick")
    assert EFFORTS == ("optimised", "fast")


def test_fast_after_jax_has_started_is_refused_and_changes_nothing():
    jnp.zeros(1).block_until_ready()  # this process's backend has started
    flags = os.environ.get("XLA_FLAGS")
    with pytest.raises(RuntimeError, match="before the process's first JAX computation"):
        use_compile_effort("fast")
    assert os.environ.get("XLA_FLAGS") == flags
    assert use_compile_effort("optimised") == "optimised"  # nothing to change: allowed at any time
    assert not any(flag in (os.environ.get("XLA_FLAGS") or "") for flag in FAST_XLA_FLAGS)
