"""The scan driver, and SVGD/RSVGD moving particles to a Gaussian target's mean and covariance."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.svgd import (
    MetricQuantities, blr_metric_quantities, build_optimizer, rsvgd_field, run_particles, svgd_field,
)

MU = jnp.array([1.0, -0.5])
SIGMA = jnp.array([[1.0, 0.6], [0.6, 0.8]])
PRECISION = jnp.linalg.inv(SIGMA)
N = 100


def _score(x):
    return -PRECISION @ (x - MU)


def _fisher(x):
    """G = Sigma^{-1}, the Fisher information of the Gaussian location family (constant)."""
    return MetricQuantities(SIGMA, jnp.zeros(2), jnp.zeros(2))


def _moments(x):
    return x.mean(axis=0), jnp.cov(x.T)


METHODS = {
    "svgd-gd": lambda: (svgd_field(_score, "median"), build_optimizer("gd", 0.1)),
    "svgd-adagrad_momentum": lambda: (svgd_field(_score, "median"), build_optimizer("adagrad_momentum", 0.05)),
    "rsvgd-paper-fisher": lambda: (rsvgd_field(_score, _fisher, (1.0,), "paper"), build_optimizer("gd", 0.3)),
}


@pytest.mark.parametrize("method", sorted(METHODS))
def test_particles_reach_gaussian_moments(method):
    direction, optimizer = METHODS[method]()
    start = 0.5 * jax.random.normal(jax.random.PRNGKey(1), (N, 2)) - 2.0
    run = run_particles(direction, optimizer, start, 1200, 400, _moments)
    assert run.num_nonfinite == 0 and int(run.first_nonfinite_iteration) == -1
    np.testing.assert_array_equal(run.record_iterations, [0, 400, 800, 1200])
    means, covs = (np.asarray(a) for a in run.records)
    sigma = np.asarray(SIGMA)
    # tolerances: 3 standard errors of the moments of N independent draws
    mean_tol = 3.0 * np.sqrt(np.diag(sigma) / N)
    cov_tol = 3.0 * np.sqrt((np.outer(np.diag(sigma), np.diag(sigma)) + sigma**2) / N)
    assert np.all(np.abs(means[-1] - np.asarray(MU)) < mean_tol), means[-1]
    assert np.all(np.abs(covs[-1] - sigma) < cov_tol), covs[-1]
    assert np.all(np.abs(means[0] - np.asarray(MU)) > mean_tol)  # it did move
    assert np.all(np.abs(means[-1] - means[-2]) < mean_tol / 3)  # and settled


def test_rsvgd_blr_runs_finite():
    """RSVGD with the closed-form BLR Fisher metric on a tiny data set: a short finite run."""
    kx, ky, k0 = jax.random.split(jax.random.PRNGKey(2), 3)
    features = jax.random.normal(kx, (30, 3))
    labels = (jax.random.uniform(ky, (30,)) < jax.nn.sigmoid(features @ jnp.array([1.0, -1.0, 0.5]))) * 1.0
    alpha = 1.0

    def score(w):
        return -w / alpha + features.T @ (labels - jax.nn.sigmoid(features @ w))

    direction = rsvgd_field(score, lambda w: blr_metric_quantities(w, features, alpha), (0.1, 1.0), "paper")
    start = jnp.sqrt(alpha) * jax.random.normal(k0, (20, 3))
    run = run_particles(direction, build_optimizer("gd", 0.05), start, 40, 20)
    assert run.records.shape == (3, 20, 3) and run.num_nonfinite == 0
    assert float(jnp.max(jnp.abs(run.particles - start))) > 1e-3


def test_nonfinite_particles_are_counted_not_dropped():
    def direction(x):  # a particle past 4.5 gets a NaN direction
        return jnp.where(x > 4.5, jnp.nan, 1.0)

    run = run_particles(direction, build_optimizer("gd", 1.0), jnp.array([[0.0], [3.0]]), 4, 2)
    assert run.particles.shape == (2, 1) and float(run.particles[0, 0]) == 4.0
    np.testing.assert_array_equal(run.nonfinite_counts, [0, 0, 1])
    assert int(run.first_nonfinite_iteration) == 3 and run.num_nonfinite == 1


@pytest.mark.parametrize("iterations, every, fragment", [(5, 2, "multiple"), (4, 0, "record_every"),
                                                         (-2, 1, "num_iterations")])
def test_bad_schedule_is_one_line(iterations, every, fragment):
    with pytest.raises(ValueError) as info:
        run_particles(lambda x: x, build_optimizer("gd", 1.0), jnp.zeros((2, 1)), iterations, every)
    assert "\n" not in str(info.value) and fragment in str(info.value)
