"""Exact W2 with POT (Hartmann et al. 2026, Sec. 6) against known answers."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from geobayes.metrics import WassersteinNotConvergedError, wasserstein1, wasserstein2

BIG = 1e10


def test_translation_distance_is_norm_of_shift():
    # W2^2 = min_gamma E|X - Y|^2 >= |E(X - Y)|^2 = |c|^2 (Jensen, marginals fixed); the
    # coupling x_i -> x_i + c attains it. So W2 = |c| for any point cloud.
    rng = np.random.default_rng(0)
    x = rng.standard_t(df=3, size=(200, 3))
    c = np.array([0.3, -1.2, 2.0])
    assert wasserstein2(x, x + c, num_iter_max=BIG) == pytest.approx(np.linalg.norm(c), rel=1e-9)


def test_identical_sets_are_at_distance_zero():
    x = np.random.default_rng(1).normal(size=(150, 2))
    # sqeuclidean costs of identical points are rounding noise ~1e-16 |x|^2, so W2 ~ 1e-8
    assert wasserstein2(x, x, num_iter_max=BIG) == pytest.approx(0.0, abs=1e-6)
    assert wasserstein2(x, x[::-1], num_iter_max=BIG) == pytest.approx(0.0, abs=1e-6)


def test_w2_at_least_w1_and_matches_one_dimensional_quantile_formula():
    rng = np.random.default_rng(2)
    for _ in range(3):
        x, y = rng.normal(size=(120, 2)), rng.gamma(2.0, size=(120, 2))
        w1, w2 = wasserstein1(x, y, num_iter_max=BIG), wasserstein2(x, y, num_iter_max=BIG)
        assert w2 >= w1 - 1e-12
        assert w2 > 0.5
    # 1-D equal-size samples: the optimal coupling is monotone, W2^2 = mean (x_(i) - y_(i))^2
    x, y = rng.normal(size=300), rng.exponential(size=300)
    expected = np.sqrt(np.mean((np.sort(x) - np.sort(y)) ** 2))
    assert wasserstein2(x[:, None], y[:, None], num_iter_max=BIG) == pytest.approx(expected, rel=1e-10)
    assert wasserstein1(x[:, None], y[:, None], num_iter_max=BIG) == pytest.approx(
        scipy.stats.wasserstein_distance(x, y), rel=1e-10)


def test_two_gaussians_close_to_closed_form():
    # W2 between N(m1, I) and N(m2, I) is |m1 - m2|; with 400 draws each the empirical W2 is
    # that plus a positive sampling bias of order 1/sqrt(n) in 2-D.
    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, 2))
    y = rng.normal(size=(400, 2)) + np.array([3.0, 4.0])
    w2 = wasserstein2(x, y, num_iter_max=BIG)
    assert 5.0 - 0.1 < w2 < 5.0 + 0.3


def test_errors():
    x = np.zeros((5, 2))
    with pytest.raises(ValueError, match="same dimension"):
        wasserstein2(x, np.zeros((5, 3)), num_iter_max=BIG)
    with pytest.raises(ValueError, match="2-D"):
        wasserstein2(np.zeros(5), x, num_iter_max=BIG)
    with pytest.raises(ValueError, match="non-finite"):
        wasserstein2(np.array([[0.0, np.nan]]), x, num_iter_max=BIG)
    with pytest.raises(ValueError, match="num_iter_max"):
        wasserstein2(x, x, num_iter_max=0)
    rng = np.random.default_rng(4)
    with pytest.raises(WassersteinNotConvergedError, match=r"W2.*num_iter_max=1\b"):
        wasserstein2(rng.normal(size=(200, 2)), rng.normal(size=(200, 2)) + 1.0, num_iter_max=1)
