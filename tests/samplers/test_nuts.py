"""NUTS reference on a correlated 2-D Gaussian: moments within Monte Carlo error, checks pass."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.samplers import NutsConfig, ReferenceChecks, run_nuts
from geobayes.samplers import diagnostics as diag

MEAN = np.array([1.0, -2.0])
COV = np.array([[1.0, 0.8], [0.8, 2.0]])


class Gaussian2D(eqx.Module):
    """N(MEAN, COV) as a posterior: ``dim`` and a positive ``logdensity``."""

    mean: jax.Array
    precision: jax.Array
    dim: int = eqx.field(static=True)

    def logdensity(self, theta):
        d = theta - self.mean
        return -0.5 * d @ self.precision @ d


POSTERIOR = Gaussian2D(jnp.asarray(MEAN), jnp.asarray(np.linalg.inv(COV)), 2)
CONFIG = NutsConfig(chains=4, warmup=500, samples=1000, thin=1)


@pytest.fixture(scope="module")
def reference():
    return run_nuts(POSTERIOR, CONFIG, jax.random.PRNGKey(0), jnp.zeros(2), seed=0)


def test_shapes_records_and_checks(reference):
    assert reference.draws.shape == (4000, 2) and reference.draws.dtype == np.float64
    np.testing.assert_array_equal(np.bincount(reference.chain_index), [1000] * 4)
    d = reference.diagnostics
    assert d["n_draws"] == 4000 and isinstance(d["divergences"], int)
    # An easy 2-D Gaussian: short trajectories, none stopped by the depth limit of 10.
    assert 1 <= d["leapfrog_steps_mean"] <= d["leapfrog_steps_max"] < 2**10 - 1
    assert d["tree_depth_hits"] == 0
    assert d["leapfrog_steps_total"] == pytest.approx(d["leapfrog_steps_mean"] * 4000)
    assert len(d["r_hat"]) == len(d["ess_bulk"]) == len(d["ess_tail"]) == 2
    assert set(reference.checks) == {
        "r_hat_below_1.01", "ess_bulk_above_400", "ess_tail_above_400", "divergences_at_most_0",
    }
    assert reference.passed, reference.diagnostics
    args = reference.method_args
    assert args["chains"] == 4 and args["warmup"] == 500 and args["samples"] == 1000
    assert args["init_jitter_scale"] == 0.1 and reference.seed == 0
    assert reference.thresholds == ReferenceChecks().to_dict()


def test_moments_match_truth_within_monte_carlo_error(reference):
    grouped = reference.draws.reshape(4, 1000, 2)
    # Mean: |mean - truth| < 5 MCSE with MCSE = sd / sqrt(ESS).
    err = np.abs(reference.draws.mean(axis=0) - MEAN)
    assert np.all(err < 5 * diag.mcse_mean(grouped)), (err, diag.mcse_mean(grouped))
    # Covariance entry (i, j) is the mean of f = (x_i - mu_i)(x_j - mu_j) (true mean
    # known); its MCSE is sd(f) / sqrt(ESS(f)), both estimated from the draws.
    centred = grouped - MEAN
    f = np.stack([centred[..., 0] ** 2, centred[..., 0] * centred[..., 1], centred[..., 1] ** 2], axis=-1)
    truth = np.array([COV[0, 0], COV[0, 1], COV[1, 1]])
    err = np.abs(f.reshape(-1, 3).mean(axis=0) - truth)
    assert np.all(err < 5 * diag.mcse_mean(f)), (err, diag.mcse_mean(f))


def test_same_key_gives_identical_draws():
    small = NutsConfig(chains=2, warmup=50, samples=40, thin=2)
    a = run_nuts(POSTERIOR, small, jax.random.PRNGKey(7), jnp.zeros(2))
    b = run_nuts(POSTERIOR, small, jax.random.key(7), jnp.zeros(2))  # typed key, same bits
    np.testing.assert_array_equal(a.draws, b.draws)
    assert a.draws.shape == (2 * 20, 2)
    assert a.key_data == b.key_data == [0, 7]
    # The chains were started apart (jitter), so they are not copies of each other.
    assert not np.array_equal(a.draws[:20], a.draws[20:])


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(chains=0, warmup=10, samples=10, thin=1), "chains"),
        (dict(chains=2, warmup=-1, samples=10, thin=1), "warmup"),
        (dict(chains=2, warmup=10, samples=10, thin=0), "thin"),
        (dict(chains=2, warmup=10, samples=10, thin=5), "samples // NutsConfig.thin"),
        (dict(chains=2.0, warmup=10, samples=10, thin=1), "chains"),
        (dict(chains=2, warmup=10, samples=10, thin=1, target_accept=1.0), "target_accept"),
        (dict(chains=2, warmup=10, samples=10, thin=1, max_tree_depth=0), "max_tree_depth"),
    ],
)
def test_config_validation_names_the_field(kwargs, field):
    with pytest.raises(ValueError, match=f"NutsConfig.{field}"):
        NutsConfig(**kwargs)


def test_bad_init_position_raises():
    with pytest.raises(ValueError, match="init_position must have shape"):
        run_nuts(POSTERIOR, CONFIG, jax.random.PRNGKey(0), jnp.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        run_nuts(POSTERIOR, CONFIG, jax.random.PRNGKey(0), jnp.array([jnp.nan, 0.0]))


def test_single_chain_runs_from_the_given_start():
    """One chain (the timing of Hartmann et al.'s WG against NUTS uses one): NumPyro takes an
    unbatched start then, and the draws keep the (n, dim) layout."""
    from geobayes.targets import IsotropicGaussian

    target = IsotropicGaussian(name="d3-gaussian", dim=3)
    ref = run_nuts(target, NutsConfig(chains=1, warmup=200, samples=400, thin=1), jax.random.PRNGKey(0),
                   jnp.full(3, 0.5))
    assert ref.draws.shape == (400, 3)
    assert np.all(ref.chain_index == 0)
    assert np.all(np.abs(ref.draws.mean(axis=0)) < 0.5)


def test_depth_limit_hits_are_counted():
    """Tree depth 1 allows one leapfrog step: every kept iteration takes exactly one and hits
    the limit (a counter that missed the limit, or read the wrong field, fails here)."""
    ref = run_nuts(POSTERIOR, NutsConfig(chains=1, warmup=50, samples=30, thin=3, max_tree_depth=1),
                   jax.random.PRNGKey(3), jnp.zeros(2))
    d = ref.diagnostics
    assert d["leapfrog_steps_mean"] == d["leapfrog_steps_max"] == 1
    assert d["tree_depth_hits"] == d["n_draws"] == d["leapfrog_steps_total"] == 10


def test_trajectory_lengths_of_recorded_steps():
    from geobayes.samplers.nuts import trajectory_lengths

    record = trajectory_lengths(np.array([[1, 3, 7], [7, 15, 3]]), max_tree_depth=3)
    assert record == {"leapfrog_steps_mean": 6.0, "leapfrog_steps_max": 15, "leapfrog_steps_total": 36,
                      "tree_depth_hits": 3}
    with pytest.raises(ValueError, match="num_steps is empty"):
        trajectory_lengths(np.array([], dtype=int), max_tree_depth=3)


def test_posteriors_of_equal_shapes_share_the_compiled_sampler():
    """The posterior's arrays are an argument of NumPyro's compiled warm-up and sampling loop, not
    constants in it (``nuts_mcmc``): a second posterior of the same shapes, other mean and
    precision, finds every program in the session's persistent cache (tests/conftest.py), so the
    references of a data set's raw and standardised inputs compile once. Each samples its own
    density. With the potential closing over the posterior the second run missed the cache once."""
    config = NutsConfig(chains=2, warmup=100, samples=200, thin=1)
    shifted = Gaussian2D(jnp.asarray(MEAN + 5.0), jnp.asarray(np.linalg.inv(2.0 * COV)), 2)
    first = run_nuts(POSTERIOR, config, jax.random.PRNGKey(5), jnp.asarray(MEAN))
    misses = []

    def listener(event, **kwargs):
        if event == "/jax/compilation_cache/cache_misses":
            misses.append(event)

    jax.monitoring.register_event_listener(listener)
    try:
        second = run_nuts(shifted, config, jax.random.PRNGKey(5), jnp.asarray(MEAN + 5.0))
    finally:
        jax.monitoring.unregister_event_listener(listener)
    assert misses == [], f"{len(misses)} program(s) of an equal-shaped posterior compiled again"
    np.testing.assert_allclose(first.draws.mean(axis=0), MEAN, atol=0.5)
    np.testing.assert_allclose(second.draws.mean(axis=0), MEAN + 5.0, atol=0.7)
    np.testing.assert_allclose(second.draws.var(axis=0), 2.0 * np.diag(COV), rtol=0.5)
