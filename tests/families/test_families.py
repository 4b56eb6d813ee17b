"""Likelihood families of Hartmann et al. (2026), notes Sec. 1.5-1.6: KL, symmetrised KL and
Fisher information against independent computations.

Three independent routes to the Fisher information must agree with the family's closed form:

* the Hessian of ``p2 -> KL(p1 || p2)`` at ``p2 = p1`` (equivalently half the Hessian of the
  symmetrised KL there), by ``jax.hessian``;
* the expected outer product of the score ``E[grad log p(y|p) grad log p(y|p)^T]``, by exact
  enumeration (Bernoulli, categorical, truncated Poisson) or Gauss-Hermite quadrature, which is
  exact for the polynomial scores of the Gaussians;
* ``pullback_fisher(p, I)`` with an identity Jacobian.

Log likelihoods are compared with ``scipy.stats``; KLs of the Gaussians with the textbook
formula ``KL(N0 || N1) = 1/2 [tr(S1^-1 S0) + (m1-m0)^T S1^-1 (m1-m0) - k + log det S1/det S0]``.
"""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.stats

from geobayes.families import (
    Bernoulli,
    Categorical,
    GaussianFixedCovariance,
    GaussianFixedVariance,
    GaussianMeanVariance,
    Poisson,
)

N = 3  # observations per family (small: enumeration is C^N or 2^N)
C = 3  # classes of the categorical family


def _spd(rng: np.random.Generator, m: int) -> np.ndarray:
    a = rng.normal(size=(m, m))
    return a @ a.T + m * np.eye(m)


SIGMA_Y = _spd(np.random.default_rng(99), N)


def _random_params(name: str, rng: np.random.Generator) -> np.ndarray:
    if name == "categorical":
        return rng.normal(size=(N, C - 1))
    if name == "gaussian_mean_variance":
        return np.concatenate([rng.normal(size=N), [rng.uniform(0.3, 2.5)]])
    if name == "poisson":
        return rng.normal(scale=0.7, size=N)
    return rng.normal(size=N)


FAMILIES = {
    "bernoulli": Bernoulli(),
    "poisson": Poisson(),
    "categorical": Categorical(),
    "gaussian_fixed_variance": GaussianFixedVariance(0.7),
    "gaussian_fixed_covariance": GaussianFixedCovariance(SIGMA_Y),
    "gaussian_mean_variance": GaussianMeanVariance(),
}
NAMES = list(FAMILIES)
WITH_KL = ["bernoulli", "poisson"]  # ExponentialFamily subclasses expose kl()


# ----------------------------------------------------------------------------------------
# independent KLs


def _gaussian_kl(m0, s0, m1, s1) -> float:
    """KL(N(m0, s0) || N(m1, s1)) for full covariances (textbook formula, numpy)."""
    k = m0.shape[0]
    s1_inv = np.linalg.inv(s1)
    d = m1 - m0
    return 0.5 * (np.trace(s1_inv @ s0) + d @ s1_inv @ d - k
                  + np.linalg.slogdet(s1)[1] - np.linalg.slogdet(s0)[1])


def _independent_kl(name: str, p1: np.ndarray, p2: np.ndarray) -> float:
    """KL(p_{p1} || p_{p2}) from the distributions' definitions, not from A(eta)."""
    if name == "bernoulli":
        q1, q2 = 1 / (1 + np.exp(-p1)), 1 / (1 + np.exp(-p2))
        return float(np.sum(q1 * np.log(q1 / q2) + (1 - q1) * np.log((1 - q1) / (1 - q2))))
    if name == "poisson":
        l1, l2 = np.exp(p1), np.exp(p2)
        return float(np.sum(l1 * np.log(l1 / l2) - l1 + l2))
    if name == "categorical":
        full1 = np.column_stack([p1, np.zeros(N)])
        full2 = np.column_stack([p2, np.zeros(N)])
        q1 = np.exp(full1) / np.exp(full1).sum(1, keepdims=True)
        q2 = np.exp(full2) / np.exp(full2).sum(1, keepdims=True)
        return float(np.sum(q1 * np.log(q1 / q2)))
    if name == "gaussian_fixed_variance":
        return _gaussian_kl(p1, 0.7 * np.eye(N), p2, 0.7 * np.eye(N))
    if name == "gaussian_fixed_covariance":
        return _gaussian_kl(p1, SIGMA_Y, p2, SIGMA_Y)
    if name == "gaussian_mean_variance":
        return _gaussian_kl(p1[:-1], p1[-1] * np.eye(N), p2[:-1], p2[-1] * np.eye(N))
    raise KeyError(name)


