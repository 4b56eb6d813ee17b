"""Tests of geobayes.metrics.predictive: MSE/NLL of Yu et al. (2024) and push-forward W2 of Hartmann et al. (2026)."""

import math

import numpy as np
import ot
import pytest
from scipy.special import ndtr
from scipy.stats import norm

from geobayes.metrics.predictive import predictive_mse, predictive_nll, predictive_quantiles
from geobayes.metrics.pushforward_w2 import (
    PairwiseW2,
    mean_pushforward_wasserstein2,
    pairwise_pushforward_wasserstein2,
    pushforward_wasserstein2,
    rms_pushforward_wasserstein2,
)


# ---------------------------------------------------------------- MSE


def test_mse_is_squared_error_of_the_sample_mean():
    f = np.array([[1.0, 2.0, 0.0], [3.0, 0.0, 0.0]])  # means (2, 1, 0)
    y = np.array([0.0, 1.0, 3.0])
    assert predictive_mse(f, y) == pytest.approx(((2 - 0) ** 2 + 0**2 + (0 - 3) ** 2) / 3)


def test_mse_averages_before_squaring():
    # Two samples symmetric around the target: the posterior mean is exact, so MSE = 0
    # (the mean of per-sample squared errors would be 1).
    f = np.array([[1.0, -1.0], [-1.0, 1.0]])
    assert predictive_mse(f, np.zeros(2)) == 0.0


# ---------------------------------------------------------------- NLL


def test_nll_of_one_sample_is_the_gaussian_nll():
    rng = np.random.default_rng(0)
    f = rng.normal(size=(1, 7))
    y = rng.normal(size=7)
    sigma = 0.37
    expected = -np.mean(norm.logpdf(y, loc=f[0], scale=sigma))
    assert predictive_nll(f, y, sigma) == pytest.approx(expected, rel=1e-12)


def test_nll_is_the_log_of_the_mixture_density():
    rng = np.random.default_rng(1)
    f = rng.normal(size=(5, 4))
    y = rng.normal(size=4)
    sigma = np.array([0.2, 0.5, 1.0, 0.3, 0.8])
    density = np.mean(norm.pdf(y[None, :], loc=f, scale=sigma[:, None]), axis=0)
    assert predictive_nll(f, y, sigma) == pytest.approx(-np.mean(np.log(density)), rel=1e-12)
    # A shared sigma passed as a scalar and as an (S,) vector agree.
    assert predictive_nll(f, y, 0.4) == pytest.approx(predictive_nll(f, y, np.full(5, 0.4)), rel=1e-14)


def test_nll_is_stable_far_in_the_tails():
    # Each component density underflows to 0 in float64; logsumexp keeps the NLL finite.
    f = np.array([[0.0], [0.1]])
    y = np.array([100.0])
    value = predictive_nll(f, y, 0.1)
    expected = -(np.logaddexp(norm.logpdf(100.0, 0.0, 0.1), norm.logpdf(100.0, 0.1, 0.1)) - math.log(2))
    assert np.isfinite(value) and value == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------- shape and value errors


@pytest.mark.parametrize(
    ("f", "y", "message"),
    [
        (np.zeros(3), np.zeros(3), r"2-D array of shape \(S, M\)"),
        (np.zeros((2, 3)), np.zeros(4), r"one target per input \(M = 3"),
        (np.zeros((2, 3)), np.zeros((3, 1)), "y_test must be a 1-D array"),
        (np.zeros((0, 3)), np.zeros(3), "at least one sample"),
        (np.array([[0.0, np.nan, 1.0]]), np.zeros(3), "1 non-finite values"),
        (np.array([["a", "b"]]), np.zeros(2), "real numeric array"),
    ],
)
def test_mse_and_nll_reject_bad_shapes(f, y, message):
    with pytest.raises(ValueError, match=message):
        predictive_mse(f, y)
    with pytest.raises(ValueError, match=message):
        predictive_nll(f, y, 1.0)


