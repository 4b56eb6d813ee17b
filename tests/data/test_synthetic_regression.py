"""Synthetic 2-D regressions for Fig. 1 of Hartmann et al. (2026), Sec. 5 (notes E1)."""

from __future__ import annotations

import numpy as np
import pytest

from geobayes.data import (
    SyntheticRegression,
    load_prepared,
    save_prepared,
    simulate_regression,
)


@pytest.mark.parametrize("family", ["bernoulli", "poisson"])
@pytest.mark.parametrize("n", [5, 10, 15, 30])
def test_shapes_and_reproducibility(family, n):
    a = simulate_regression(family, n, seed=n)
    b = simulate_regression(family, n, seed=n)
    c = simulate_regression(family, n, seed=n + 100)
    assert isinstance(a, SyntheticRegression)
    assert a.X.shape == (n, 2) and a.y.shape == (n,)
    assert a.prior_covariance.shape == (2, 2) and a.theta_true.shape == (2,)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a.X, c.X)
    assert not np.array_equal(a.prior_covariance, c.prior_covariance)


def test_wishart_draw_is_explicit_and_positive_definite():
    data = simulate_regression("bernoulli", 10, seed=7)
    G = np.random.default_rng(7).multivariate_normal(np.zeros(2), np.diag([10.0, 10.0]), size=2)
    np.testing.assert_allclose(data.prior_covariance, G.T @ G, rtol=1e-15)
    np.testing.assert_array_equal(data.prior_covariance, data.prior_covariance.T)
    assert np.linalg.eigvalsh(data.prior_covariance).min() > 0
    np.linalg.cholesky(data.prior_covariance)


def test_wishart_mean_and_theta_from_prior():
    # E[Sigma] = df * scale = diag(20, 20); Var(Sigma_ii) = 2 df s^2 = 400,
    # Var(Sigma_12) = df s^2 = 200; 5 Monte Carlo standard errors over 1000 draws.
    sims = [simulate_regression("bernoulli", 1, s) for s in range(1000)]
    draws = np.array([sim.prior_covariance for sim in sims])
    mean = draws.mean(axis=0)
    assert abs(mean[0, 0] - 20) < 5 * 20 / np.sqrt(1000)
    assert abs(mean[1, 1] - 20) < 5 * 20 / np.sqrt(1000)
    assert abs(mean[0, 1]) < 5 * np.sqrt(200 / 1000)
    # theta_true ~ N(0, Sigma): theta^T Sigma^{-1} theta ~ chi^2_2, P(chi^2_2 < 2) = 1 - 1/e.
    q = np.array(
        [sim.theta_true @ np.linalg.solve(sim.prior_covariance, sim.theta_true) for sim in sims]
    )
    p = 1 - np.exp(-1.0)
    assert abs(np.mean(q < 2.0) - p) < 5 * np.sqrt(p * (1 - p) / 1000)


def test_families_share_design_prior_and_theta():
    bern = simulate_regression("bernoulli", 15, seed=3)
    pois = simulate_regression("poisson", 15, seed=3)
    np.testing.assert_array_equal(bern.X, pois.X)
    np.testing.assert_array_equal(bern.prior_covariance, pois.prior_covariance)
    np.testing.assert_array_equal(bern.theta_true, pois.theta_true)


def test_response_supports():
    # input_std = 0.25 keeps Poisson rates moderate for every seed (see the module notes).
    for seed in range(20):
        bern = simulate_regression("bernoulli", 30, seed)
        pois = simulate_regression("poisson", 30, seed, input_std=0.25)
        assert set(np.unique(bern.y)) <= {0.0, 1.0} and bern.y.dtype == np.float64
        assert np.all(pois.y >= 0) and np.all(pois.y == np.round(pois.y))


def test_responses_follow_the_canonical_links():
    # E[y - mean | eta] = 0 with mean = sigmoid(eta) / exp(eta): the residuals have zero sum
    # and are uncorrelated with eta = X theta (a wrong link scale breaks the latter),
    # within 5 Monte Carlo standard errors.
    n = 20000
    bern = simulate_regression("bernoulli", n, seed=11, input_std=0.3)
    eta = bern.X @ bern.theta_true
    p = 1.0 / (1.0 + np.exp(-eta))
    var = p * (1 - p)
    assert abs(np.sum(bern.y - p)) < 5 * np.sqrt(np.sum(var))
    assert abs(np.sum((bern.y - p) * eta)) < 5 * np.sqrt(np.sum(var * eta**2))
    pois = simulate_regression("poisson", n, seed=11, input_std=0.3)
    eta = pois.X @ pois.theta_true
    rate = np.exp(eta)
    assert abs(np.sum(pois.y - rate)) < 5 * np.sqrt(np.sum(rate))
    assert abs(np.sum((pois.y - rate) * eta)) < 5 * np.sqrt(np.sum(rate * eta**2))
    assert abs(bern.X.std() - 0.3) < 5 * 0.3 / np.sqrt(2 * n)


def test_other_dimension_and_scale():
    scale = np.array([[2.0, 0.5, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 3.0]])
    data = simulate_regression("poisson", 4, seed=0, wishart_df=5, wishart_scale=scale)
    assert data.X.shape == (4, 3) and data.prior_covariance.shape == (3, 3)


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"family": "gaussian"}, r"family must be one of .*'poisson'\); got 'gaussian'"),
        ({"n": 0}, r"n must be >= 1; got 0"),
        ({"n": 2.5}, r"n must be an integer; got 2\.5"),
        ({"wishart_df": 1}, r"wishart_df must be >= the dimension d = 2.*got 1"),
        ({"wishart_scale": np.diag([1.0, 0.0])}, r"wishart_scale must be positive definite"),
        ({"wishart_scale": np.array([[1.0, 0.5], [0.4, 1.0]])}, r"exactly symmetric"),
        ({"wishart_scale": np.ones(2)}, r"square \(d, d\) matrix; got shape \(2,\)"),
        ({"input_std": 0.0}, r"input_std must be finite and > 0; got 0\.0"),
    ],
)
def test_errors(kwargs, pattern):
    args = {"family": "bernoulli", "n": 5, "seed": 0} | kwargs
    with pytest.raises(ValueError, match=pattern):
        simulate_regression(args.pop("family"), args.pop("n"), args.pop("seed"), **args)


def test_poisson_overflow_is_reported():
    with pytest.raises(ValueError, match=r"Poisson rate exp\(x\^T theta\) overflows.*seed 0"):
        simulate_regression("poisson", 50, seed=0, input_std=1e3)


def test_save_load_roundtrip(tmp_path):
    data = simulate_regression("poisson", 10, seed=4)
    path = save_prepared(tmp_path / "sim.npz", "synthetic", data.arrays())
    with np.load(path) as archive:
        assert sorted(archive.files) == ["X", "_format", "_metadata", "prior_covariance", "theta_true", "y"]
    loaded = load_prepared(path, "synthetic")
    for key, value in data._asdict().items():
        np.testing.assert_array_equal(loaded[key], value)
    bad = tmp_path / "bad.npz"
    with pytest.raises(KeyError, match=r"bad\.npz: data set 'synthetic' needs the arrays prior_covariance, theta_true"):
        save_prepared(bad, "synthetic", {"X": data.X, "y": data.y})
