"""The Stan program is the library's model: equal log densities at random points for every family, and
Stan's NUTS reference through the same interface as NumPyro's. Builds the program once (about 45 CPU s
on a clean machine; then cached, as in the pipeline)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.samplers import NutsConfig, ReferenceChecks
from geobayes.samplers.stan_nuts import StanSettings, run_stan_nuts
from geobayes.stan.export import log_prior_factor_determinant, stan_data
from geobayes.stan.worker_client import StanRunError, program_log_density
from stan_family_posteriors import family_posteriors, prior_factor
from toy_posteriors import linear_gaussian_posterior

POSTERIORS = family_posteriors()


@pytest.mark.parametrize("name", sorted(POSTERIORS))
def test_program_log_density_is_the_librarys(name):
    """``log p_Stan(z) = log p(theta = L z) + log det L`` at random points (both keep every constant)."""
    posterior = POSTERIORS[name]
    data = stan_data(posterior)
    z = 0.5 * np.random.default_rng(3).normal(size=(3, posterior.dim))
    ours = np.array([float(posterior.logdensity(jnp.asarray(prior_factor(data) @ point))) for point in z])
    np.testing.assert_allclose(program_log_density(posterior, z) - log_prior_factor_determinant(data), ours,
                               rtol=1e-10, atol=1e-9)


def test_a_stan_error_is_one_line_naming_it():
    """Labels outside Bernoulli's support pass the export (integers) but not Stan: its own message, one line."""
    bad = linear_gaussian_posterior()
    logreg = family_posteriors()["logreg"]
    broken = type(logreg)(logreg.name, logreg.model, type(logreg.data)(logreg.data.X, 2.0 * np.asarray(logreg.data.y)))
    with pytest.raises(StanRunError, match=r"^Stan \(\w+, log_prob\) failed with exit code 1: .*bernoulli") as error:
        program_log_density(broken, np.zeros((1, logreg.dim)))
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match=r"z_points must have shape \(n, 3\)"):
        program_log_density(bad, np.zeros((1, 4)))


CONFIG = NutsConfig(chains=4, warmup=500, samples=1000, thin=1)


@pytest.fixture(scope="module")
def stan_reference():
    posterior = linear_gaussian_posterior()
    return posterior, run_stan_nuts(posterior, CONFIG, jax.random.key(7), jnp.zeros(3), seed=7,
                                    settings=StanSettings(processes=2))


def test_stan_reference_matches_the_exact_posterior(stan_reference):
    """The linear-Gaussian posterior is known in closed form: Stan's draws give its mean and covariance to
    Monte Carlo error, and the record is the NumPyro reference's (chain-major draws, checks, arguments)."""
    posterior, reference = stan_reference
    mean, covariance = (np.asarray(a) for a in posterior.model.exact_posterior(posterior.data))
    assert reference.draws.shape == (4000, 3) and reference.passed
    np.testing.assert_array_equal(np.bincount(reference.chain_index), [1000] * 4)
    standard_error = np.sqrt(np.diag(covariance) / np.asarray(reference.diagnostics["ess_bulk"]))
    assert np.all(np.abs(reference.draws.mean(0) - mean) < 5 * standard_error)
    np.testing.assert_allclose(np.cov(reference.draws.T), covariance, rtol=0.15, atol=0.1 * np.max(np.diag(covariance)))
    args = reference.method_args
    assert args["backend"] == "stan" and args["interface"] in ("pystan", "cmdstanpy") and args["processes"] == 2
    assert {k: args[k] for k in ("chains", "warmup", "samples", "thin")} == {"chains": 4, "warmup": 500,
                                                                               "samples": 1000, "thin": 1}
    assert reference.diagnostics["leapfrog_steps_mean"] > 0 and reference.diagnostics["divergences"] == 0


def test_same_key_gives_the_same_draws_whatever_the_processes(stan_reference):
    posterior, reference = stan_reference
    again = run_stan_nuts(posterior, CONFIG, jax.random.key(7), jnp.zeros(3), settings=StanSettings(processes=1))
    np.testing.assert_array_equal(again.draws, reference.draws)
    other = run_stan_nuts(posterior, NutsConfig(chains=2, warmup=100, samples=100, thin=2), jax.random.key(8),
                          jnp.zeros(3), checks=ReferenceChecks(min_ess_bulk=0, min_ess_tail=0, max_r_hat=10.0))
    assert other.draws.shape == (100, 3) and not np.allclose(other.draws[:50], reference.draws[:50])


def test_bad_settings_are_named_before_any_build():
    posterior = linear_gaussian_posterior()
    with pytest.raises(ValueError, match="reference.dense_mass: true is not available with reference.backend stan"):
        run_stan_nuts(posterior, NutsConfig(chains=2, warmup=10, samples=10, thin=1, dense_mass=True),
                      jax.random.key(0), jnp.zeros(3))
    with pytest.raises(ValueError, match=r"init_position must have shape \(3,\)"):
        run_stan_nuts(posterior, CONFIG, jax.random.key(0), jnp.zeros(2))
    with pytest.raises(ValueError, match="reference.stan.processes must be an integer >= 1"):
        StanSettings(processes=0)
