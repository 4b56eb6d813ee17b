"""Tests of geobayes.metrics.classification: Bergamin et al. (2023) metrics against their references.

References (installed versions): scikit-learn 1.9 ``accuracy_score``, ``log_loss``,
``mean_squared_error``, ``roc_auc_score``; torchmetrics 1.9 ``multiclass_calibration_error``.
torch/torchmetrics are not dependencies of geobayes, so the tests that need them skip without them.
"""

import subprocess
import sys

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, log_loss, mean_squared_error, roc_auc_score

from geobayes.metrics.calibration import _torch_linspace_float32
from geobayes.metrics.classification import (
    accuracy,
    brier_score,
    calibration_errors,
    classification_metrics,
    mean_predictive,
    negative_log_likelihood,
    ood_auroc,
)

CASES = [(c, n, seed) for seed, (c, n) in enumerate([(2, 50), (2, 500), (3, 120), (3, 499), (10, 300), (10, 500)])]


def _random_case(n_classes, n, seed, alpha=None):
    """Dirichlet probabilities (sharp or flat) and labels drawn partly from them, partly uniform."""
    rng = np.random.default_rng(seed)
    alpha = rng.choice([0.2, 1.0]) if alpha is None else alpha
    probs = rng.dirichlet(np.full(n_classes, alpha), size=n)
    from_probs = np.array([rng.choice(n_classes, p=p) for p in probs])
    y = np.where(rng.random(n) < 0.7, from_probs, rng.integers(0, n_classes, size=n))
    return probs, y


def _torchmetrics_ce(probs, y, n_bins, norm):
    torch = pytest.importorskip("torch")
    tmc = pytest.importorskip("torchmetrics.functional.classification")
    value = tmc.multiclass_calibration_error(
        torch.from_numpy(np.asarray(probs, dtype=np.float64)),
        torch.from_numpy(np.asarray(y, dtype=np.int64)),
        num_classes=np.shape(probs)[1],
        n_bins=n_bins,
        norm=norm,
    )
    return float(value) * 100.0


def _assert_matches_torchmetrics(probs, y, n_bins):
    ece, mce = calibration_errors(probs, y, n_bins)
    # torchmetrics averages in float32; we average in float64 (same bins): agree to float32 rounding.
    assert ece == pytest.approx(_torchmetrics_ce(probs, y, n_bins, "l1"), abs=1e-4)
    assert mce == pytest.approx(_torchmetrics_ce(probs, y, n_bins, "max"), abs=1e-4)


def _rows_with_max(maxima, n_classes, rng):
    """Probability rows whose maximum is exactly ``m`` (rest spread evenly), max at a random class."""
    rows = []
    for m in maxima:
        row = np.full(n_classes, (1.0 - m) / (n_classes - 1))
        row[rng.integers(n_classes)] = m
        rows.append(row)
    return np.array(rows)


# --------------------------------------------------------------------------- mean_predictive


def test_mean_predictive_averages_probabilities_over_samples():
    rng = np.random.default_rng(0)
    samples = rng.dirichlet(np.ones(4), size=(7, 30))
    out = mean_predictive(samples)
    assert out.shape == (30, 4) and out.dtype == np.float64
    np.testing.assert_allclose(out, sum(samples[s] for s in range(7)) / 7, rtol=1e-14)
    np.testing.assert_array_equal(mean_predictive(samples[:1]), samples[0])


# --------------------------------------------------------------------------- accuracy, NLL, Brier


@pytest.mark.parametrize("n_classes,n,seed", CASES)
def test_accuracy_nll_brier_match_sklearn(n_classes, n, seed):
    probs, y = _random_case(n_classes, n, seed)
    assert accuracy(probs, y) == pytest.approx(100.0 * accuracy_score(y, probs.argmax(axis=1)), rel=1e-15)
    assert negative_log_likelihood(probs, y) == pytest.approx(
        log_loss(y, probs, labels=range(n_classes)), rel=1e-13
    )
    onehot = np.eye(n_classes)[y]
    assert brier_score(probs, y) == pytest.approx(mean_squared_error(onehot, probs), rel=1e-13)
    # ... which is the usual multi-class Brier score divided by C (notes Sec. 2.8).
    usual = np.mean(np.sum((probs - onehot) ** 2, axis=1))
    assert brier_score(probs, y) == pytest.approx(usual / n_classes, rel=1e-12)


