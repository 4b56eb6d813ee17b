"""Neal's funnel as in Yu et al. (2024), Supp. 16.3 (notes Sec. 1.7(c), 2.4)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import scipy.stats

from geobayes.targets import Funnel

FUNNEL = Funnel("funnel")


@jax.jit
def _logdensities(theta):
    return jax.vmap(FUNNEL.logdensity)(theta)


def test_logdensity_is_the_papers_product_of_normals_with_standard_deviations():
    """``N(theta2 | 0, 3) N(theta1 | 0, exp(theta2 / 2))``, second arguments standard deviations."""
    theta = np.random.default_rng(0).normal(scale=[2.0, 3.0], size=(6, 2))
    expected = scipy.stats.norm.logpdf(theta[:, 1], 0.0, 3.0) + scipy.stats.norm.logpdf(
        theta[:, 0], 0.0, np.exp(0.5 * theta[:, 1])
    )
    np.testing.assert_allclose(_logdensities(jnp.asarray(theta)), expected, rtol=1e-13)


def test_density_integrates_to_one():
    """Midpoint rule on ``theta2 in [-8 sigma, 8 sigma]`` with, per ``theta2``, ``theta1 =
    exp(theta2 / 2) u`` for ``u in [-10, 10]`` (so the neck is resolved; ``d theta1 =
    exp(theta2 / 2) du``). Both rules are spectrally accurate at these spacings and the
    truncated mass is below 1e-14, so the sum is 1 to far better than 1e-8."""
    h2, hu = 0.05, 0.05
    theta2 = np.arange(-24.0, 24.0, h2) + h2 / 2
    u = np.arange(-10.0, 10.0, hu) + hu / 2
    t2, uu = np.meshgrid(theta2, u, indexing="ij")
    theta1 = np.exp(0.5 * t2) * uu
    points = jnp.asarray(np.stack([theta1.ravel(), t2.ravel()], axis=1))
    density = np.exp(np.asarray(_logdensities(points))).reshape(t2.shape)
    total = np.sum(density * np.exp(0.5 * t2)) * h2 * hu
    np.testing.assert_allclose(total, 1.0, rtol=1e-8)


def test_euclidean_mode_is_not_the_hausdorff_map():
    """The Euclidean mode is ``(0, -sigma^2 / 2) = (0, -4.5)``, the Hausdorff MAP 0 (notes
    Sec. 1.7(c))."""
    euclidean_mode = jnp.array([0.0, -4.5])
    grad, hessian = jax.jit(lambda th: (FUNNEL.grad(th), FUNNEL.hessian(th)))(euclidean_mode)
    np.testing.assert_allclose(grad, 0.0, atol=1e-12)
    assert np.max(np.linalg.eigvalsh(hessian)) < 0
    # At the Hausdorff MAP the log density still has a slope along theta2.
    np.testing.assert_array_equal(FUNNEL.hausdorff_map(), [0.0, 0.0])
    np.testing.assert_allclose(jax.jit(FUNNEL.grad)(jnp.zeros(2)), [0.0, -0.5], atol=1e-14)


def test_exact_samples_have_the_funnel_marginals():
    """``theta2 ~ N(0, 9)`` and ``theta1 exp(-theta2 / 2) ~ N(0, 1)`` independent of ``theta2``;
    each moment within 5 standard errors (estimated from the sample)."""
    n = 20_000
    theta = np.asarray(FUNNEL.sample_exact(jax.random.PRNGKey(0), n))
    z1 = theta[:, 0] * np.exp(-0.5 * theta[:, 1])
    z2 = theta[:, 1] / 3.0
    statistics = {
        "E theta2": (theta[:, 1], 0.0),
        "E theta2^2": (theta[:, 1] ** 2, 9.0),
        "E z1": (z1, 0.0),
        "E z1^2": (z1**2, 1.0),
        "E z1 z2": (z1 * z2, 0.0),
        "E z1^2 z2^2": (z1**2 * z2**2, 1.0),
    }
    for label, (values, expected) in statistics.items():
        standard_error = values.std(ddof=1) / np.sqrt(n)
        assert abs(values.mean() - expected) < 5 * standard_error, label
    # The sampler uses the key: a second key gives other draws.
    other = np.asarray(FUNNEL.sample_exact(jax.random.PRNGKey(1), n))
    assert not np.array_equal(theta, other)
