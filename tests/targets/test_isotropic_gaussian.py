"""The isotropic Gaussian N(0, I_D) (Yu et al. 2024, Sec. 3; notes Sec. 2.1)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import scipy.stats

from geobayes.methods import get_method, method_config
from geobayes.targets import IsotropicGaussian


def test_logdensity_fisher_and_dim():
    target = IsotropicGaussian("gaussian_4d", 4)
    assert target.dim == 4
    theta = np.random.default_rng(0).normal(size=4)
    expected = scipy.stats.multivariate_normal(np.zeros(4), np.eye(4)).logpdf(theta)
    np.testing.assert_allclose(target.logdensity(jnp.asarray(theta)), expected, rtol=1e-14)
    np.testing.assert_array_equal(target.fisher(jnp.asarray(theta)), np.eye(4))
    np.testing.assert_array_equal(target.fisher_christoffel(jnp.asarray(theta), jnp.ones(4)), 0.0)


def test_density_integrates_to_one_on_a_grid():
    target = IsotropicGaussian("gaussian_2d", 2)
    h = 0.1
    grid = np.arange(-9.0, 9.0, h) + h / 2
    t1, t2 = np.meshgrid(grid, grid, indexing="ij")
    points = jnp.asarray(np.stack([t1.ravel(), t2.ravel()], axis=1))
    total = np.sum(np.exp(np.asarray(jax.jit(jax.vmap(target.logdensity))(points)))) * h * h
    np.testing.assert_allclose(total, 1.0, rtol=1e-10)


def test_exact_samples_are_standard_normal():
    """Mean 0 and covariance I within 5 standard errors."""
    n, d = 20_000, 3
    theta = np.asarray(IsotropicGaussian("gaussian_3d", d).sample_exact(jax.random.PRNGKey(0), n))
    assert theta.shape == (n, d)
    np.testing.assert_array_less(np.abs(theta.mean(0)), 5 / np.sqrt(n))
    products = theta[:, :, None] * theta[:, None, :]
    error = np.abs(products.mean(0) - np.eye(d))
    np.testing.assert_array_less(error, 5 * products.std(0, ddof=1) / np.sqrt(n))


def test_rla_f_equals_ela_for_a_constant_fisher_metric():
    """Isotropic Gaussian: ``G = I``, geodesics are straight lines, RLA-F's draws are ELA's
    (Yu et al. 2024, Theorem 1) up to the rounding of the solver's step sizes summing to 1."""
    target = IsotropicGaussian("gaussian_3d", 3)
    mode = target.hausdorff_map()
    key = jax.random.PRNGKey(5)
    config = {"precision": "fisher"}
    ela = get_method("ela").fit(target, method_config("ela", config), key, mode=mode).approximation
    rla_f = get_method("rla_f").fit(target, method_config("rla_f", config), key, mode=mode).approximation
    ela, rla_f = ela.sample(key, 200), rla_f.sample(key, 200)
    assert bool(jnp.all(rla_f.successful))
    np.testing.assert_allclose(rla_f.theta, ela.theta, rtol=0, atol=1e-12)
