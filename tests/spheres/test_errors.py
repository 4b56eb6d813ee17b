"""Bad input raises one readable line that names the problem (docs/conventions.md)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from geobayes.spheres import (
    gmc_par,
    gmc_seq,
    normalize_columns,
    rsvgd_direction,
    rsvgd_step,
    run_rsvgd,
    sggmc_par,
    step_size,
)
from geobayes.spheres import von_mises_fisher as vmf

GOOD = normalize_columns(jax.random.normal(jax.random.key(0), (5, 3, 2)))
SCORES = jnp.ones((5, 3, 2))


def score(y):
    return jnp.ones_like(y)


def grad_u(key, y):
    return jnp.zeros_like(y)


def logp(y):
    return jnp.sum(y[0])


def raises_one_line(match, fn, *args, exc=ValueError, **kwargs):
    with pytest.raises(exc, match=match) as info:
        fn(*args, **kwargs)
    assert "\n" not in str(info.value)
    return str(info.value)


@pytest.mark.parametrize("shape", [(5, 3), (3,), (5, 1, 2), (0, 3, 2), (2, 5, 3, 2)])
def test_bad_particle_shapes(shape):
    raises_one_line(r"particles must have shape \(N, n, P\)", rsvgd_direction,
                    jnp.ones(shape), jnp.ones(shape), 1.0)


def test_non_unit_columns_are_named():
    bad = GOOD.at[3, :, 1].multiply(1.5)
    msg = raises_one_line("unit-norm columns", rsvgd_direction, bad, SCORES, 1.0)
    assert "(3, 1)" in msg and "1.5" in msg
    raises_one_line("non-finite", run_rsvgd, GOOD.at[0, 0, 0].set(jnp.nan), score, 1, eps0=0.1)


def test_scores_must_match_particles():
    raises_one_line("scores must have the particles' shape", rsvgd_direction, GOOD,
                    jnp.ones((5, 3, 1)), 1.0)
    raises_one_line("scores contain non-finite", rsvgd_direction, GOOD,
                    SCORES.at[0, 0, 0].set(jnp.inf), 1.0)


def test_unknown_schedule():
    msg = raises_one_line("unknown step-size schedule 'cosine'", run_rsvgd, GOOD, score, 3,
                          eps0=0.1, schedule="cosine")
    assert "fixed" in msg and "decay" in msg
    raises_one_line("unknown step-size schedule", step_size, "rsgdm", 0.1, 0)
    raises_one_line("eps0 must be finite and > 0", rsvgd_step, GOOD, score, 0, eps0=-1.0)


@pytest.mark.parametrize("bandwidth, match", [
    ("silverman", "unknown bandwidth 'silverman'"),
    (-2.0, "bandwidth values must be finite and > 0"),
    (jnp.array([1.0, 2.0, 3.0]), r"bandwidth array must have shape \(P,\) = \(2,\)"),
    ([], "bandwidth list is empty"),
    ([1.0, "median"], "bandwidth 'median' inside a list"),
    (None, "bandwidth None is not a number"),
])
def test_bad_bandwidths(bandwidth, match):
    raises_one_line(match, rsvgd_direction, GOOD, SCORES, bandwidth)


def test_median_needs_three_particles():
    raises_one_line("at least 3 particles", rsvgd_direction, GOOD[:2], SCORES[:2], "median")


def test_vmf_arguments():
    raises_one_line("mu must have unit norm", vmf.sample, jax.random.key(0),
                    jnp.array([1.0, 1.0, 0.0]), 1.0, 4)
    raises_one_line(r"mu must be a vector of shape \(n,\)", vmf.sample, jax.random.key(0),
                    jnp.ones((3, 1)), 1.0, 4)
    raises_one_line("kappa must be a finite number >= 0", vmf.sample, jax.random.key(0),
                    jnp.array([1.0, 0.0]), -1.0, 4)
    raises_one_line("num_samples must be >= 1", vmf.sample, jax.random.key(0),
                    jnp.array([1.0, 0.0]), 1.0, 0)


def test_chain_arguments():
    raises_one_line(r"position must have shape \(n, P\)", gmc_seq, jax.random.key(0), GOOD, logp,
                    step_size=0.1, num_leapfrog=1, num_steps=3, num_particles=2)
    raises_one_line("positions must have unit-norm columns", gmc_par, jax.random.key(0),
                    2.0 * GOOD, logp, step_size=0.1, num_leapfrog=1, num_steps=3)
    raises_one_line("num_steps must be an integer >= 4", gmc_seq, jax.random.key(0), GOOD[0],
                    logp, step_size=0.1, num_leapfrog=1, num_steps=3, num_particles=4)
    raises_one_line("step_size must be finite and > 0", gmc_par, jax.random.key(0), GOOD, logp,
                    step_size=0.0, num_leapfrog=1, num_steps=3)
    msg = raises_one_line(r"grad_noise_variance \* step_size\^2", sggmc_par, jax.random.key(0),
                          GOOD, grad_u, step_size=0.1, friction=0.01, num_steps=3,
                          grad_noise_variance=10.0)
    assert "2 * friction = 0.02" in msg
