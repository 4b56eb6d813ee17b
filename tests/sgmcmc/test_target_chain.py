"""SGRLD on Yu et al.'s (2023) funnel with noisy gradients (Sec. 4.2): the run the funnel rule makes."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from geobayes.sgmcmc.registry import build_preconditioner
from geobayes.sgmcmc.target_chain import run_target_chain
from geobayes.targets import IsotropicGaussian, SoftplusFunnel


def test_every_position_is_kept_and_runs_repeat():
    funnel = SoftplusFunnel("yu2023_funnel")
    monge = build_preconditioner("monge", {"alpha2": 0.1, "lam": 0.7, "fallback_norm": 1000.0})
    runs = [run_target_chain(jax.random.PRNGKey(k), funnel, monge, learning_rate=0.003, start=[1.0, 1.0],
                             num_steps=2000, noise_std=1.0) for k in (0, 0, 1)]
    assert runs[0].positions.shape == (2000, 2) and runs[0].finite.all() and runs[0].fallback.shape == (2000,)
    np.testing.assert_array_equal(runs[0].positions, runs[1].positions)
    assert not np.array_equal(runs[0].positions, runs[2].positions)


def test_sgld_with_exact_gradients_samples_a_gaussian():
    """Noise-free gradients on N(0, I_2): after a short transient the moments are right (small step)."""
    target = IsotropicGaussian("d2-gaussian", 2)
    run = run_target_chain(jax.random.PRNGKey(3), target, build_preconditioner("identity"), learning_rate=0.05,
                           start=[3.0, -3.0], num_steps=40_000, noise_std=0.0)
    draws = run.positions[1000:]
    np.testing.assert_allclose(draws.mean(axis=0), 0.0, atol=0.1)
    np.testing.assert_allclose(draws.var(axis=0), 1.0 / (1 - 0.05 / 2), rtol=0.1)  # Euler bias of the OU chain


def test_bad_start_and_steps_are_named():
    funnel = SoftplusFunnel("yu2023_funnel")
    with pytest.raises(ValueError, match="start must be a finite point of shape"):
        run_target_chain(jax.random.PRNGKey(0), funnel, build_preconditioner("identity"), learning_rate=0.1,
                         start=[1.0], num_steps=10, noise_std=1.0)
    with pytest.raises(ValueError, match="num_steps must be an integer >= 1"):
        run_target_chain(jax.random.PRNGKey(0), funnel, build_preconditioner("identity"), learning_rate=0.1,
                         start=[1.0, 1.0], num_steps=0, noise_std=1.0)
