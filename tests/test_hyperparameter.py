"""Scalar hyperparameters as array leaves: posteriors that differ only in them share one program."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.stats import multivariate_normal, norm

from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.hyperparameter import finite_values, positive_scalar, scalar_leaf, vector_leaf
from geobayes.models import GaussianPrior

THETA = jnp.array([0.3, -1.2, 2.0])


def prior_density(variance):
    return GaussianPrior(variance), lambda module: module.logdensity(THETA), \
        multivariate_normal(np.zeros(3), variance * np.eye(3)).logpdf(np.asarray(THETA))


def noise_density(variance):
    y = jnp.array([0.5, 1.0, -0.25])
    return GaussianFixedVariance(variance), lambda module: module.log_likelihood(y, THETA), \
        norm(np.asarray(THETA), np.sqrt(variance)).logpdf(np.asarray(y)).sum()


@pytest.mark.parametrize("case", [prior_density, noise_density], ids=["prior_variance", "noise_variance"])
def test_modules_differing_in_the_value_lower_to_one_program(case):
    """Under eqx.filter_jit (the library's jit) a float field is static, a constant in the program;
    an array leaf is an argument, so one executable serves both values (and the persistent
    compilation cache, keyed by the program, finds it)."""
    programs, values = [], []
    for variance in (0.01, 3.5):
        module, density, expected = case(variance)
        run = eqx.filter_jit(lambda m, density=density: density(m))
        programs.append(run.lower(module).as_text())
        values.append((float(run(module)), expected))
    assert programs[0] == programs[1]
    for got, expected in values:
        np.testing.assert_allclose(got, expected, rtol=1e-13)


def test_a_traced_value_passes_through_and_is_differentiable():
    gradient = jax.grad(lambda v: GaussianPrior(v).logdensity(THETA))(2.0)
    d = THETA.shape[0]
    np.testing.assert_allclose(gradient, 0.5 * float(THETA @ THETA) / 4.0 - 0.5 * d / 2.0, rtol=1e-13)


def test_the_leaf_is_weakly_typed_and_takes_the_precision_it_meets():
    leaf = scalar_leaf("x")(2)
    assert leaf.shape == () and leaf.weak_type and float(leaf) == 2.0
    assert (jnp.ones(2, dtype=jnp.float32) / leaf).dtype == jnp.float32


@pytest.mark.parametrize("value", ["2", [1.0], np.ones(2), 1 + 2j, None])
def test_a_value_that_is_not_one_real_number_is_named_in_one_line(value):
    with pytest.raises(ValueError, match=r"^noise_variance must be a real number, got .+$"):
        GaussianFixedVariance(value)


@pytest.mark.parametrize("value", [0.0, -1.0, np.inf, np.nan])
def test_positive_scalar_names_the_value(value):
    with pytest.raises(ValueError, match=r"^prior variance must be a finite number > 0, got "):
        positive_scalar(jnp.asarray(value), "prior variance")


def test_vector_leaf_is_a_float64_array_and_names_a_wrong_count_in_one_line():
    convert = vector_leaf("squiggle variances", 2)
    leaf = convert((5, 0.05))
    assert leaf.dtype == jnp.float64 and leaf.shape == (2,)
    np.testing.assert_array_equal(leaf, [5.0, 0.05])
    for value in ((1.0, 2.0, 3.0), "ab", None, [[1.0, 2.0]]):
        with pytest.raises(ValueError, match=r"^squiggle variances must be 2 real numbers, got ") as error:
            convert(value)
        assert "\n" not in str(error.value)
    traced = jax.jit(lambda v: convert(v) * 2.0)(jnp.array([1.0, 2.0]))
    np.testing.assert_array_equal(traced, [2.0, 4.0])


def test_finite_values_checks_concrete_entries_and_lets_tracers_through():
    finite_values(jnp.array([-1.0, 2.0]), "a")
    with pytest.raises(ValueError, match=r"^a must be finite, got \[1.0, nan\]$"):
        finite_values(jnp.array([1.0, np.nan]), "a")
    with pytest.raises(ValueError, match=r"^s: variances must be finite and > 0, got \[1.0, -1.0\]$"):
        finite_values(jnp.array([1.0, -1.0]), "s: variances", positive=True)
    assert jax.jit(lambda v: (finite_values(v, "a", positive=True), v)[1])(jnp.array([-1.0])) == -1.0
