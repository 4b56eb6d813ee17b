"""Yu et al.'s (2023) softplus funnel (Sec. 4.2; notes Sec. 3.3)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.stats

from geobayes.registry import lookup
from geobayes.targets import SoftplusFunnel

FUNNEL = SoftplusFunnel("yu2023_funnel")


def _softplus(x):
    return np.log1p(np.exp(x))


def test_logdensity_is_the_codes_product_of_normals_with_softplus_variance():
    """``N(theta1 | 2, sp(theta2)) N(theta2 | 0, 80)``: sp is the variance, not the std."""
    theta = np.random.default_rng(0).normal(scale=[2.0, 9.0], size=(8, 2))
    expected = scipy.stats.norm.logpdf(theta[:, 1], 0.0, np.sqrt(80.0)) + scipy.stats.norm.logpdf(
        theta[:, 0], 2.0, np.sqrt(_softplus(theta[:, 1])))
    got = jax.jit(jax.vmap(FUNNEL.logdensity))(jnp.asarray(theta))
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_three_dimensional_funnel_shares_the_variance_over_the_first_coordinates():
    funnel = SoftplusFunnel("f3", dimension=3, mean=-1.0, variance=4.0)
    theta = np.array([0.3, -2.0, 1.5])
    expected = scipy.stats.norm.logpdf(theta[2], 0.0, 2.0) + np.sum(
        scipy.stats.norm.logpdf(theta[:2], -1.0, np.sqrt(_softplus(theta[2]))))
    np.testing.assert_allclose(funnel.logdensity(jnp.asarray(theta)), expected, rtol=1e-12)


def test_exact_samples_have_the_known_marginals():
    """``theta2 ~ N(0, 80)`` and ``(theta1 - 2) / sqrt(sp(theta2)) ~ N(0, 1)``: KS p-values."""
    draws = np.asarray(FUNNEL.sample_exact(jax.random.PRNGKey(3), 20_000))
    assert scipy.stats.kstest(draws[:, 1] / np.sqrt(80.0), "norm").pvalue > 1e-3
    assert scipy.stats.kstest((draws[:, 0] - 2.0) / np.sqrt(_softplus(draws[:, 1])), "norm").pvalue > 1e-3


def test_round_trip_and_registry_options():
    psi = jnp.array([0.7, -1.2])
    np.testing.assert_allclose(FUNNEL.to_gaussian(FUNNEL.from_gaussian(psi)), psi, rtol=1e-12)
    built = lookup("softplus_funnel").from_options("yu2023_funnel", {"mean": 2.0, "variance": 80.0})
    assert isinstance(built, SoftplusFunnel) and built.variance == 80.0 and built.dim == 2


@pytest.mark.parametrize(("options", "message"), [
    ({"dimension": 1}, "dimension must be an integer >= 2"),
    ({"variance": 0.0}, "variance must be finite and > 0"),
    ({"mean": float("nan")}, "mean must be finite"),
])
def test_bad_settings_are_one_line_errors(options, message):
    with pytest.raises(ValueError, match=message):
        SoftplusFunnel("bad", **options)