def test_accuracy_breaks_ties_towards_the_first_class():
    probs = np.array([[0.5, 0.5], [0.5, 0.5]])
    assert accuracy(probs, [0, 0]) == 100.0
    assert accuracy(probs, [1, 1]) == 0.0
    tied = np.array([[0.2, 0.4, 0.4], [0.4, 0.4, 0.2]])
    assert accuracy(tied, [1, 0]) == 100.0
    assert accuracy(tied, [2, 1]) == 0.0


def test_nll_clips_a_zero_true_class_probability_like_sklearn():
    probs = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.2, 0.3, 0.5], [0.0, 0.0, 1.0]])
    y = np.array([1, 1, 2, 2])  # row 0: true class has probability exactly 0
    expected = log_loss(y, probs, labels=range(3))
    assert negative_log_likelihood(probs, y) == pytest.approx(expected, rel=1e-14)
    eps = np.finfo(np.float64).eps
    by_hand = (-np.log(eps) - np.log(1 - eps) - np.log(0.5) - np.log(1 - eps)) / 4
    assert negative_log_likelihood(probs, y) == pytest.approx(by_hand, rel=1e-14)
    assert np.isfinite(negative_log_likelihood(probs, y))


def test_nll_with_absent_classes_and_binary_labels_matches_sklearn():
    # Only classes 0 and 3 occur in y: labels=range(C) must still give C columns.
    probs, _ = _random_case(4, 60, 11)
    y = np.where(np.arange(60) % 2 == 0, 0, 3)
    assert negative_log_likelihood(probs, y) == pytest.approx(log_loss(y, probs, labels=range(4)), rel=1e-13)
    # Integral float labels are accepted and mean the same classes.
    assert negative_log_likelihood(probs, y.astype(float)) == negative_log_likelihood(probs, y)


# --------------------------------------------------------------------------- calibration


def test_float32_bin_edges_are_torch_linspace_bit_for_bit():
    torch = pytest.importorskip("torch")
    for n_bins in [*range(1, 301), 512, 1000, 4096]:
        expected = torch.linspace(0, 1, n_bins + 1, dtype=torch.float32).numpy()
        np.testing.assert_array_equal(_torch_linspace_float32(n_bins), expected, err_msg=f"n_bins={n_bins}")


@pytest.mark.parametrize("n_classes,n,seed", CASES)
@pytest.mark.parametrize("n_bins", [1, 10, 15])
def test_calibration_matches_torchmetrics_on_random_probabilities(n_classes, n, seed, n_bins):
    probs, y = _random_case(n_classes, n, seed)
    _assert_matches_torchmetrics(probs, y, n_bins)


