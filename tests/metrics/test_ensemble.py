"""Ensemble LP, accuracy, 30-bin ECE and confidence of Yu et al. (2023), and cumulative curves."""

import numpy as np
import pytest
from scipy.special import log_softmax
from sklearn.metrics import accuracy_score, log_loss

from geobayes.metrics.calibration import _torch_linspace_float32, calibration_errors
from geobayes.metrics.ensemble import (
    cumulative_curves,
    ensemble_metrics,
    expected_calibration_error,
    init_running,
    split_by_epoch,
    update_running,
)


def _samples(S=7, n=50, C=4, seed=0, spread=3.0):
    rng = np.random.default_rng(seed)
    log_probs = log_softmax(spread * rng.normal(size=(S, n, C)), axis=-1)
    return log_probs, rng.integers(0, C, n)


def _loop_ece(probs, y, n_bins=30):
    """ECE by explicit bins [k/K, (k+1)/K), plus a bin for confidence == 1.0 (independent loop)."""
    conf, pred = probs.max(axis=1), probs.argmax(axis=1)
    total = 0.0
    for k in range(n_bins + 1):
        lower, upper = k / n_bins, (k + 1) / n_bins
        members = (conf >= lower) & (conf < upper) if k < n_bins else conf >= 1.0
        if members.any():
            total += members.sum() / conf.size * abs((pred[members] == y[members]).mean() - conf[members].mean())
    return total


def test_metrics_against_numpy_and_sklearn():
    log_probs, y = _samples()
    m = ensemble_metrics(log_probs, y)
    pbar = np.exp(log_probs).mean(axis=0)
    assert m.lp == pytest.approx(np.mean(np.log(pbar[np.arange(y.size), y])), rel=1e-13)
    assert m.lp == pytest.approx(-log_loss(y, pbar, labels=range(4)), rel=1e-12)
    assert m.accuracy == accuracy_score(y, pbar.argmax(axis=1))
    assert m.confidence == pytest.approx(pbar.max(axis=1).mean(), rel=1e-13)
    assert m.ece == pytest.approx(_loop_ece(pbar, y), rel=1e-12)
    assert m.n_samples == 7


def test_lp_is_stable_for_tiny_probabilities():
    # every sample puts probability e^-800 on the label: exp underflows, logsumexp does not
    n = 3
    log_probs = np.full((2, n, 2), 0.0)
    log_probs[..., 1] = -800.0
    log_probs[1, :, 1] = -801.0
    m = ensemble_metrics(log_probs, np.ones(n, dtype=int))
    assert m.lp == pytest.approx(np.logaddexp(-800.0, -801.0) - np.log(2), rel=1e-14)
    assert m.accuracy == 0.0


def test_ece_hand_example_and_edges():
    # two right points in the last bin [29/30, 1) and one wrong at exactly 1.0: an extra bin
    probs = np.array([[0.97, 0.03], [0.97, 0.03], [1.0, 0.0]])
    y = np.array([0, 0, 1])
    expected = 2 / 3 * abs(1.0 - 0.97) + 1 / 3 * abs(0.0 - 1.0)
    assert expected_calibration_error(probs, y) == pytest.approx(expected, rel=1e-12)
    # 1.0 in the last regular bin would give |2/3 - 0.98| instead
    assert abs(expected - abs(2 / 3 - (0.97 + 0.97 + 1.0) / 3)) > 0.03
    # a confidence exactly on an edge k/30 goes to the bin above: 0.5 joins 0.52, not 0.49
    probs = np.array([[0.5, 0.5], [0.52, 0.48], [0.49, 0.51]])
    y = np.array([0, 1, 0])
    edge_above = 2 / 3 * abs(0.5 - 0.51) + 1 / 3 * abs(0.0 - 0.51)
    assert expected_calibration_error(probs, y) == pytest.approx(edge_above, rel=1e-12)
    assert expected_calibration_error(probs, y) == pytest.approx(_loop_ece(probs, y), rel=1e-12)