# ----------------------------------------------------------------------------------------
# (a), (b) KL and symmetrised KL


@pytest.mark.parametrize("name", NAMES)
def test_symmetrised_kl_nonnegative_zero_on_diagonal_and_matches_independent_kls(name):
    family = FAMILIES[name]
    rng = np.random.default_rng(1)
    for _ in range(5):
        p1, p2 = _random_params(name, rng), _random_params(name, rng)
        sym = float(family.symmetrised_kl(jnp.asarray(p1), jnp.asarray(p2)))
        expected = _independent_kl(name, p1, p2) + _independent_kl(name, p2, p1)
        assert expected > 1e-3  # distinct random parameters: a real, non-trivial value
        assert sym == pytest.approx(expected, rel=1e-10, abs=1e-12)
        assert sym > 0.0
        # symmetric in its arguments
        assert float(family.symmetrised_kl(jnp.asarray(p2), jnp.asarray(p1))) == pytest.approx(sym, rel=1e-12)
        assert float(family.symmetrised_kl(jnp.asarray(p1), jnp.asarray(p1))) == pytest.approx(0.0, abs=1e-14)


@pytest.mark.parametrize("name", WITH_KL)
def test_kl_matches_independent_kl_and_sums_to_symmetrised(name):
    family = FAMILIES[name]
    rng = np.random.default_rng(2)
    for _ in range(5):
        p1, p2 = jnp.asarray(_random_params(name, rng)), jnp.asarray(_random_params(name, rng))
        k12, k21 = float(family.kl(p1, p2)), float(family.kl(p2, p1))
        assert k12 == pytest.approx(_independent_kl(name, np.asarray(p1), np.asarray(p2)), rel=1e-10)
        assert k21 == pytest.approx(_independent_kl(name, np.asarray(p2), np.asarray(p1)), rel=1e-10)
        assert k12 > 0.0 and k21 > 0.0
        assert float(family.symmetrised_kl(p1, p2)) == pytest.approx(k12 + k21, rel=1e-12)
        assert float(family.kl(p1, p1)) == pytest.approx(0.0, abs=1e-14)


# ----------------------------------------------------------------------------------------
# (c) Fisher information = Hessian of the KL at equality, and pullback with identity J


def _fisher_matrix(name: str, family, p: jax.Array) -> np.ndarray:
    """The family's Fisher information as a dense matrix over the flattened parameters."""
    info = np.asarray(family.fisher_information(p))
    if name == "categorical":
        k = C - 1
        dense = np.zeros((N * k, N * k))
        for n in range(N):
            dense[n * k:(n + 1) * k, n * k:(n + 1) * k] = info[n]
        return dense
    if info.ndim == 1:
        return np.diag(info)
    return info