@pytest.mark.parametrize("n_classes,n,seed", CASES)
def test_calibration_equals_torchmetrics_binning_routine_run_in_float64(n_classes, n, seed):
    # torchmetrics' own routine (_ce_compute) on float64 confidences with the float64 values of
    # its float32 edges: the same algorithm without the float32 accumulation. Flat Dirichlet, so
    # no confidence is within float32 rounding of an edge (asserted), where float32 and float64
    # bucketising could differ.
    torch = pytest.importorskip("torch")
    ce_module = pytest.importorskip("torchmetrics.functional.classification.calibration_error")
    probs, y = _random_case(n_classes, n, seed, alpha=1.0)
    edges = _torch_linspace_float32(15)
    conf = probs.max(axis=1)
    assert not np.isin(conf.astype(np.float32), edges).any()
    correct = torch.from_numpy((probs.argmax(axis=1) == y).astype(np.float64))
    boundaries = torch.from_numpy(edges.astype(np.float64))
    ece, mce = calibration_errors(probs, y, 15)
    expected_ece = 100.0 * float(ce_module._ce_compute(torch.from_numpy(conf), correct, boundaries, "l1"))
    expected_mce = 100.0 * float(ce_module._ce_compute(torch.from_numpy(conf), correct, boundaries, "max"))
    assert ece == pytest.approx(expected_ece, rel=1e-12, abs=1e-12)
    assert mce == pytest.approx(expected_mce, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("n_classes", [2, 3, 10])
@pytest.mark.parametrize("n_bins", [2, 3, 5, 7, 10, 15, 20, 100])
def test_calibration_matches_torchmetrics_with_confidences_on_bin_edges(n_classes, n_bins):
    rng = np.random.default_rng(100 * n_classes + n_bins)
    edges = [k / n_bins for k in range(n_bins + 1)] + [0.1 * k for k in range(11)] + [0.5, 0.7, 1.0]
    near = [e + d for e in (0.5, 0.7, 0.3, 0.9) for d in (-1e-12, 1e-12, -3e-8, 3e-8)]
    maxima = [m for m in edges + near + [1.0 - 1e-12] if 1.0 / n_classes <= m <= 1.0]
    # Every confidence several times with different labels, so bin membership changes the result.
    probs = _rows_with_max(np.repeat(maxima, 3), n_classes, rng)
    y = rng.integers(0, n_classes, size=len(probs))
    y[::3] = probs[::3].argmax(axis=1)
    _assert_matches_torchmetrics(probs, y, n_bins)


def test_confidence_on_an_interior_edge_goes_to_the_upper_bin():
    # 10 bins. 0.7 sits on the float32 edge 0.7f (numpy's float64 edge is 0.70000000000000007, which
    # would put it in [0.6, 0.7)); torch bucketize(right=True) puts it in [0.7, 0.8), away from 0.65.
    probs = np.array([[0.3, 0.7], [0.35, 0.65]])
    y = np.array([1, 0])  # 0.7 correct, 0.65 wrong
    ece, mce = calibration_errors(probs, y, 10)
    assert ece == pytest.approx(100 * (0.3 + 0.65) / 2, abs=1e-12)  # separate bins
    assert mce == pytest.approx(65.0, abs=1e-12)
    # A float64 confidence just below 0.7 that rounds to 0.7f is binned as 0.7 (as torch does).
    probs_below = np.array([[0.3 + 1e-12, 0.7 - 1e-12], [0.35, 0.65]])
    assert calibration_errors(probs_below, y, 10)[1] == pytest.approx(65.0, abs=1e-9)
    # A confidence clearly below the edge shares the bin with 0.65: acc 0.5, conf 0.675.
    probs_low = np.array([[0.31, 0.69], [0.35, 0.65]])
    assert calibration_errors(probs_low, y, 10) == pytest.approx((100 * 0.17, 100 * 0.17), abs=1e-12)
    _assert_matches_torchmetrics(probs, y, 10)
    _assert_matches_torchmetrics(probs_below, y, 10)


def test_confidence_one_gets_its_own_bin():
    # Confidence 1.0 (wrong) and 0.95 (right): torchmetrics keeps 1.0 out of [0.9, 1.0).
    probs = np.array([[1.0, 0.0], [0.95, 0.05]])
    y = np.array([1, 0])
    ece, mce = calibration_errors(probs, y, 10)
    assert ece == pytest.approx(100 * (1.0 + 0.05) / 2, abs=1e-12)
    assert mce == pytest.approx(100.0, abs=1e-12)
    _assert_matches_torchmetrics(probs, y, 10)


def test_calibration_of_a_perfectly_calibrated_toy_is_zero():
    # Per bin (10 bins), accuracy equals mean confidence exactly.
    rows = [[0.25, 0.75]] * 4 + [[1.0, 0.0]] * 5 + [[0.45, 0.55]] * 20 + [[0.1, 0.9]] * 10
    labels = [1, 1, 1, 0] + [0] * 5 + [1] * 11 + [0] * 9 + [1] * 9 + [0]
    probs, y = np.array(rows), np.array(labels)
    ece, mce = calibration_errors(probs, y, 10)
    assert ece == pytest.approx(0.0, abs=1e-12)
    assert mce == pytest.approx(0.0, abs=1e-12)
    _assert_matches_torchmetrics(probs, y, 10)


def test_calibration_hand_computed_four_points():
    probs = np.array(
        [
            [0.65, 0.20, 0.15],  # conf 0.65, correct  -> bin [0.6, 0.7)
            [0.63, 0.30, 0.07],  # conf 0.63, wrong    -> bin [0.6, 0.7)
            [0.02, 0.03, 0.95],  # conf 0.95, correct  -> bin [0.9, 1.0)
            [0.10, 0.85, 0.05],  # conf 0.85, wrong    -> bin [0.8, 0.9)
        ]
    )
    y = np.array([0, 1, 2, 0])
    # |0.5 - 0.64| * 2/4 + |1 - 0.95| * 1/4 + |0 - 0.85| * 1/4 = 0.07 + 0.0125 + 0.2125
    ece, mce = calibration_errors(probs, y, 10)
    assert ece == pytest.approx(29.5, abs=1e-12)
    assert mce == pytest.approx(85.0, abs=1e-12)
    _assert_matches_torchmetrics(probs, y, 10)
    # One bin: |mean acc - mean conf| = |0.5 - 0.77| (no confidence equals 1.0).
    assert calibration_errors(probs, y, 1) == pytest.approx((27.0, 27.0), abs=1e-12)


# --------------------------------------------------------------------------- OOD AUROC


def _sklearn_auroc(probs_in, probs_out):
    scores = np.concatenate([probs_in.max(axis=1), probs_out.max(axis=1)])
    labels = np.concatenate([np.ones(len(probs_in)), np.zeros(len(probs_out))])
    return roc_auc_score(labels, scores)


@pytest.mark.parametrize("n_classes,n,seed", CASES)
def test_ood_auroc_matches_sklearn(n_classes, n, seed):
    probs_in, _ = _random_case(n_classes, n, seed, alpha=0.3)
    probs_out, _ = _random_case(n_classes, n // 2 + 7, seed + 1000, alpha=1.0)
    auc = ood_auroc(probs_in, probs_out)
    assert auc == pytest.approx(_sklearn_auroc(probs_in, probs_out), abs=1e-14)
    assert 0.5 < auc < 1.0  # sharper in-distribution predictive scores higher


@pytest.mark.parametrize("n_classes", [2, 3, 10])
def test_ood_auroc_with_tied_scores_matches_sklearn(n_classes):
    rng = np.random.default_rng(n_classes)
    levels = [m for m in (0.5, 0.6, 0.7, 0.9, 1.0) if m >= 1.0 / n_classes]
    probs_in = _rows_with_max(rng.choice(levels, size=200, p=None), n_classes, rng)
    probs_out = _rows_with_max(rng.choice(levels[:3], size=90), n_classes, rng)
    auc = ood_auroc(probs_in, probs_out)
    assert auc == pytest.approx(_sklearn_auroc(probs_in, probs_out), abs=1e-14)


def test_ood_auroc_extremes():
    sharp = np.array([[0.9, 0.1], [0.05, 0.95]])
    flat = np.array([[0.5, 0.5], [0.6, 0.4], [0.45, 0.55]])
    assert ood_auroc(sharp, flat) == 1.0
    assert ood_auroc(flat, sharp) == 0.0
    assert ood_auroc(flat, flat) == 0.5  # all ties count one half


# --------------------------------------------------------------------------- bundle, imports


def test_classification_metrics_bundles_the_individual_metrics():
    probs, y = _random_case(10, 300, 5)
    out = classification_metrics(probs, y, n_bins=15)
    assert set(out) == {"accuracy", "nll", "brier", "ece", "mce"}
    assert all(type(v) is float for v in out.values())
    ece, mce = calibration_errors(probs, y, 15)
    assert out == {
        "accuracy": accuracy(probs, y),
        "nll": negative_log_likelihood(probs, y),
        "brier": brier_score(probs, y),
        "ece": ece,
        "mce": mce,
    }


def test_module_imports_only_numpy():
    code = (
        "import sys, geobayes.metrics.classification\n"
        "print(','.join(m for m in ('jax', 'sklearn', 'torch', 'torchmetrics', 'scipy', 'pandas') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# --------------------------------------------------------------------------- input validation

GOOD = np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]])
GOOD_Y = np.array([1, 0, 0])
NAN = GOOD.copy()
NAN[1, 0] = np.nan
NAN[2, 1] = np.inf
NEG = np.array([[0.2, 0.8], [1.1, -0.1], [0.5, 0.5]])
ABOVE = np.array([[0.2, 0.8], [1.0 + 5e-7, 0.0], [0.5, 0.5]])
UNNORM = np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.4]])


