"""GMC (Byrne & Girolami 2013) and SGGMC (Liu, Zhu & Song 2016) reach vMF moments on S^2,
in the "-par" and "-seq" modes of Liu & Zhu (2018). Products of spheres: see the GMC step test
here and the RSVGD product test (the samplers act column by column through the same maps)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.spheres import (
    gmc_par,
    gmc_seq,
    gmc_step,
    normalize_columns,
    sggmc_init,
    sggmc_par,
    sggmc_seq,
    sggmc_step,
    sggmc_step_size,
)
from geobayes.spheres import von_mises_fisher as vmf

MU = jnp.array([0.0, 0.0, 1.0])
KAPPA = 10.0
E_T = float(vmf.mean_resultant_length_s2(KAPPA))  # 0.900
E_T2 = 1.0 - 2.0 * E_T / KAPPA  # 0.820
SD_T = np.sqrt(E_T2 - E_T**2)  # 0.1
SD_T2 = 0.2  # bound on sd((mu^T y)^2) (it is 0.17)
N_PAR = 500


def logdensity(y):
    return vmf.log_density(y[:, 0], MU, KAPPA)


def noisy_grad_potential(key, y):
    """grad U = -kappa mu plus N(0, I) noise (unit gradient-noise variance)."""
    return -KAPPA * MU[:, None] + jax.random.normal(key, y.shape)


def uniform(key, shape):
    return normalize_columns(jax.random.normal(key, shape))


def check_par_moments(particles):
    """i.i.d. chains: 4 standard errors on E[t] and E[t^2].

    GMC uses eps=0.3, L=3: a trajectory of length 1.0 (eps=0.2, L=5) is about half the
    small-oscillation period 2 pi / sqrt(10) of vMF(10) and mixed visibly slower."""
    t = np.asarray(particles[:, :, 0] @ MU)
    assert abs(t.mean() - E_T) < 4 * SD_T / np.sqrt(t.size), t.mean()
    assert abs((t**2).mean() - E_T2) < 4 * SD_T2 / np.sqrt(t.size), (t**2).mean()


def check_seq_moments(particles, num_batches=20):
    """One chain: 4 batch-means standard errors (plus round-off slack) on E[t]."""
    t = np.asarray(particles[:, :, 0] @ MU)
    means = t[: t.size // num_batches * num_batches].reshape(num_batches, -1).mean(1)
    se = means.std(ddof=1) / np.sqrt(num_batches)
    assert abs(t.mean() - E_T) < 4 * se + 1e-3, (t.mean(), se)


def test_gmc_step_keeps_unit_norm_and_reports_acceptance():
    y = uniform(jax.random.key(0), (3, 2))
    lp = lambda y: vmf.log_density(y, jnp.stack([MU, MU], 1), KAPPA)  # noqa: E731
    new, info = jax.jit(lambda k, y: gmc_step(k, y, lp, 0.2, 3))(jax.random.key(1), y)
    np.testing.assert_allclose(np.linalg.norm(new, axis=0), 1.0, atol=1e-12, rtol=0)
    assert 0.0 <= float(info.acceptance_probability) <= 1.0
    assert info.accepted.dtype == jnp.bool_


@pytest.mark.slow
def test_gmc_par_reaches_vmf_moments():
    init = uniform(jax.random.key(2), (N_PAR, 3, 1))
    result = gmc_par(jax.random.key(3), init, logdensity, step_size=0.3, num_leapfrog=3,
                     num_steps=200)
    assert result.particles.shape == (N_PAR, 3, 1)
    assert result.acceptance_rate.shape == (N_PAR,)
    assert float(result.acceptance_rate.mean()) > 0.9
    check_par_moments(result.particles)


@pytest.mark.slow
def test_gmc_seq_reaches_vmf_moments():
    init = uniform(jax.random.key(4), (3, 1))
    result = gmc_seq(jax.random.key(5), init, logdensity, step_size=0.3, num_leapfrog=3,
                     num_steps=3000, num_particles=2500)
    assert result.particles.shape == (2500, 3, 1)
    assert float(result.acceptance_rate) > 0.9
    check_seq_moments(result.particles)


def test_sggmc_par_with_noisy_gradient_reaches_vmf_moments():
    init = uniform(jax.random.key(6), (N_PAR, 3, 1))
    out = sggmc_par(jax.random.key(7), init, noisy_grad_potential, step_size=0.1,
                    friction=0.2, num_steps=400, grad_noise_variance=1.0)
    assert out.shape == (N_PAR, 3, 1)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-12, rtol=0)
    check_par_moments(out)


@pytest.mark.slow
def test_sggmc_seq_with_noisy_gradient_reaches_vmf_moments():
    init = uniform(jax.random.key(8), (3, 1))
    out = sggmc_seq(jax.random.key(9), init, noisy_grad_potential, step_size=0.1,
                    friction=0.1, num_steps=7_000, num_particles=6_000,
                    grad_noise_variance=1.0)
    assert out.shape == (6_000, 3, 1)
    check_seq_moments(out)


def test_sggmc_step_with_several_leapfrogs_stays_on_the_sphere():
    state = sggmc_init(jax.random.key(10), uniform(jax.random.key(11), (4, 3)))
    np.testing.assert_allclose(np.sum(state.position * state.velocity, 0), 0, atol=1e-14)
    grad = lambda k, y: -3.0 * y + jax.random.normal(k, y.shape)  # noqa: E731
    step = jax.jit(lambda k, s: sggmc_step(k, s, grad, step_size=0.05, friction=0.1,
                                           num_leapfrog=4, grad_noise_variance=0.5))
    for i in range(20):
        state = step(jax.random.key(100 + i), state)
    np.testing.assert_allclose(np.linalg.norm(state.position, axis=0), 1.0, atol=1e-12, rtol=0)
    np.testing.assert_allclose(np.sum(state.position * state.velocity, 0), 0, atol=1e-12)


def test_sggmc_step_size_is_sqrt_gamma_over_d():
    assert np.isclose(sggmc_step_size(1e-2, 1666), np.sqrt(1e-2 / 1666))
