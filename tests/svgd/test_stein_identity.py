"""Riemannian Stein identity for coordinate RSVGD with a non-constant metric (notes Sec. 5.4(A)).

With exact draws from the target ``pi``, the paper-convention field (``log(p sqrt|G|) = log pi``)
vanishes at every point up to Monte Carlo error; the official code's convention
(``+ grad log|G| / 2``) does not, because its fixed point is ``pi sqrt|G|``.
"""

import functools
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.svgd import metric_quantities, rsvgd_direction

pytestmark = pytest.mark.slow  # 2 x 100k exact draws, one compile per case: > 5 s

DRAWS, BATCHES = 100_000, 40


def _metric_1d(x):
    return (1.0 + x @ x) * jnp.eye(1)


def _metric_2d(x):
    return jnp.eye(2) + jnp.outer(x, x) + jnp.diag(jnp.array([x[1] ** 2, 0.0]))


CASES = {
    # N(0, 1) with G = 1 + x^2 (the notes' check)
    "1d": (jnp.zeros(1), jnp.eye(1), _metric_1d, jnp.linspace(-2.5, 2.5, 11)[:, None]),
    # N(mu, Sigma) with G = I + x x^T + diag(x_2^2, 0)
    "2d": (jnp.array([0.5, -0.3]), jnp.array([[1.0, 0.4], [0.4, 0.6]]), _metric_2d,
           jnp.array([[0.0, 0.0], [1.0, -1.0], [-1.0, 0.5], [1.5, 0.5], [-0.5, -1.2]])),
}


@functools.lru_cache(maxsize=None)
def _field_batches(case):
    """Field at the test points from each of BATCHES batches of exact draws, per convention."""
    mean, cov, metric_fn, points = CASES[case]
    draws = jax.random.multivariate_normal(jax.random.PRNGKey(7), mean, cov, (BATCHES, DRAWS // BATCHES))
    precision = jnp.linalg.inv(cov)
    quantities_fn = jax.vmap(partial(metric_quantities, metric_fn))
    points_inverse = quantities_fn(points).inverse

    @jax.jit
    def batches(draws):
        def one(x):
            grads, quantities = -(x - mean) @ precision, quantities_fn(x)
            return {convention: rsvgd_direction(x, grads, quantities, (1.0,), convention, points, points_inverse)
                    for convention in ("paper", "code")}

        return jax.lax.map(one, draws)

    return {convention: np.asarray(v) for convention, v in batches(draws).items()}  # (BATCHES, points, m)


@pytest.mark.parametrize("case", sorted(CASES))
def test_paper_convention_satisfies_stein_identity(case):
    values = _field_batches(case)["paper"]
    mean = values.mean(axis=0)
    standard_error = values.std(axis=0, ddof=1) / np.sqrt(BATCHES)
    assert np.all(np.abs(mean) < 4.5 * standard_error + 1e-12), (mean, standard_error)


@pytest.mark.parametrize("case", sorted(CASES))
def test_code_convention_violates_stein_identity(case):
    values = _field_batches(case)["code"]
    mean = values.mean(axis=0)
    standard_error = values.std(axis=0, ddof=1) / np.sqrt(BATCHES)
    assert np.max(np.abs(mean) / standard_error) > 20.0
    assert np.max(np.abs(mean)) > 0.05