@pytest.mark.parametrize(
    "probs,y,match",
    [
        (GOOD[0], GOOD_Y, r"probs must be a 2-D array of shape \(N, C\); got shape \(2,\)"),
        (GOOD[None], GOOD_Y, r"probs must be a 2-D array .* got shape \(1, 3, 2\)"),
        (np.zeros((0, 2)), [], r"probs is empty \(shape \(0, 2\)\)"),
        (np.ones((3, 1)), GOOD_Y, r"at least 2 columns \(classes\); got shape \(3, 1\)"),
        (NAN, GOOD_Y, r"probs has 2 non-finite entries \(NaN or inf\); the first is probs\[1, 0\]"),
        (NEG, GOOD_Y, r"probs has 1 negative probabilities; the first is probs\[1, 1\] = -0\.1"),
        (ABOVE, GOOD_Y, r"probs has 1 probabilities greater than 1; the first is probs\[1, 0\]"),
        (UNNORM, GOOD_Y, r"probs rows must sum to 1 within 1e-06; 1 do not, the first is row 2 with sum 0\.9"),
        (GOOD.astype(bool), GOOD_Y, r"probs must be a real numeric array of probabilities; got dtype bool"),
        (GOOD, [1, 0, 0.5], r"y must hold integer class labels; 1 are not, the first is y\[2\] = 0\.5"),
        (GOOD, ["a", "b", "c"], r"y must hold integer class labels; got dtype <U1"),
        (GOOD, [True, False, True], r"y must hold integer class labels; got dtype bool"),
        (GOOD, [1, 2, 0], r"y must lie in \[0, 2\) for 2 classes; 1 labels do not, the first is y\[1\] = 2"),
        (GOOD, [1, 0, -1], r"y must lie in \[0, 2\) .* the first is y\[2\] = -1"),
        (GOOD, [[1, 0, 0]], r"y must be a 1-D array of integer class labels; got shape \(1, 3\)"),
        (GOOD, [1, 0], r"probs has 3 rows but y has 2 labels"),
    ],
)
@pytest.mark.parametrize(
    "metric",
    [
        accuracy,
        negative_log_likelihood,
        brier_score,
        lambda p, y: calibration_errors(p, y, 10),
        lambda p, y: classification_metrics(p, y, n_bins=10),
    ],
    ids=["accuracy", "nll", "brier", "calibration", "bundle"],
)
def test_bad_inputs_raise_one_line_errors(metric, probs, y, match):
    with pytest.raises(ValueError, match=match) as info:
        metric(probs, y)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("n_bins", [0, -3, 2.5, True, "10"])
