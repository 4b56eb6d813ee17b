"""The unit tests' compilation mode (tests/compilation_mode.py): quick by default, the pipeline's full
optimisation inside ``production_compilation``, with no compiled program carried across."""

import os

import jax
import jax.numpy as jnp

from compilation_mode import FULL_OPTIMIZATION, production_compilation


def quick() -> bool:
    return jax.config._read("jax_disable_most_optimizations")


def test_production_compilation_switches_the_mode_and_clears_the_jit_caches():
    assert quick() == (os.environ.get(FULL_OPTIMIZATION, "0") != "1")
    before = quick()
    square = jax.jit(lambda x: x * x)
    square(jnp.ones(3))
    assert square._cache_size() == 1
    with production_compilation():
        assert not quick()
        assert square._cache_size() == 0  # a program compiled in the other mode is not reused
        square(jnp.ones(3))
    assert quick() == before and square._cache_size() == 0
