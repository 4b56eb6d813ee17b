"""Monge metric of a Gaussian (RLA-BLog's manifold P): closed forms against autodiff."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.geometry.gaussian_monge import GaussianMonge
from geobayes.geometry.monge import Monge
from geobayes.target import Target


def _anisotropic(dim, seed):
    """Random mean and SPD precision with eigenvalues spread over two decades."""
    rng = np.random.default_rng(seed)
    rotation, _ = np.linalg.qr(rng.normal(size=(dim, dim)))
    eigenvalues = np.exp(rng.uniform(np.log(0.3), np.log(30.0), size=dim))
    precision = rotation @ np.diag(eigenvalues) @ rotation.T
    return GaussianMonge(jnp.asarray(rng.normal(size=dim)), jnp.asarray(precision))


class _GaussianTarget(Target):
    """``log N(theta | m, P^{-1})`` up to a constant: the target whose Monge metric is G_P."""

    mean: jax.Array
    precision: jax.Array
    name: str = "toy-gaussian"

    @property
    def dim(self):
        return self.mean.shape[0]

    def logdensity(self, theta):
        r = theta - self.mean
        return -0.5 * r @ self.precision @ r


@jax.jit
def _contractions(metric, theta, v):
    return metric.christoffel(None, theta, v), metric.generic_christoffel(None, theta, v)


@pytest.mark.parametrize("dim", [1, 2, 5])
def test_closed_form_christoffel_equals_autodiff_contraction(dim):
    metric = _anisotropic(dim, seed=dim)
    rng = np.random.default_rng(10 + dim)
    for _ in range(3):
        theta = metric.mean + jnp.asarray(rng.normal(size=dim))
        v = jnp.asarray(rng.normal(size=dim))
        closed, generic = _contractions(metric, theta, v)
        assert float(jnp.linalg.norm(closed)) > 1e-3  # not trivially zero
        np.testing.assert_allclose(closed, generic, rtol=1e-10, atol=1e-12)


def test_equals_target_monge_metric_of_the_gaussian():
    """G_P is exactly RLA-B's Monge metric (alpha^2 = 1) of the Gaussian target itself."""
    metric = _anisotropic(4, seed=3)
    target = _GaussianTarget(metric.mean, metric.precision)
    rng = np.random.default_rng(4)
    theta, v = (jnp.asarray(rng.normal(size=4)) for _ in range(2))
    np.testing.assert_allclose(
        metric.tensor(None, theta), Monge(alpha2=1.0).tensor(target, theta), rtol=1e-12
    )
    np.testing.assert_allclose(
        metric.christoffel(None, theta, v),
        Monge(alpha2=1.0).christoffel(target, theta, v),
        rtol=1e-10,
        atol=1e-12,
    )


def test_tensor_is_identity_at_the_mean_and_rank_one_update_elsewhere():
    metric = _anisotropic(3, seed=5)
    np.testing.assert_array_equal(metric.tensor(None, metric.mean), np.eye(3))
    # The posterior argument is ignored: any object gives the same tensor.
    np.testing.assert_array_equal(metric.tensor(object(), metric.mean), np.eye(3))
    theta = metric.mean + jnp.array([0.3, -0.2, 0.5])
    g = metric.precision @ (theta - metric.mean)
    G = np.asarray(metric.tensor(None, theta))
    np.testing.assert_allclose(G - np.eye(3), np.outer(g, g), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(metric.christoffel(None, metric.mean, g)), 0.0)


@pytest.mark.parametrize(
    "mean_shape, precision_shape", [((3,), (2, 2)), ((3, 1), (3, 3)), ((2,), (2, 3))]
)
def test_mismatched_shapes_are_rejected(mean_shape, precision_shape):
    with pytest.raises(ValueError, match="GaussianMonge"):
        GaussianMonge(jnp.zeros(mean_shape), jnp.eye(*precision_shape))
