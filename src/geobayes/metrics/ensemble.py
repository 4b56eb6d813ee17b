"""Ensemble (sample-averaged) test metrics of Yu et al. (2023), Sec. 4.1, and their per-epoch curves.

From per-sample log probabilities ``log p(c | x_i, theta_s)`` (log-softmax outputs, shape
``(S, n, C)``) and labels ``y``, with the ensemble predictive
``pbar_ic = 1/S sum_s p(c | x_i, theta_s)`` (notes Secs. 3.2, 3.7):

* ``lp``: test log predictive ``1/n sum_i log pbar_{i y_i}``, computed as the code does,
  ``logsumexp_s log p(y_i | x_i, theta_s) - log S`` then the mean over points;
* ``accuracy``: of ``argmax_c pbar_ic`` (first maximiser on ties);
* ``ece``: google ``uncertainty-metrics`` ``ece(labels, pbar, num_bins=30)`` (the copy in
  bnn_priors' ``third_party/calibration_error.py``), see :func:`expected_calibration_error`;
* ``confidence``: ``1/n sum_i max_c pbar_ic`` (Table 10's average confidence).

Cumulative curves (notes Sec. 3.2 "Per-epoch curves", Sec. 8.4 item 10): after each epoch the
metrics of the ensemble of ALL samples saved so far. :class:`RunningEnsemble` keeps
``logsumexp_s log p(c | x_i, theta_s)`` and ``S`` and is updated with each new chunk of samples
(a running logsumexp), so a curve costs one pass over the samples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
from scipy.special import logsumexp

from geobayes.metrics.probability_inputs import checked_labels, checked_probabilities

__all__ = ["ECE_BINS", "EnsembleMetrics", "RunningEnsemble", "cumulative_curves", "ensemble_metrics",
           "expected_calibration_error", "init_running", "running_metrics", "split_by_epoch", "update_running"]

#: Bins of uncertainty-metrics' ``ece`` default, used by the code (notes Sec. 3.2).
ECE_BINS = 30

#: Largest allowed ``|logsumexp_c log p_c|`` of a per-sample log-probability row.
_LOG_NORMALISATION_ATOL = 1e-6


class EnsembleMetrics(NamedTuple):
    """Metrics of one ensemble: ``lp``, ``accuracy``, ``ece``, ``confidence`` and ``n_samples``."""

    lp: float
    accuracy: float
    ece: float
    confidence: float
    n_samples: int


class RunningEnsemble(NamedTuple):
    """A running ensemble: ``log_sum[i, c] = logsumexp_s log p(c | x_i, theta_s)`` (``-inf``
    before the first sample) and the number of samples ``n_samples``."""

    log_sum: np.ndarray
    n_samples: int


def _checked_log_probs(log_probs: Any, name: str = "log_probs") -> np.ndarray:
    lp = np.asarray(log_probs, dtype=np.float64)
    if lp.ndim != 3 or lp.shape[1] == 0 or lp.shape[2] < 2:
        raise ValueError(f"{name} must have shape (S, n, C) with n >= 1, C >= 2; got {lp.shape}")
    bad = np.isnan(lp) | (lp > 1e-9)
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must be log probabilities (<= 0, no NaN); {name}{list(first)} = {lp[first]!r}")
    unnormalised = np.abs(logsumexp(lp, axis=-1)) > _LOG_NORMALISATION_ATOL if lp.shape[0] else np.zeros(0, bool)
    if unnormalised.any():
        first = tuple(int(i) for i in np.argwhere(unnormalised)[0])
        raise ValueError(f"{name} rows must be normalised (logsumexp over classes = 0); "
                         f"row {list(first)} is not (log-softmax outputs expected)")
    return lp


def expected_calibration_error(probs: Any, y: Any, n_bins: int = ECE_BINS) -> float:
    """Top-label ECE with ``n_bins`` equal-width bins, as uncertainty-metrics' ``ece`` computes it.

    Yu et al. (2023), App. A.7, Eq. ``ECE = sum_k P(k) |o_k - e_k|`` (notes Secs. 3.2, 3.7), with
    ``gce(binning_scheme='even', max_prob=True, class_conditional=False, norm='l1')``:

    * confidence ``conf_i = max_c p_ic``, correct ``1[argmax_c p_ic = y_i]`` (first maximiser);
    * bin of ``conf`` = ``np.digitize(conf, upper)`` with the float64 upper edges
      ``np.histogram_bin_edges([], n_bins, (0, 1))[1:] = k/n_bins``: bins are ``[e_k, e_{k+1})``,
      a confidence exactly on an edge goes to the bin ABOVE, and ``conf = 1.0`` goes to an extra
      (n_bins + 1)-th bin of its own;
    * per bin ``|acc - conf|`` with counts ``+ eps`` (float64 machine epsilon) in the divisions,
      weighted by ``count / n`` (as the original, so empty bins give 0).

    Compared with :func:`geobayes.metrics.calibration.calibration_errors` (torchmetrics' rule, used
    for Bergamin et al.): same half-open bins and extra bin for 1.0, but there the edges are
    float32 ``torch.linspace`` values and confidences are cast to float32, so a confidence between
    the float32 and float64 value of an edge lands in different bins; and that function returns
    percent. Hence this separate routine.

    Parameters
    ----------
    probs : array_like, shape (n, C)
        Ensemble probabilities; rows sum to 1.
    y : array_like of int, shape (n,)
        Labels in ``[0, C)``.
    n_bins : int
        Number of bins (30 in the paper's code).

    Returns
    -------
    float
        The ECE as a fraction (not percent).
    """
    n_bins = _checked_bins(n_bins)
    p = checked_probabilities(probs)
    return _ece(p, checked_labels(y, p.shape[0], p.shape[1]), n_bins)


def _ece(p: np.ndarray, labels: np.ndarray, n_bins: int) -> float:
    predicted = np.argmax(p, axis=1)
    conf = p[np.arange(p.shape[0]), predicted]
    correct = (predicted == labels).astype(np.float64)
    upper = np.histogram_bin_edges([], bins=n_bins, range=(0.0, 1.0))[1:]
    bins = np.digitize(conf, upper)
    counts = np.bincount(bins, minlength=n_bins) + np.finfo(np.float64).eps
    gap = (np.bincount(bins, weights=correct, minlength=n_bins)
           - np.bincount(bins, weights=conf, minlength=n_bins)) / counts
    return float(np.sum(np.abs(gap * counts / conf.size)))


def init_running(n: int, n_classes: int) -> RunningEnsemble:
    """The empty ensemble over ``n`` points and ``n_classes`` classes."""
    if n < 1 or n_classes < 2:
        raise ValueError(f"init_running needs n >= 1 and n_classes >= 2, got n={n}, n_classes={n_classes}")
    return RunningEnsemble(np.full((int(n), int(n_classes)), -np.inf), 0)


def update_running(state: RunningEnsemble, log_probs: Any) -> RunningEnsemble:
    """Add the samples ``log_probs`` ``(S_new, n, C)`` (``S_new >= 0``) to ``state``."""
    lp = _checked_log_probs(log_probs)
    if lp.shape[1:] != state.log_sum.shape:
        raise ValueError(f"log_probs has points x classes {lp.shape[1:]}, the ensemble {state.log_sum.shape}")
    if lp.shape[0] == 0:
        return state
    stacked = np.concatenate([state.log_sum[None], lp], axis=0)
    return RunningEnsemble(logsumexp(stacked, axis=0), state.n_samples + lp.shape[0])


def running_metrics(state: RunningEnsemble, y: Any, n_bins: int = ECE_BINS) -> EnsembleMetrics:
    """The metrics of the ensemble accumulated in ``state`` (all-NaN before its first sample)."""
    n, n_classes = state.log_sum.shape
    return _metrics_of(state, checked_labels(y, n, n_classes, "ensemble"), _checked_bins(n_bins))


def _metrics_of(state: RunningEnsemble, labels: np.ndarray, n_bins: int) -> EnsembleMetrics:
    if state.n_samples == 0:
        return EnsembleMetrics(np.nan, np.nan, np.nan, np.nan, 0)
    log_mean = state.log_sum - np.log(state.n_samples)
    lp = float(np.mean(log_mean[np.arange(labels.size), labels]))
    probs = np.exp(log_mean)  # rows sum to 1 up to rounding; a max may exceed 1.0 by an ulp
    accuracy = float(np.mean(np.argmax(probs, axis=1) == labels))
    ece = _ece(probs, labels, n_bins)
    return EnsembleMetrics(lp, accuracy, ece, float(np.mean(probs.max(axis=1))), state.n_samples)


def _checked_bins(n_bins: Any) -> int:
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"n_bins must be an integer >= 1; got {n_bins!r}")
    return int(n_bins)


def ensemble_metrics(log_probs: Any, y: Any, n_bins: int = ECE_BINS) -> EnsembleMetrics:
    """LP, accuracy, ECE and average confidence of the ensemble of all ``S`` samples.

    Parameters
    ----------
    log_probs : array_like, shape (S, n, C)
        Per-sample log-softmax outputs ``log p(c | x_i, theta_s)``, ``S >= 1``.
    y : array_like of int, shape (n,)
        Labels in ``[0, C)``.
    n_bins : int, optional
        ECE bins (30).

    Raises
    ------
    ValueError
        If ``log_probs`` is not ``(S, n, C)`` with ``S >= 1``, holds NaN or positive values or
        unnormalised rows, or ``y`` is not ``(n,)`` integer labels in range.
    """
    n_bins = _checked_bins(n_bins)
    lp = _checked_log_probs(log_probs)
    if lp.shape[0] == 0:
        raise ValueError("log_probs holds no samples (S = 0)")
    labels = checked_labels(y, lp.shape[1], lp.shape[2], "log_probs")
    return _metrics_of(update_running(init_running(*lp.shape[1:]), lp), labels, n_bins)


def cumulative_curves(chunks: Iterable[Any], y: Any, n_bins: int = ECE_BINS) -> list[EnsembleMetrics]:
    """Metrics after each epoch of the ensemble of all samples saved so far (notes Sec. 3.2).

    Parameters
    ----------
    chunks : iterable of array_like, each (S_e, n, C)
        The samples saved in epoch ``e = 1, 2, ...`` (``S_e`` may be 0, e.g. during burn-in).
    y : array_like of int, shape (n,)
        Labels.
    n_bins : int, optional
        ECE bins (30).

    Returns
    -------
    list of EnsembleMetrics
        One per epoch; all-NaN metrics (``n_samples = 0``) until the first sample (the code
        reports nothing there; NaN keeps the epoch axis aligned).
    """
    n_bins = _checked_bins(n_bins)
    state, labels, curves = None, None, []
    for e, chunk in enumerate(chunks):
        lp = _checked_log_probs(chunk, f"chunks[{e}]")
        if state is None:
            state = init_running(*lp.shape[1:])
            labels = checked_labels(y, lp.shape[1], lp.shape[2], f"chunks[{e}]")
        state = update_running(state, lp)
        curves.append(_metrics_of(state, labels, n_bins))
    return curves


def split_by_epoch(log_probs: Any, samples_per_epoch: Sequence[int]) -> list[np.ndarray]:
    """Cut ``(S, n, C)`` samples into per-epoch chunks of ``samples_per_epoch[e]`` samples."""
    lp = np.asarray(log_probs)
    counts = np.asarray(samples_per_epoch)
    if counts.ndim != 1 or (counts < 0).any() or counts.sum() != lp.shape[0]:
        raise ValueError(f"samples_per_epoch must be counts >= 0 summing to S = {lp.shape[0]}, got {list(counts)}")
    return np.split(lp, np.cumsum(counts)[:-1])
