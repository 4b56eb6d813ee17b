"""Samplers that count how often their compiled program runs (for the timing functions' tests)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.methods.base import ApproximateDraws


class CountingSampler(eqx.Module):
    """A jitted sampler (``eqx.filter_jit``, as the library's) counting its program's runs per batch size.

    ``runs[n]`` is incremented by a host callback inside the program, so it counts executions,
    not Python calls; call ``jax.effects_barrier()`` before reading it.
    """

    runs: dict = eqx.field(static=True)

    @eqx.filter_jit
    def sample(self, key, n):
        def count():
            self.runs[n] = self.runs.get(n, 0) + 1

        jax.debug.callback(count)
        zeros = jnp.zeros(n, dtype=jnp.int32)
        return ApproximateDraws(jax.random.normal(key, (n, 2)), jnp.ones(n, dtype=bool), zeros, zeros)


class PythonSampler:
    """A sampler that is not one jitted function (no ``lower``): it can only be warmed up by running."""

    def __init__(self, jitted: CountingSampler):
        self.jitted = jitted

    def sample(self, key, n):
        return self.jitted.sample(key, n)
