"""Shared pytest setup: JAX runs in float64 (see docs/conventions.md)."""

import jax

jax.config.update("jax_enable_x64", True)