def test_ece_differs_from_torchmetrics_binning_at_float32_edges():
    # uncertainty-metrics' float64 edge k/30 vs torchmetrics' float32 edge: a confidence just
    # below the float64 edge 21/30 lies in bin 20 here and (cast to float32) in bin 21 there.
    edge64 = np.histogram_bin_edges([], bins=30, range=(0.0, 1.0))[21]
    c = np.nextafter(edge64, 0.0)
    assert np.float32(c) >= _torch_linspace_float32(30)[21]
    rest = (1.0 - c) / 9
    probs = np.array([[c] + [rest] * 9, [0.71] + [0.29 / 9] * 9])
    y = np.array([0, 1])
    ours = expected_calibration_error(probs, y)
    assert ours == pytest.approx(0.5 * abs(1 - c) + 0.5 * 0.71, rel=1e-12)
    torchmetrics_rule = calibration_errors(probs, y, 30)[0] / 100
    assert torchmetrics_rule == pytest.approx(abs(0.5 - (c + 0.71) / 2), rel=1e-6)
    assert abs(ours - torchmetrics_rule) > 0.2


def test_cumulative_curves_equal_prefix_ensembles():
    log_probs, y = _samples(S=9)
    counts = [0, 0, 2, 3, 0, 4]
    curves = cumulative_curves(split_by_epoch(log_probs, counts), y)
    assert len(curves) == 6
    assert curves[0].n_samples == 0 and np.isnan(curves[1].lp) and np.isnan(curves[1].ece)
    for epoch, total in enumerate(np.cumsum(counts)):
        if total == 0:
            continue
        ref = ensemble_metrics(log_probs[:total], y)
        got = curves[epoch]
        assert got.n_samples == total
        np.testing.assert_allclose([got.lp, got.accuracy, got.ece, got.confidence],
                                   [ref.lp, ref.accuracy, ref.ece, ref.confidence], rtol=1e-12)


def test_running_state_is_a_logsumexp():
    log_probs, _ = _samples(S=5, n=3, C=3)
    state = init_running(3, 3)
    for s in range(5):
        state = update_running(state, log_probs[s:s + 1])
    np.testing.assert_allclose(state.log_sum, np.log(np.exp(log_probs).sum(axis=0)), rtol=1e-13)
    assert state.n_samples == 5
    assert update_running(state, log_probs[:0]) is state


def test_errors_name_the_argument():
    log_probs, y = _samples(S=2, n=4, C=3)
    bad = log_probs.copy()
    bad[1, 2, 0] = np.nan
    with pytest.raises(ValueError, match=r"log_probs must be log probabilities .*\[1, 2, 0\]"):
        ensemble_metrics(bad, y)
    with pytest.raises(ValueError, match="normalised"):
        ensemble_metrics(log_probs - 0.1, y)
    with pytest.raises(ValueError, match=r"shape \(S, n, C\)"):
        ensemble_metrics(log_probs[0], y)
    with pytest.raises(ValueError, match="no samples"):
        ensemble_metrics(log_probs[:0], y)
    with pytest.raises(ValueError, match=r"y must lie in \[0, 3\)"):
        ensemble_metrics(log_probs, np.array([0, 1, 2, 3]))
    with pytest.raises(ValueError, match="4 rows but y has 3"):
        ensemble_metrics(log_probs, y[:3])
    with pytest.raises(ValueError, match="n_bins must be an integer >= 1"):
        ensemble_metrics(log_probs, y, n_bins=0)
    with pytest.raises(ValueError, match=r"chunks\[1\] must have shape"):
        cumulative_curves([log_probs, log_probs[0]], y)
    with pytest.raises(ValueError, match="probs rows must sum to 1"):
        expected_calibration_error(np.array([[0.5, 0.6]]), [0])
    with pytest.raises(ValueError, match="samples_per_epoch"):
        split_by_epoch(log_probs, [1, 2])
