"""Rank-normalised R-hat and ESS (Vehtari et al. 2021) on chains with known answers."""

import numpy as np
import pytest

from geobayes.samplers import ReferenceChecks, describe_failures, evaluate_checks
from geobayes.samplers import diagnostics as diag

CHAINS, DRAWS, DIM = 4, 1000, 3


def _iid(seed=0):
    return np.random.default_rng(seed).normal(size=(CHAINS, DRAWS, DIM))


def _ar1(rho, seed=1, chains=CHAINS, draws=4000):
    """Stationary Gaussian AR(1) chains: integrated autocorrelation time (1+rho)/(1-rho)."""
    rng = np.random.default_rng(seed)
    eps = rng.normal(size=(chains, draws, 1)) * np.sqrt(1 - rho**2)
    x = np.empty_like(eps)
    x[:, 0] = rng.normal(size=(chains, 1))
    for t in range(1, draws):
        x[:, t] = rho * x[:, t - 1] + eps[:, t]
    return x


def test_iid_chains_rhat_near_one_and_ess_near_n():
    x = _iid()
    s = CHAINS * DRAWS
    for r in (diag.rhat_bulk(x), diag.rhat_folded(x), diag.rhat(x)):
        assert r.shape == (DIM,)
        # For iid draws R-hat - 1 is O(1/n) (sd about 5e-4 here); 0.01 is very generous.
        assert np.all(np.abs(r - 1.0) < 0.01), r
    for ess in (diag.ess_bulk(x), diag.ess_basic(x), diag.ess_tail(x)):
        assert ess.shape == (DIM,)
        assert np.all((ess > 0.5 * s) & (ess < 2.0 * s)), ess
    summary = diag.summarize(x)
    assert set(summary) == {"r_hat", "r_hat_bulk", "r_hat_folded", "ess_bulk", "ess_tail"}
    assert all(len(v) == DIM for v in summary.values())


def test_rhat_is_max_of_bulk_and_folded():
    x = _iid(3)
    np.testing.assert_array_equal(diag.rhat(x), np.maximum(diag.rhat_bulk(x), diag.rhat_folded(x)))


def test_ar1_ess_matches_autocorrelation_time():
    rho = 0.5
    x = _ar1(rho)
    expected = x.shape[0] * x.shape[1] * (1 - rho) / (1 + rho)
    for ess in (diag.ess_basic(x), diag.ess_bulk(x)):
        assert 0.75 * expected < ess[0] < 1.33 * expected, (ess, expected)


def test_shifted_chain_means_give_large_rhat_and_fail_the_check():
    x = _iid(2)
    x[-1] += 1.0  # one chain off by one posterior sd
    r = diag.rhat(x)
    assert np.all(r > 1.05), r
    diagnostics = {**diag.summarize(x), "divergences": 0}
    checks = evaluate_checks(diagnostics, ReferenceChecks())
    assert checks["r_hat_below_1.01"] is False
    assert checks["ess_bulk_above_400"] is False  # between-chain disagreement also kills ESS
    msgs = describe_failures(diagnostics, ReferenceChecks())
    assert any(m.startswith("r_hat_below_1.01 failed: max R-hat") for m in msgs)


def test_scale_difference_is_caught_by_folded_rhat():
    x = _iid(4)
    x[-1] *= 3.0  # same location, different scale: the bulk R-hat barely notices
    assert diag.rhat_folded(x).min() > 1.05
    assert np.all(diag.rhat(x) >= diag.rhat_folded(x))


def test_constant_parameter_gives_nan_and_fails():
    x = _iid(5)
    x[..., 1] = 2.0
    r = diag.rhat(x)
    assert np.isnan(r[1]) and np.isfinite(r[0])
    checks = evaluate_checks({**diag.summarize(x), "divergences": 0}, ReferenceChecks())
    assert checks["r_hat_below_1.01"] is False


@pytest.mark.parametrize(
    "bad, match",
    [
        (np.zeros((4, 10)), "shaped"),
        (np.zeros((4, 3, 2)), "at least 4 draws"),
        (np.full((2, 10, 1), np.nan), "non-finite"),
    ],
)
def test_bad_draws_raise(bad, match):
    with pytest.raises(ValueError, match=match):
        diag.rhat(bad)


def test_matches_arviz_on_awkward_chains():
    """Known answers computed with ArviZ (arviz_stats 0.8.0, ``array_stats.rhat/ess``) on
    the same draws: odd chain length, a skewed parameter, a shifted and a wider chain."""
    rng = np.random.default_rng(11)
    c, n, d = 4, 301, 3
    x = np.empty((c, n, d))
    x[:, 0] = rng.normal(size=(c, d))
    for t in range(1, n):
        x[:, t] = 0.7 * x[:, t - 1] + rng.normal(size=(c, d)) * np.sqrt(1 - 0.49)
    x[-1, :, 1] += 0.3
    x[-1, :, 2] *= 1.5
    x[..., 0] = np.exp(x[..., 0])
    arviz = {
        "rhat_bulk": [1.0333184, 1.01145562, 1.01738723],  # method="rank" (= max here)
        "rhat_folded": [1.00559959, 1.00554974, 1.00966393],
        "ess_bulk": [177.23833313, 174.01037632, 234.83987026],
        "ess_tail": [442.85630065, 209.07346913, 380.1710036],
        "ess_basic": [330.29495934, 171.07214857, 233.75142772],  # method="mean"
    }
    for name, expected in arviz.items():
        np.testing.assert_allclose(getattr(diag, name)(x), expected, rtol=1e-7, err_msg=name)