@pytest.mark.parametrize(
    ("sigma", "message"),
    [
        (np.ones(3), r"one value per sample \(S = 2"),
        (np.ones((2, 1)), "scalar or a 1-D array"),
        (0.0, "finite and > 0"),
        (np.array([1.0, -1.0]), "finite and > 0"),
        (np.inf, "finite and > 0"),
    ],
)
def test_nll_rejects_bad_noise_std(sigma, message):
    with pytest.raises(ValueError, match=message):
        predictive_nll(np.zeros((2, 3)), np.zeros(3), sigma)


# ---------------------------------------------------------------- push-forward W2


def test_w2_between_shifted_gaussians_is_the_shift():
    # W2(N(mu1, s^2), N(mu2, s^2)) = |mu1 - mu2|. With S draws per set the Monte Carlo error
    # of the empirical W2 is O(s * sqrt(log S / S)) ~ 0.02 here (s = 1, S = 20,000).
    rng = np.random.default_rng(2)
    shifts = np.array([0.0, 0.5, 2.0, -3.0])
    a = rng.normal(size=(20_000, 4))
    b = rng.normal(size=(20_000, 4)) + shifts
    w2 = pushforward_wasserstein2(a, b)
    assert w2.shape == (4,)
    np.testing.assert_allclose(w2, np.abs(shifts), atol=0.05)
    # Unequal sizes take the merged-quantile path; same closed form.
    w2_unequal = pushforward_wasserstein2(a[:15_000], b)
    np.testing.assert_allclose(w2_unequal, np.abs(shifts), atol=0.05)


def test_w2_between_gaussians_with_different_scales():
    # W2^2(N(m1, s1^2), N(m2, s2^2)) = (m1 - m2)^2 + (s1 - s2)^2.
    rng = np.random.default_rng(3)
    a = rng.normal(size=(40_000, 1))
    b = 1.0 + 3.0 * rng.normal(size=(30_000, 1))
    assert pushforward_wasserstein2(a, b)[0] == pytest.approx(math.sqrt(1.0 + 4.0), abs=0.05)


def test_w2_of_identical_sets_is_zero_and_ignores_order():
    rng = np.random.default_rng(4)
    a = rng.normal(size=(50, 6))
    permuted = a[rng.permutation(50)]
    np.testing.assert_array_equal(pushforward_wasserstein2(a, permuted), np.zeros(6))
    assert mean_pushforward_wasserstein2(a, a) == 0.0
    assert rms_pushforward_wasserstein2(a, a) == 0.0


@pytest.mark.parametrize(("n_a", "n_b"), [(7, 13), (100, 37), (1, 5), (64, 48), (30, 30)])
def test_w2_equals_pot_wasserstein_1d(n_a, n_b):
    rng = np.random.default_rng(n_a * 1000 + n_b)
    a = rng.normal(size=(n_a, 9)) * rng.uniform(0.5, 2.0, size=9)
    b = rng.standard_t(3, size=(n_b, 9)) + rng.normal(size=9)
    ours = pushforward_wasserstein2(a, b)
    pot = np.sqrt(ot.wasserstein_1d(a, b, p=2))
    np.testing.assert_allclose(ours, pot, rtol=1e-10, atol=1e-12)
    for m in range(9):  # column by column too
        assert ours[m] == pytest.approx(math.sqrt(ot.wasserstein_1d(a[:, m], b[:, m], p=2)), rel=1e-10)


def test_w2_is_symmetric():
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(11, 3)), rng.normal(size=(17, 3))
    np.testing.assert_allclose(pushforward_wasserstein2(a, b), pushforward_wasserstein2(b, a), rtol=1e-13)


def test_aggregates_are_mean_and_rms_of_the_per_input_w2():
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=(40, 5)), 2.0 * rng.normal(size=(25, 5)) + np.arange(5)
    w2 = pushforward_wasserstein2(a, b)
    assert mean_pushforward_wasserstein2(a, b) == pytest.approx(np.mean(w2), rel=1e-14)
    assert rms_pushforward_wasserstein2(a, b) == pytest.approx(np.sqrt(np.mean(w2**2)), rel=1e-14)
    assert rms_pushforward_wasserstein2(a, b) >= mean_pushforward_wasserstein2(a, b)


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        (np.zeros((3, 2)), np.zeros((3, 4)), r"same number of inputs.*\(3, 2\) and \(3, 4\)"),
        (np.zeros(3), np.zeros((3, 1)), "f_a must be a 2-D array"),
        (np.zeros((3, 1)), np.full((3, 1), np.inf), "f_b contains 3 non-finite"),
    ],
)
def test_w2_rejects_bad_shapes(a, b, message):
    with pytest.raises(ValueError, match=message):
        pushforward_wasserstein2(a, b)


