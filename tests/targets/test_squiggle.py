"""The squiggle of Yu et al. (2024), Sec. 4.3.2 (notes Sec. 1.7(b), 2.2)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.stats

from geobayes.targets import Squiggle

EASY = Squiggle("squiggle")
DIFFICULT = Squiggle("squiggle_difficult", a=1.5, variances=(10.0, 0.001))


def test_defaults_are_the_papers_main_setting():
    assert float(EASY.a) == 1.5
    np.testing.assert_array_equal(EASY.variances, [5.0, 0.05])
    np.testing.assert_array_equal(EASY.gaussian_variances, [5.0, 0.05])


@pytest.mark.parametrize("target", [EASY, DIFFICULT], ids=["easy", "difficult"])
def test_logdensity_is_gaussian_of_the_unbent_coordinates(target):
    """``N((theta1, theta2 + sin(a theta1)) | 0, diag S)`` with scipy; unit Jacobian."""
    theta = np.random.default_rng(0).normal(size=(6, 2))
    psi = np.stack([theta[:, 0], theta[:, 1] + np.sin(1.5 * theta[:, 0])], axis=1)
    expected = scipy.stats.multivariate_normal([0.0, 0.0], np.diag(target.variances)).logpdf(psi)
    got = jax.jit(jax.vmap(target.logdensity))(jnp.asarray(theta))
    np.testing.assert_allclose(got, expected, rtol=1e-13)


def test_density_integrates_to_one_on_a_grid():
    """Midpoint rule on ``[-12, 12] x [-3.5, 3.5]`` (> 5 sd in theta1, sin + 10 sd in theta2);
    spacing 0.02 is below a seventh of the ridge's narrowest width (0.05^0.5 / 1.5 = 0.149),
    where the rule is spectrally accurate; the truncated mass is ~1e-7."""
    h = 0.02
    theta1 = np.arange(-12.0, 12.0, h) + h / 2
    theta2 = np.arange(-3.5, 3.5, h) + h / 2
    t1, t2 = np.meshgrid(theta1, theta2, indexing="ij")
    points = jnp.asarray(np.stack([t1.ravel(), t2.ravel()], axis=1))
    total = np.sum(np.exp(np.asarray(jax.jit(jax.vmap(EASY.logdensity))(points)))) * h * h
    np.testing.assert_allclose(total, 1.0, rtol=1e-6)


@pytest.mark.parametrize("target", [EASY, DIFFICULT], ids=["easy", "difficult"])
def test_exact_samples_have_known_moments(target):
    """``theta1 ~ N(0, S1)``, ``theta2 = psi2 - sin(a theta1)``: ``E theta2 = 0``,
    ``E theta2^2 = S2 + (1 - exp(-2 a^2 S1)) / 2``, ``E theta2 sin(a theta1) = -(1 - exp(-2 a^2
    S1)) / 2``; each within 5 standard errors (estimated from the sample)."""
    n = 20_000
    s1, s2 = np.asarray(target.variances)
    theta = np.asarray(target.sample_exact(jax.random.PRNGKey(2), n))
    sin_sq = 0.5 * (1.0 - np.exp(-2.0 * 1.5**2 * s1))
    statistics = {
        "E theta1": (theta[:, 0], 0.0),
        "E theta1^2": (theta[:, 0] ** 2, s1),
        "E theta2": (theta[:, 1], 0.0),
        "E theta2^2": (theta[:, 1] ** 2, s2 + sin_sq),
        "E theta2 sin": (theta[:, 1] * np.sin(1.5 * theta[:, 0]), -sin_sq),
    }
    for label, (values, expected) in statistics.items():
        standard_error = values.std(ddof=1) / np.sqrt(n)
        assert abs(values.mean() - expected) < 5 * standard_error, label


def test_fisher_is_the_papers_closed_form():
    """``G = J^T S^{-1} J`` with ``J = [[1, 0], [a cos(a theta1), 1]]`` (notes 1.7(b)), by hand."""
    theta1 = 0.4
    c = 1.5 * np.cos(1.5 * theta1)
    s1, s2 = np.asarray(EASY.variances)
    expected = np.array([[1 / s1 + c * c / s2, c / s2], [c / s2, 1 / s2]])
    np.testing.assert_allclose(EASY.fisher(jnp.array([theta1, -0.3])), expected, rtol=1e-14)
