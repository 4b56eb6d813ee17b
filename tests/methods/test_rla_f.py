"""RLA-F reduces to ELA when the Fisher metric is constant (Yu et al. 2024, Theorem 1)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from toy_posteriors import linear_gaussian_posterior

from geobayes.methods import get_method, method_config, summarise_draws

N = 200


POSTERIOR = linear_gaussian_posterior()
MODE = POSTERIOR.model.exact_posterior(POSTERIOR.data)[0]


@pytest.mark.parametrize("precision", ["hessian", "fisher"])
def test_rla_f_equals_ela_on_linear_gaussian(precision):
    config = {"precision": precision}
    key = jax.random.PRNGKey(7)
    ela = get_method("ela").fit(POSTERIOR, method_config("ela", config), key, mode=MODE).approximation
    fit = get_method("rla_f").fit(POSTERIOR, method_config("rla_f", config), key, mode=MODE)
    assert fit.stats["method"] == "rla_f"
    rla_f = fit.approximation

    sample_key = jax.random.PRNGKey(8)
    expected = ela.sample(sample_key, N)
    draws = rla_f.sample(sample_key, N)
    assert bool(jnp.all(draws.successful))
    np.testing.assert_array_equal(draws.result_code, 0)
    np.testing.assert_allclose(draws.theta, expected.theta, rtol=0, atol=1e-8)

    # Straight-line geodesics: the solver accepts a handful of steps, not thousands.
    summary = summarise_draws(draws, evaluations_per_step=6)
    assert summary["n_failed"] == 0
    assert summary["max_steps_taken"] <= 5, summary
    assert summary["T"] <= 30.0, summary
