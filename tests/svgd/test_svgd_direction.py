"""SVGD direction (Liu & Wang 2016, Eq. (8)) against a direct autodiff evaluation."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.svgd import median_bandwidth, svgd_direction


@pytest.mark.parametrize("bandwidth", [(0.5,), (0.1, 1.0, 30.0), "median"])
def test_direction_matches_autodiff_kernel_gradient(bandwidth):
    kx, ks = jax.random.split(jax.random.PRNGKey(0))
    x = jax.random.normal(kx, (6, 3))
    scores = jax.random.normal(ks, (6, 3))
    hs = [float(median_bandwidth(x))] if bandwidth == "median" else bandwidth

    def kernel(xj, xi):
        return sum(jnp.exp(-jnp.sum((xj - xi) ** 2) / (2 * h)) for h in hs)

    def term(xj, sj, xi):
        return kernel(xj, xi) * sj + jax.grad(kernel, argnums=0)(xj, xi)

    # phi(x_i) = mean_j [K(x_j, x_i) s_j + grad_{x_j} K(x_j, x_i)], the kernel gradient by autodiff
    ref = jax.jit(jax.vmap(lambda xi: jnp.mean(jax.vmap(term, (0, 0, None))(x, scores, xi), axis=0)))(x)
    np.testing.assert_allclose(svgd_direction(x, scores, bandwidth), ref, rtol=1e-12, atol=1e-14)
