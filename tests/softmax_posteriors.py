"""A small softmax-classifier posterior at its MAP, and the straight-line check of a geodesic
method, shared by the network-classifier method tests (on pytest's pythonpath)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from geobayes.models import GaussianPrior
from geobayes.networks import MultilayerPerceptron, NetworkSoftmaxClassifier, softmax_classifier_posterior
from geobayes.posterior import Posterior

#: Unequal classes (30 / 20 / 10), so that a stratified batch differs from a uniform one.
BLOB_LABELS = np.repeat([0, 1, 2], [30, 20, 10])


def blobs_softmax_posterior() -> Posterior:
    """A 2-8-3 tanh MLP (51 weights), prior N(0, I), on 60 points of three Gaussian blobs."""
    rng = np.random.default_rng(0)
    centres = np.array([[1.5, 0.0], [-1.0, 1.2], [-1.0, -1.2]])
    X = rng.normal(scale=0.8, size=(60, 2)) + centres[BLOB_LABELS]
    model = NetworkSoftmaxClassifier(network=MultilayerPerceptron((2, 8, 3)), prior=GaussianPrior(1.0))
    return softmax_classifier_posterior("blobs-softmax", model, X, BLOB_LABELS)


@eqx.filter_jit
def _polish(posterior, theta):
    """Three Newton steps, then the gradient and Hessian at the end point, in one compiled call."""
    def newton(_, th):
        return th - jnp.linalg.solve(posterior.hessian(th), posterior.grad(th))

    theta = jax.lax.fori_loop(0, 3, newton, theta)
    return theta, posterior.grad(theta), posterior.hessian(theta)


def softmax_map(posterior: Posterior) -> tuple[jax.Array, jax.Array, jax.Array]:
    """``(MAP, gradient, Hessian)``: BFGS (the pipeline's MAP search), then Newton to machine precision."""
    from geobayes.optimize import anchor_objective, find_map

    start = find_map(anchor_objective("euclidean"), posterior, posterior.dim, jax.random.PRNGKey(0), restarts=2)
    return _polish(posterior, jnp.asarray(start.position))


def straight_line_deviations(curved, straight, mode, n: int, scales=(1.0, 1e-2, 1e-3)) -> dict:
    """``|Exp_mode(eps v) - (mode + eps v)| / |eps v|`` per draw, for each ``eps`` in ``scales``.

    ``curved`` is a geodesic approximation and ``straight`` its Gaussian twin (ELA / lin-LA) with
    the same tangent Gaussian: with the same key both draw the same ``v``; dividing the precision's
    Cholesky factor by ``eps`` scales every ``v`` by ``eps``.
    """
    key, deviations = jax.random.PRNGKey(2), {}
    for eps in scales:
        def scaled(approximation):
            return eqx.tree_at(lambda a: a.tangent.precision_cholesky, approximation,
                               approximation.tangent.precision_cholesky / eps)

        bent = np.asarray(scaled(curved).sample(key, n).theta)
        line = np.asarray(scaled(straight).sample(key, n).theta)
        deviations[eps] = np.linalg.norm(bent - line, axis=1) / np.linalg.norm(line - np.asarray(mode), axis=1)
    return deviations


def check_finite_draws(approximation, mode, n: int) -> None:
    """``n`` draws of a classifier approximation: (n, 51) float64, all successful and finite, none
    equal to the mode (every method moves off it)."""
    draws = approximation.sample(jax.random.PRNGKey(1), n)
    theta = np.asarray(draws.theta)
    assert theta.shape == (n, 51) and theta.dtype == np.float64
    assert bool(np.all(np.asarray(draws.successful))) and np.all(np.isfinite(theta))
    assert np.all(np.any(theta != np.asarray(mode), axis=1))
