"""Input-space curvature of Srinivas et al. (2022) as Yu et al. (2023) measure it."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.metrics.input_curvature import (
    CURVATURE_EPS,
    average_input_curvature,
    batch_input_curvature,
    input_curvatures,
)
from geobayes.networks.dense_relu_classifier import init_parameters, log_likelihoods

EPS = CURVATURE_EPS


def _fixed_point(lam):
    """``|lam| a^2`` with ``a = 1 - eps/|lam|``: the power iteration's limit with the ``+eps``
    in its normalisation (``u = a v``, ``a = |lam| a / (|lam| a + eps)``)."""
    lam = np.abs(lam)
    return lam * (1.0 - EPS / lam) ** 2


def test_power_iteration_finds_top_eigenvalue_of_a_quadratic():
    # l(x) = 1/B sum_i (x_i^T A x_i / 2 + c^T x_i): per-input Hessian A / B, gradient (A x_i + c) / B
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.normal(size=(5, 5)))
    eigenvalues = np.array([3.0, -7.0, 1.0, 0.5, 2.0])  # top |.| is negative: |u^T H u| is taken
    A = Q @ np.diag(eigenvalues) @ Q.T
    c = rng.normal(size=5)
    B = 4
    x = jnp.asarray(rng.normal(size=(B, 5)))

    def loss(x):
        return jnp.mean(0.5 * jnp.einsum("bi,ij,bj->b", x, A, x) + x @ c)

    result = batch_input_curvature(loss, x, jax.random.key(0), num_power_iterations=200)
    np.testing.assert_allclose(result.hessian, _fixed_point(-7.0 / B), rtol=1e-12)
    gnorm = np.linalg.norm((np.asarray(x) @ A + c) / B, axis=1)
    np.testing.assert_allclose(result.gradient_norm, gnorm, rtol=1e-12)
    np.testing.assert_allclose(result.curvature, result.hessian / (gnorm + EPS), rtol=1e-14)
    # 20 iterations (the code's number) already find it to ~ (3/7)^40 here
    default = batch_input_curvature(loss, x, jax.random.key(0))
    np.testing.assert_allclose(default.hessian, _fixed_point(-7.0 / B), rtol=1e-9)


def test_curvature_matches_dense_input_hessian_of_a_tiny_network():
    widths = (5, 4, 4, 3)
    params = init_parameters(jax.random.key(3), widths)
    B = 4
    x = jax.random.uniform(jax.random.key(4), (B, 5), jnp.float64)
    y = jnp.array([0, 1, 2, 1])

    def loss(x):
        return -jnp.mean(log_likelihoods(params, x, y))

    hessian = jax.hessian(loss)(x).reshape(B * 5, B * 5)
    grads = np.asarray(jax.grad(loss)(x))
    expected = []
    for i in range(B):
        block = np.asarray(hessian[5 * i:5 * i + 5, 5 * i:5 * i + 5])
        off = np.asarray(hessian[5 * i:5 * i + 5]).copy()
        off[:, 5 * i:5 * i + 5] = 0.0
        assert np.abs(off).max() < 1e-15  # inputs do not interact: per-input blocks
        lam = np.linalg.eigvalsh(block)
        top = lam[np.argmax(np.abs(lam))]
        assert np.sort(np.abs(lam))[-2] < 0.9 * abs(top)  # a gap, so the power method converges
        expected.append(_fixed_point(top) / (np.linalg.norm(grads[i]) + EPS))
    result = batch_input_curvature(loss, x, jax.random.key(5), num_power_iterations=500)
    np.testing.assert_allclose(result.curvature, expected, rtol=1e-8)
    # through the public batching API, one batch
    batched = input_curvatures(log_likelihoods, params, x, y, jax.random.key(6), n_inputs=4, batch_size=4,
                               num_power_iterations=500)
    np.testing.assert_allclose(batched.curvature, expected, rtol=1e-8)


def test_batches_use_fold_in_keys_and_average():
    widths = (5, 4, 3)
    params = init_parameters(jax.random.key(7), widths)
    x = jax.random.uniform(jax.random.key(8), (10, 5), jnp.float64)
    y = jnp.arange(10) % 3
    key = jax.random.key(9)
    result = input_curvatures(log_likelihoods, params, x, y, key, n_inputs=8, batch_size=4, num_power_iterations=3)
    parts = []
    for b in range(2):
        xb, yb = x[4 * b:4 * b + 4], y[4 * b:4 * b + 4]
        parts.append(batch_input_curvature(lambda z: -jnp.mean(log_likelihoods(params, z, yb)), xb,
                                           jax.random.fold_in(key, b), 3).curvature)
    np.testing.assert_allclose(result.curvature, np.concatenate(parts), rtol=1e-12)
    mean = average_input_curvature(log_likelihoods, params, x, y, key, n_inputs=8, batch_size=4,
                                   num_power_iterations=3)
    assert mean == pytest.approx(float(np.mean(np.concatenate(parts))), rel=1e-12)
    again = average_input_curvature(log_likelihoods, params, x, y, key, n_inputs=8, batch_size=4,
                                    num_power_iterations=3)
    assert again == mean


def test_errors_name_the_argument():
    params = init_parameters(jax.random.key(0), (5, 3))
    x, y, key = jnp.ones((10, 5)), jnp.zeros(10, int), jax.random.key(0)
    with pytest.raises(ValueError, match=r"n_inputs \(10\) must be a multiple of batch_size \(4\)"):
        input_curvatures(log_likelihoods, params, x, y, key, n_inputs=10, batch_size=4)
    with pytest.raises(ValueError, match="n >= n_inputs = 20"):
        input_curvatures(log_likelihoods, params, x, y, key, n_inputs=20, batch_size=10)
    with pytest.raises(ValueError, match="batch_size must be an integer >= 1"):
        input_curvatures(log_likelihoods, params, x, y, key, n_inputs=10, batch_size=0)
    with pytest.raises(ValueError, match="num_power_iterations"):
        input_curvatures(log_likelihoods, params, x, y, key, n_inputs=10, batch_size=5, num_power_iterations=-1)
    with pytest.raises(ValueError, match="y must have one label per row"):
        input_curvatures(log_likelihoods, params, x, y[:3], key, n_inputs=10, batch_size=5)
