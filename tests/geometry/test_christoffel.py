"""Christoffel contractions: closed forms == generic autodiff == the paper's full-tensor formula.

The reference here is a direct transcription of
``Gamma^k_ij = 1/2 G^kl (d_i G_jl + d_j G_il - d_l G_ij)`` (Yu et al. 2024, Sec. 2 / Supp. 13),
built as the full ``D x D x D`` tensor with ``jax.jacfwd`` and contracted with ``v`` twice.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.dataset import Dataset
from geobayes.families import GaussianFixedVariance
from geobayes.geometry import Euclidean, Fisher, Monge, christoffel_contraction
from geobayes.models import GaussianPrior, LinearGaussianRegression, LogisticRegression
from geobayes.posterior import Posterior

RIPLEY = "logreg/ripley.npy"  # in the data mirror (tests/data_mirror.py)


def full_tensor_christoffel(metric_fn, theta, v):
    """``Gamma^k_ij v^i v^j`` from the full symbol tensor (paper's formula, written out)."""
    G = metric_fn(theta)
    dG = jax.jacfwd(metric_fn)(theta)  # dG[a, b, c] = d_c G_ab
    d = jnp.transpose(dG, (2, 0, 1))  # d[i, j, l] = d_i G_jl
    bracket = d + jnp.transpose(d, (1, 0, 2)) - jnp.transpose(d, (1, 2, 0))
    # bracket[i, j, l] = d_i G_jl + d_j G_il - d_l G_ij
    gamma = 0.5 * jnp.einsum("kl,ijl->kij", jnp.linalg.inv(G), bracket)
    return jnp.einsum("kij,i,j->k", gamma, v, v)


@jax.jit  # Python-float fields (Monge.alpha2) are traced, so one compile per metric type.
def _three_contractions(metric, posterior, theta, v):
    fn = lambda th: metric.tensor(posterior, th)  # noqa: E731
    return (
        metric.christoffel(posterior, theta, v),
        metric.generic_christoffel(posterior, theta, v),
        christoffel_contraction(fn, theta, v),
        full_tensor_christoffel(fn, theta, v),
    )


def _logistic(seed=0, n=50, d=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-X @ rng.normal(size=d)))).astype(float)
    return Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(5.0)), Dataset(X, y))


def _ripley():
    raw = np.load(mirror_file(RIPLEY))
    X = np.column_stack([raw[:, :-1], np.ones(len(raw))])
    return Posterior("ripley_raw-logreg", LogisticRegression(), Dataset(X, raw[:, -1]))


def _lingauss(seed=1, n=20, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n)
    model = LinearGaussianRegression(family=GaussianFixedVariance(0.25), prior=GaussianPrior(2.0))
    return Posterior("toy-lingauss", model, Dataset(X, y))


def _points(dim, seed, count=3):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield jnp.asarray(rng.normal(size=dim)), jnp.asarray(rng.normal(scale=2.0, size=dim))


def _assert_agree(closed, generic, direct, full, rtol=1e-9):
    scale = max(float(jnp.max(jnp.abs(full))), 1e-300)
    atol = rtol * scale
    np.testing.assert_allclose(closed, full, rtol=rtol, atol=atol)
    np.testing.assert_allclose(generic, full, rtol=rtol, atol=atol)
    np.testing.assert_allclose(direct, full, rtol=rtol, atol=atol)


@pytest.mark.parametrize(
    "make_posterior, alpha2",
    [(_logistic, 1.0), (_logistic, 0.3), (_lingauss, 1.0), (_lingauss, 2.5)],
    ids=["logreg-a1", "logreg-a0.3", "lingauss-a1", "lingauss-a2.5"],
)
def test_monge_closed_form_equals_generic_and_full_tensor(make_posterior, alpha2):
    posterior = make_posterior()
    metric = Monge(alpha2=alpha2)
    for theta, v in _points(posterior.dim, 3):
        closed, generic, direct, full = _three_contractions(metric, posterior, theta, v)
        assert float(jnp.linalg.norm(full)) > 1e-6  # non-trivial check
        _assert_agree(closed, generic, direct, full)


@pytest.mark.parametrize("make_posterior", [_logistic, _ripley], ids=["toy", "ripley"])
def test_logistic_fisher_closed_form_equals_generic_and_full_tensor(make_posterior):
    posterior = make_posterior()
    for theta, v in _points(posterior.dim, 4):
        closed, generic, direct, full = _three_contractions(
            Fisher(analytic=True), posterior, theta, v
        )
        assert float(jnp.linalg.norm(full)) > 1e-6
        _assert_agree(closed, generic, direct, full)
        # analytic=False takes the generic path.
        not_analytic, _, _, _ = _three_contractions(Fisher(analytic=False), posterior, theta, v)
        atol = 1e-12 * float(jnp.max(jnp.abs(generic)))
        np.testing.assert_allclose(not_analytic, generic, rtol=1e-12, atol=atol)


def test_fisher_closed_form_is_actually_used():
    """The analytic flag selects the model's closed form (bit-identical to calling it)."""
    posterior = _logistic(5)
    theta, v = next(_points(posterior.dim, 6))
    closed, _, _, _ = _three_contractions(Fisher(analytic=True), posterior, theta, v)
    closed_form = jax.jit(lambda p, th, u: p.model.fisher_christoffel(th, u, p.data))
    expected = closed_form(posterior, theta, v)
    np.testing.assert_array_equal(closed, expected)


def test_fisher_contraction_vanishes_for_constant_metric():
    posterior = _lingauss()
    for theta, v in _points(posterior.dim, 7):
        closed, generic, direct, full = _three_contractions(Fisher(), posterior, theta, v)
        for value in (closed, generic, direct, full):
            np.testing.assert_allclose(value, 0.0, atol=1e-12)


def test_euclidean_contraction_is_zero():
    posterior = _logistic(8)
    for theta, v in _points(posterior.dim, 9):
        closed, generic, direct, full = _three_contractions(Euclidean(), posterior, theta, v)
        np.testing.assert_array_equal(closed, jnp.zeros(posterior.dim))
        for value in (generic, direct, full):
            np.testing.assert_allclose(value, 0.0, atol=1e-15)


def test_generic_contraction_on_known_metric():
    """Polar-like metric G = diag(1, r^2) on (r, phi): Gamma^r_phiphi = -r, Gamma^phi_rphi = 1/r."""
    metric_fn = lambda th: jnp.diag(jnp.array([1.0, th[0] ** 2]))  # noqa: E731
    theta = jnp.array([2.0, 0.7])
    v = jnp.array([0.3, -1.1])
    r = theta[0]
    expected = jnp.array([-r * v[1] ** 2, 2.0 * v[0] * v[1] / r])
    generic = jax.jit(christoffel_contraction, static_argnums=0)(metric_fn, theta, v)
    np.testing.assert_allclose(generic, expected, rtol=1e-13)
    full = jax.jit(full_tensor_christoffel, static_argnums=0)(metric_fn, theta, v)
    np.testing.assert_allclose(full, expected, rtol=1e-13)


def test_monge_tensor_is_identity_plus_scaled_outer_gradient():
    posterior = _logistic(10)
    theta = jnp.asarray(np.random.default_rng(0).normal(size=posterior.dim))
    G, g = jax.jit(lambda p, th: (Monge(alpha2=0.7).tensor(p, th), p.grad(th)))(posterior, theta)
    np.testing.assert_allclose(G, np.eye(posterior.dim) + 0.7 * np.outer(g, g), rtol=1e-14)