# ---------------------------------------------------------------- pairwise W2 across runs


def test_pairwise_w2_mean_and_variance_over_pairs():
    rng = np.random.default_rng(7)
    shifts = [0.0, 1.0, 3.0]
    runs = [rng.normal(size=(30, 4)) for _ in shifts]
    runs = [run - run.mean(axis=0) + s for run, s in zip(runs, shifts, strict=True)]
    result = pairwise_pushforward_wasserstein2(runs)
    assert isinstance(result, PairwiseW2)
    assert result.pairs == ((0, 1), (0, 2), (1, 2))
    assert result.per_pair.shape == (3, 4) and result.mean.shape == (4,) and result.variance.shape == (4,)
    expected = np.stack([pushforward_wasserstein2(runs[i], runs[j]) for i, j in result.pairs])
    np.testing.assert_allclose(result.per_pair, expected, rtol=1e-14)
    np.testing.assert_allclose(result.mean, expected.mean(axis=0), rtol=1e-14)
    np.testing.assert_allclose(result.variance, expected.var(axis=0), rtol=1e-12)


def test_pairwise_w2_of_identical_runs_is_zero_and_counts_k_choose_2_pairs():
    base = np.random.default_rng(8).normal(size=(20, 6))
    result = pairwise_pushforward_wasserstein2([base] * 5)
    assert len(result.pairs) == 10
    np.testing.assert_array_equal(result.mean, np.zeros(6))
    np.testing.assert_array_equal(result.variance, np.zeros(6))
    # A stacked (K, S, M) array works too.
    assert len(pairwise_pushforward_wasserstein2(np.stack([base] * 3)).pairs) == 3


def test_pairwise_w2_rejects_bad_input():
    with pytest.raises(ValueError, match="at least two runs"):
        pairwise_pushforward_wasserstein2([np.zeros((3, 2))])
    with pytest.raises(ValueError, match=r"same number of inputs.*\(3, 2\), \(4, 3\)"):
        pairwise_pushforward_wasserstein2([np.zeros((3, 2)), np.zeros((4, 3))])
    with pytest.raises(ValueError, match=r"samples_per_run\[1\] must be a 2-D array"):
        pairwise_pushforward_wasserstein2([np.zeros((3, 2)), np.zeros(3)])


# ---------------------------------------------------------------- predictive quantiles


def test_quantiles_without_noise_are_sample_quantiles():
    f = np.random.default_rng(9).normal(size=(101, 3))
    levels = [0.025, 0.5, 0.975]
    np.testing.assert_allclose(predictive_quantiles(f, levels), np.quantile(f, levels, axis=0))


def test_quantiles_with_noise_invert_the_mixture_cdf():
    rng = np.random.default_rng(10)
    f = rng.normal(size=(50, 4))
    sigma = rng.uniform(0.1, 0.5, size=50)
    q = predictive_quantiles(f, [0.025, 0.975], sigma)
    assert q.shape == (2, 4)
    cdf = np.mean(ndtr((q[:, None, :] - f[None]) / sigma[None, :, None]), axis=1)
    np.testing.assert_allclose(cdf, np.array([[0.025], [0.975]]) * np.ones((1, 4)), atol=1e-9)
    # One sample: the Gaussian quantiles.
    single = predictive_quantiles(np.array([[1.0, -2.0]]), 0.975, 0.5)
    np.testing.assert_allclose(single, [1.0 + 0.5 * norm.ppf(0.975), -2.0 + 0.5 * norm.ppf(0.975)], rtol=1e-9)


def test_quantiles_reject_bad_levels():
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        predictive_quantiles(np.zeros((2, 2)), [0.0, 0.5], 1.0)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        predictive_quantiles(np.zeros((2, 2)), 1.5)