@pytest.mark.parametrize("name", NAMES)
def test_fisher_equals_hessian_of_kl_at_equal_parameters(name):
    family = FAMILIES[name]
    p = jnp.asarray(_random_params(name, np.random.default_rng(3)))
    size = p.size
    jac = jnp.eye(size).reshape(p.shape + (size,))

    @jax.jit
    def hessians(p):
        return (
            # the Hessian of the symmetrised KL in its second argument, at p2 = p1 ...
            jax.hessian(lambda q: family.symmetrised_kl(p, q))(p),
            # ... and in its first (the contrast of Eq. (11) is differentiated in theta1)
            jax.hessian(lambda q: family.symmetrised_kl(q, p))(p),
            jax.hessian(lambda q: family.kl(p, q))(p) if name in WITH_KL else jnp.zeros(()),
            family.pullback_fisher(p, jac),  # pullback by the identity Jacobian
        )

    hess_second, hess_first, hess_kl, pullback = (np.asarray(a) for a in hessians(p))
    expected = _fisher_matrix(name, family, p)
    assert np.max(np.abs(expected)) > 1e-2
    np.testing.assert_allclose(0.5 * hess_second.reshape(size, size), expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(0.5 * hess_first.reshape(size, size), expected, rtol=1e-10, atol=1e-12)
    if name in WITH_KL:
        np.testing.assert_allclose(hess_kl, expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(pullback, expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", NAMES)
def test_pullback_fisher_with_general_jacobian(name):
    """``pullback_fisher(p, J) = J^T I J`` over the flattened parameters, for a random J."""
    family = FAMILIES[name]
    rng = np.random.default_rng(4)
    p = jnp.asarray(_random_params(name, rng))
    d = 2
    jac = rng.normal(size=p.shape + (d,))
    flat = jac.reshape(p.size, d)
    expected = flat.T @ _fisher_matrix(name, family, p) @ flat
    np.testing.assert_allclose(np.asarray(family.pullback_fisher(p, jnp.asarray(jac))), expected,
                               rtol=1e-12, atol=1e-13)


# ----------------------------------------------------------------------------------------
# (d) Fisher information = expected outer product of the score


def _expected_score_outer(name: str, family, p: jax.Array) -> np.ndarray:
    score = jax.jit(jax.grad(lambda q, y: family.log_likelihood(y, q)))
    size = p.size
    total = np.zeros((size, size))
    if name in ("bernoulli", "categorical"):
        levels = 2 if name == "bernoulli" else C
        for ys in itertools.product(range(levels), repeat=N):
            y = jnp.asarray(ys, dtype=jnp.float64)
            prob = float(jnp.exp(family.log_likelihood(y, p)))
            s = np.asarray(score(p, y)).reshape(size)
            total += prob * np.outer(s, s)
        return total
    if name == "poisson":
        # independent observations: the cross terms have zero mean, so the expectation is the
        # sum over n of E[s_n s_n^T] with s_n the score of observation n alone; counts are
        # truncated at 60, where the pmf is < 1e-30 for these rates
        counts = jnp.arange(0.0, 60.0)

        @jax.jit
        def per_observation(p):
            def one(n, y):
                yy = jnp.zeros(N).at[n].set(y)
                s = jax.grad(lambda q: family.log_likelihood_terms(yy, q)[n])(p)
                return jnp.exp(family.log_likelihood_terms(yy, p)[n]) * jnp.outer(s, s)
            return jax.vmap(lambda n: jax.vmap(lambda y: one(n, y))(counts).sum(0))(jnp.arange(N)).sum(0)

        return np.asarray(per_observation(p))
    # Gaussians: Gauss-Hermite (probabilists') quadrature, exact for the degree <= 4 polynomials
    nodes, weights = np.polynomial.hermite_e.hermegauss(6)
    weights = weights / weights.sum()
    if name == "gaussian_fixed_variance":
        mean, chol = np.asarray(p), np.sqrt(0.7) * np.eye(N)
    elif name == "gaussian_fixed_covariance":
        mean, chol = np.asarray(p), np.linalg.cholesky(SIGMA_Y)
    else:
        mean, chol = np.asarray(p[:-1]), np.sqrt(float(p[-1])) * np.eye(N)
    grid = np.array(list(itertools.product(range(len(nodes)), repeat=N)))
    z, w = nodes[grid], np.prod(weights[grid], axis=1)
    y = mean + z @ chol.T
    s = np.asarray(jax.vmap(lambda yy: score(p, yy))(jnp.asarray(y)))
    return np.einsum("k,ki,kj->ij", w, s, s)


@pytest.mark.parametrize("name", NAMES)
def test_fisher_equals_expected_outer_product_of_score(name):
    family = FAMILIES[name]
    p = jnp.asarray(_random_params(name, np.random.default_rng(5)))
    expected = _fisher_matrix(name, family, p)
    np.testing.assert_allclose(_expected_score_outer(name, family, p), expected, rtol=1e-10, atol=1e-12)


# ----------------------------------------------------------------------------------------
# (e) log likelihoods against scipy.stats


def test_log_likelihood_matches_scipy():
    rng = np.random.default_rng(6)
    n = 7
    eta = rng.normal(size=n)

    y = rng.integers(0, 2, size=n).astype(float)
    expected = scipy.stats.bernoulli.logpmf(y, 1 / (1 + np.exp(-eta)))
    np.testing.assert_allclose(Bernoulli().log_likelihood_terms(jnp.asarray(y), jnp.asarray(eta)), expected, rtol=1e-12)
    assert float(Bernoulli().log_likelihood(jnp.asarray(y), jnp.asarray(eta))) == pytest.approx(expected.sum(), rel=1e-12)

    y = rng.poisson(3.0, size=n).astype(float)
    expected = scipy.stats.poisson.logpmf(y, np.exp(eta))
    np.testing.assert_allclose(Poisson().log_likelihood_terms(jnp.asarray(y), jnp.asarray(eta)), expected, rtol=1e-12)
    assert float(Poisson().log_likelihood(jnp.asarray(y), jnp.asarray(eta))) == pytest.approx(expected.sum(), rel=1e-12)

    y, mu = rng.normal(size=n), rng.normal(size=n)
    expected = scipy.stats.norm.logpdf(y, mu, np.sqrt(0.7))
    fam = GaussianFixedVariance(0.7)
    np.testing.assert_allclose(fam.log_likelihood_terms(jnp.asarray(y), jnp.asarray(mu)), expected, rtol=1e-12)
    assert float(fam.log_likelihood(jnp.asarray(y), jnp.asarray(mu))) == pytest.approx(expected.sum(), rel=1e-12)

    s = 1.7
    expected = scipy.stats.norm.logpdf(y, mu, np.sqrt(s))
    params = jnp.asarray(np.concatenate([mu, [s]]))
    np.testing.assert_allclose(GaussianMeanVariance().log_likelihood_terms(jnp.asarray(y), params), expected, rtol=1e-12)
    assert float(GaussianMeanVariance().log_likelihood(jnp.asarray(y), params)) == pytest.approx(expected.sum(), rel=1e-12)

    cov = _spd(rng, 4)
    y, mu = rng.normal(size=4), rng.normal(size=4)
    expected = scipy.stats.multivariate_normal.logpdf(y, mu, cov)
    got = float(GaussianFixedCovariance(cov).log_likelihood(jnp.asarray(y), jnp.asarray(mu)))
    assert got == pytest.approx(expected, rel=1e-12)

    labels = rng.integers(0, C, size=n)
    eta = rng.normal(size=(n, C - 1))
    full = np.column_stack([eta, np.zeros(n)])
    probs = np.exp(full) / np.exp(full).sum(1, keepdims=True)
    expected = np.array([scipy.stats.multinomial.logpmf(np.eye(C)[k], 1, probs[i]) for i, k in enumerate(labels)])
    got = Categorical().log_likelihood_terms(jnp.asarray(labels, dtype=jnp.float64), jnp.asarray(eta))
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert float(Categorical().log_likelihood(jnp.asarray(labels), jnp.asarray(eta))) == pytest.approx(expected.sum(), rel=1e-12)


def test_gaussian_fixed_covariance_rejects_bad_covariance():
    with pytest.raises(ValueError, match="square"):
        GaussianFixedCovariance(np.ones(3))
    with pytest.raises(ValueError, match="positive definite"):
        GaussianFixedCovariance(np.array([[1.0, 2.0], [2.0, 1.0]]))


# ----------------------------------------------------------------------------------------
# (f) categorical reference class


@jax.jit
def _categorical_pieces(eta: jax.Array) -> tuple:
    """Probabilities, the log likelihood of every label for every row, A(eta), grad A, mean."""
    fam = Categorical()
    n = eta.shape[0]
    per_label = jnp.stack([fam.log_likelihood_terms(jnp.full(n, float(c)), eta) for c in range(C)], axis=1)
    return (fam.probabilities(eta), per_label, fam.log_partition(eta), jax.grad(fam.log_partition)(eta),
            fam.mean(eta))


def test_categorical_zero_eta_is_uniform_and_last_label_is_reference():
    probs, per_label, log_partition, _, _ = _categorical_pieces(jnp.zeros((5, C - 1)))
    np.testing.assert_allclose(probs, np.full((5, C - 1), 1.0 / C), rtol=1e-15)
    np.testing.assert_allclose(per_label, np.full((5, C), -np.log(C)), rtol=1e-14)
    assert float(log_partition) == pytest.approx(5 * np.log(C), rel=1e-14)

    # The reference class C-1 has natural parameter 0: the probability of label C-1 is
    # 1 / (1 + sum_c exp(eta_c)) = 1 - sum of the returned (non-reference) probabilities.
    eta = np.random.default_rng(7).normal(size=(5, C - 1))
    probs, per_label, _, grad_a, mean = _categorical_pieces(jnp.asarray(eta))
    p = np.asarray(probs)
    likelihood = np.exp(np.asarray(per_label))
    np.testing.assert_allclose(likelihood[:, C - 1], 1.0 - p.sum(1), rtol=1e-12)
    np.testing.assert_allclose(likelihood[:, C - 1], 1.0 / (1.0 + np.exp(eta).sum(1)), rtol=1e-12)
    np.testing.assert_allclose(likelihood[:, :C - 1], p, rtol=1e-12)
    np.testing.assert_allclose(likelihood.sum(1), 1.0, rtol=1e-13)
    # mean = grad of the log partition
    np.testing.assert_allclose(grad_a, mean, rtol=1e-12)


@pytest.mark.parametrize("name", WITH_KL)
def test_exponential_family_mean_and_fisher_are_derivatives_of_log_partition(name):
    family = FAMILIES[name]
    eta = jnp.asarray(_random_params(name, np.random.default_rng(8)))
    np.testing.assert_allclose(jax.jit(jax.grad(family.log_partition))(eta), family.mean(eta), rtol=1e-12)
    np.testing.assert_allclose(np.diag(jax.jit(jax.hessian(family.log_partition))(eta)),
                               family.fisher_information(eta), rtol=1e-12)