def test_bad_n_bins_raises(n_bins):
    with pytest.raises(ValueError, match=r"n_bins must be an integer >= 1; got"):
        calibration_errors(GOOD, GOOD_Y, n_bins)
    with pytest.raises(ValueError, match=r"n_bins must be an integer >= 1; got"):
        classification_metrics(GOOD, GOOD_Y, n_bins=n_bins)


def test_mean_predictive_rejects_bad_samples():
    samples = np.stack([GOOD, GOOD])
    with pytest.raises(ValueError, match=r"prob_samples holds no samples \(shape \(0, 3, 2\)\); need S >= 1"):
        mean_predictive(samples[:0])
    with pytest.raises(ValueError, match=r"prob_samples must be a 3-D array of shape \(S, N, C\); got shape \(3, 2\)"):
        mean_predictive(GOOD)
    bad = samples.copy()
    bad[1, 2] = [0.5, 0.6]
    with pytest.raises(ValueError, match=r"1 do not, the first is prob_samples\[1, 2, :\] with sum 1\.1"):
        mean_predictive(bad)
    bad[1, 2] = [np.nan, 0.5]
    with pytest.raises(ValueError, match=r"prob_samples has 1 non-finite entries .* prob_samples\[1, 2, 0\]"):
        mean_predictive(bad)


def test_ood_auroc_rejects_bad_inputs():
    with pytest.raises(ValueError, match=r"probs_in has 2 classes but probs_out has 3"):
        ood_auroc(GOOD, np.full((4, 3), 1 / 3))
    with pytest.raises(ValueError, match=r"probs_out is empty \(shape \(0, 2\)\)"):
        ood_auroc(GOOD, np.zeros((0, 2)))
    with pytest.raises(ValueError, match=r"probs_in has 1 negative probabilities"):
        ood_auroc(NEG, GOOD)
    with pytest.raises(ValueError, match=r"probs_out rows must sum to 1 .* row 2 with sum 0\.9"):
        ood_auroc(GOOD, UNNORM)
