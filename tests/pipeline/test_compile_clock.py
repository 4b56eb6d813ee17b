"""Tests of geobayes.pipeline.compile_clock: a block's JAX compile seconds, and nothing outside it."""

import time

import jax
import jax.numpy as jnp
import pytest

from geobayes.pipeline.compile_clock import CompileClock


def test_a_first_call_compiles_and_a_repeat_does_not():
    # A function no other test compiles (the constant), so the first call must trace and compile.
    function = jax.jit(lambda x: jnp.tanh(x) * 7.123456)
    with CompileClock() as first:
        jax.block_until_ready(function(jnp.ones(3)))
    with CompileClock() as repeat:
        jax.block_until_ready(function(jnp.zeros(3)))
    assert first.seconds > 0.0 and first.backend_compiles >= 1
    assert repeat.seconds == 0.0 and repeat.backend_compiles == 0


def test_nested_tracing_is_counted_once_and_never_exceeds_the_block():
    # The inner jit is traced inside the outer one's trace: both report a trace event.
    inner = jax.jit(lambda x: jnp.cos(x) * 1.918273)
    outer = jax.jit(lambda x: inner(x) + inner(2.0 * x) * 0.5)
    start = time.perf_counter()
    with CompileClock() as clock:
        jax.block_until_ready(outer(jnp.ones(4)))
    wall = time.perf_counter() - start
    assert 0.0 < clock.seconds <= wall


def test_compilations_after_the_block_are_not_counted():
    with CompileClock() as clock:
        pass
    jax.block_until_ready(jax.jit(lambda x: x * 3.25 + 1.0)(jnp.ones(2)))
    assert clock.seconds == 0.0 and clock.backend_compiles == 0


def test_a_clock_cannot_be_entered_twice_at_once():
    clock = CompileClock()
    with clock, pytest.raises(RuntimeError, match="entered twice"):
        clock.__enter__()
