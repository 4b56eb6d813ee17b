"""Inner geodesic Monte Carlo sampler of theta_d on the simplex."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.sam import (
    SamSettings,
    grad_topic_potential,
    initial_topic_proportions,
    sample_topic_proportions,
    simplex_geodesic_flow,
    topic_potential,
)


def test_geodesic_flow_reflects_and_stays_on_the_simplex():
    theta = jnp.array([0.05, 0.15, 0.3, 0.5])
    velocity = jnp.array([-3.0, 2.0, -1.0, 2.0])  # sum 0
    point, vel = simplex_geodesic_flow(theta, velocity, 0.4)
    assert bool(jnp.all(point >= 0)) and abs(float(point.sum()) - 1) < 1e-14
    assert abs(float(vel.sum())) < 1e-13
    np.testing.assert_allclose(jnp.linalg.norm(vel), jnp.linalg.norm(velocity), rtol=1e-13)
    assert not np.allclose(vel, velocity)  # at least one face was hit
    # a step that hits nothing is a straight line
    point, vel = simplex_geodesic_flow(theta, velocity, 0.01)
    np.testing.assert_allclose(point, theta + 0.01 * velocity, rtol=1e-14)
    np.testing.assert_allclose(vel, velocity)


def test_flow_is_reversible():
    """Flowing back with the negated final velocity returns to the start (needed for detailed balance)."""
    theta = jnp.array([0.05, 0.15, 0.3, 0.5])
    velocity = jnp.array([-3.0, 2.0, -1.0, 2.0])
    point, vel = simplex_geodesic_flow(theta, velocity, 0.37)
    back, back_vel = simplex_geodesic_flow(point, -vel, 0.37)
    np.testing.assert_allclose(back, theta, atol=1e-13)
    np.testing.assert_allclose(-back_vel, velocity, atol=1e-12)


def test_potential_gradient_matches_autodiff():
    key = jax.random.PRNGKey(3)
    beta = jax.random.normal(key, (40, 6))
    beta = beta / jnp.linalg.norm(beta, axis=0)
    v = jnp.abs(jax.random.normal(jax.random.PRNGKey(4), (40,)))
    v = v / jnp.linalg.norm(v)
    theta = jnp.asarray(np.random.default_rng(5).dirichlet(np.ones(6)))
    gram, projection = beta.T @ beta, beta.T @ v
    closed = grad_topic_potential(theta, gram, projection, 3e4, 10.0)
    auto = jax.grad(topic_potential)(theta, gram, projection, 3e4, 10.0)
    np.testing.assert_allclose(closed, auto, rtol=1e-11)
    direct = -3e4 * v @ (beta @ theta) / jnp.linalg.norm(beta @ theta) - 9.0 * jnp.sum(jnp.log(theta))
    np.testing.assert_allclose(topic_potential(theta, gram, projection, 3e4, 10.0), direct, rtol=1e-13)


def test_initialisation_is_clipped_least_squares():
    beta = jnp.array([[1.0, 0.0, 0.6], [0.0, 1.0, 0.8], [0.0, 0.0, 0.0]])
    beta = beta + 1e-3 * jnp.arange(9.0).reshape(3, 3)
    v = jnp.array([[0.9, 0.1, 0.0], [0.0, 1.0, 0.0]])
    start = initial_topic_proportions(beta.T @ beta, v @ beta)
    ls = np.linalg.lstsq(np.asarray(beta), np.asarray(v).T, rcond=None)[0].T
    ls = np.where(ls <= 0, 1e-6, ls)
    np.testing.assert_allclose(start, ls / ls.sum(axis=1, keepdims=True), rtol=1e-9)


@pytest.mark.slow
def test_sampler_targets_the_dirichlet_prior():
    """With kappa1 -> 0 the target is Dir(alpha): 2000 chains match its mean and variance.

    Tolerances: 5 standard errors of the mean of 2000 independent final states.
    """
    p, alpha, chains = 3, 3.0, 2000
    settings = SamSettings(n_topics=p, kappa1=1e-12, alpha=alpha, inner_leapfrog_steps=10,
                           inner_step_size=0.03, inner_burn_in=60, inner_kept=1)
    gram = jnp.eye(p)
    projections = jnp.zeros((chains, p))
    start = jnp.tile(jnp.array([0.8, 0.1, 0.1]), (chains, 1))
    out = jax.jit(sample_topic_proportions, static_argnums=3)(jax.random.PRNGKey(7), gram, projections, settings, start)
    final = np.asarray(out.samples[:, -1])
    assert np.all(final > 0) and np.allclose(final.sum(axis=1), 1.0, atol=1e-13)
    var = (1 / p) * (1 - 1 / p) / (p * alpha + 1)
    se_mean = np.sqrt(var / chains)
    assert np.all(np.abs(final.mean(axis=0) - 1 / p) < 5 * se_mean), final.mean(axis=0)
    se_var = var * np.sqrt(2 / chains) * 1.5  # kurtosis allowance for a bounded variable
    assert np.all(np.abs(final.var(axis=0) - var) < 5 * se_var), final.var(axis=0)
    assert 0.5 < float(out.acceptance_rate.mean()) <= 1.0
    # a proposal ending on a face (rounding) is rejected and counted, never accepted
    assert int(out.n_nonfinite.sum()) < 1e-3 * chains * 59


@pytest.mark.slow
def test_sampler_recovers_the_true_proportions(synthetic_sam):
    """Documents drawn from the model (n=30, P=3, kappa1=3000): posterior means are near the truth."""
    beta = jnp.asarray(synthetic_sam["beta"])
    docs = jnp.asarray(synthetic_sam["documents"])
    settings = SamSettings(n_topics=3, kappa1=synthetic_sam["kappa1"], alpha=synthetic_sam["alpha"],
                           inner_leapfrog_steps=10, inner_step_size=2e-3, inner_burn_in=30, inner_kept=40)
    out = jax.jit(sample_topic_proportions, static_argnums=3)(jax.random.PRNGKey(11), beta.T @ beta, docs @ beta, settings)
    samples = np.asarray(out.samples)
    assert samples.shape == (200, 40, 3)
    assert np.all(samples > 0) and np.allclose(samples.sum(axis=-1), 1.0, atol=1e-12)
    error = np.abs(samples.mean(axis=1) - synthetic_sam["theta"])
    assert np.median(error) < 0.05 and error.mean() < 0.08, (np.median(error), error.mean())
    assert 0.3 < float(out.acceptance_rate.mean()) < 1.0
    assert int(out.n_nonfinite.sum()) == 0


@pytest.mark.slow
def test_sam_settings_on_the_synthetic_problem(synthetic_sam):
    """The paper's inner settings (eps=1e-6, L=10, 15 + 10) keep theta on the simplex and accept almost all."""
    beta = jnp.asarray(synthetic_sam["beta"])
    docs = jnp.asarray(synthetic_sam["documents"])
    settings = dataclasses.replace(SamSettings(), n_topics=3)
    out = sample_topic_proportions(jax.random.PRNGKey(2), beta.T @ beta, docs @ beta, settings)
    samples = np.asarray(out.samples)
    assert samples.shape == (200, 10, 3)
    assert np.all(samples > 0) and np.allclose(samples.sum(axis=-1), 1.0, atol=1e-12)
    assert float(out.acceptance_rate.mean()) > 0.9
