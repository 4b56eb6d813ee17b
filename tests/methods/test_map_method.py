"""The MAP "method": the point mass at the anchor (the tables' map row)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.methods import get_method, method_config
from geobayes.methods.labels import method_label
from toy_posteriors import linear_gaussian_posterior as gaussian_posterior


def test_map_draws_are_copies_of_the_mode_and_cost_nothing():
    posterior = gaussian_posterior()
    mode = jnp.arange(posterior.dim, dtype=jnp.float64)
    fit = get_method("map").fit(posterior, method_config("map"), jax.random.PRNGKey(0), mode=mode)
    draws = fit.approximation.sample(jax.random.PRNGKey(1), 7)
    np.testing.assert_array_equal(np.asarray(draws.theta), np.tile(np.asarray(mode), (7, 1)))
    assert bool(jnp.all(draws.successful)) and int(jnp.sum(draws.num_steps)) == 0
    assert fit.stats == {"method": "map"} and method_label("map") == "MAP"


def test_map_refuses_a_non_finite_mode():
    posterior = gaussian_posterior()
    with pytest.raises(ValueError):
        get_method("map").fit(posterior, method_config("map"), jax.random.PRNGKey(0),
                              mode=jnp.full(posterior.dim, jnp.nan))
