"""Classification metrics of Bergamin et al. (2023), computed as the authors' code computes them.

Bergamin, Moreno-Munoz, Hauberg & Arvanitidis (2023), "Riemannian Laplace approximations for
Bayesian neural networks", NeurIPS. The in-distribution metrics are those of Sec. 5.2 (Tables 1-3)
and App. D (Tables 4-8); the OOD AUROC is that of App. D.6 (Tables 9-10). The precise definitions,
taken from the authors' code, are Sec. 2.8 of ``shared/papers/notes/bergamin2023-riemannian-laplace-bnn.md``.

Every function takes MC-averaged predictive probabilities
:math:`\\bar p_n = \\frac1S \\sum_s p(\\cdot \\mid x_n, \\theta_s)` (see :func:`mean_predictive`),
an array ``probs`` of shape ``(N, C)`` whose rows sum to 1, and integer labels ``y`` in
``[0, C)``. Each metric reproduces one reference implementation (installed versions:
scikit-learn 1.9, torchmetrics 1.9):

* :func:`accuracy` -- ``100 * mean(argmax(probs) == y)``, percent (authors' ``utils/metrics``);
* :func:`negative_log_likelihood` -- ``sklearn.metrics.log_loss(y, probs, labels=range(C))``;
* :func:`brier_score` -- ``sklearn.metrics.mean_squared_error(onehot(y), probs)`` (divided by C);
* :func:`calibration_errors` -- ``torchmetrics.functional.classification.multiclass_calibration_error``
  with ``norm='l1'`` (ECE) and ``norm='max'`` (MCE), times 100;
* :func:`ood_auroc` -- ``sklearn.metrics.roc_auc_score`` of the max predictive probability,
  in-distribution positive;
* :func:`classification_metrics` -- the in-distribution ones together.

This module imports only NumPy (the pipeline's report jobs must stay light: no JAX, scikit-learn
or torch). Everything is computed in float64; the one place where a reference's float32
arithmetic changes a *discrete* outcome -- which calibration bin a confidence falls into -- is
reproduced exactly (see :func:`calibration_errors`).

Every public function validates its inputs and raises :class:`ValueError` with a one-line
message naming the problem (shape, non-finite or out-of-range entries, rows that do not sum to
1, bad labels, length mismatch, bad ``n_bins``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from geobayes.metrics.calibration import _calibration, calibration_errors
from geobayes.metrics.probability_inputs import (ROW_SUM_ATOL, checked_bin_count, checked_labels,
                                                 checked_probabilities, probability_array)

__all__ = [
    "ROW_SUM_ATOL",
    "mean_predictive",
    "accuracy",
    "negative_log_likelihood",
    "brier_score",
    "calibration_errors",
    "ood_auroc",
    "classification_metrics",
]


# scikit-learn's log_loss clips to [eps, 1 - eps] with eps the machine epsilon of the input's
# dtype; our probabilities are float64.
_LOG_LOSS_EPS = float(np.finfo(np.float64).eps)


def mean_predictive(prob_samples: Any) -> np.ndarray:
    """MC average of per-sample predictive probabilities.

    :math:`\\bar p_n = \\frac1S\\sum_s p(\\cdot\\mid x_n,\\theta_s)`.

    Bergamin et al. (2023), Sec. 5.2 and App. D: every classification metric is computed from the
    predictive averaged over the ``S`` posterior samples (30 for UCI, 25 for MNIST/FashionMNIST,
    100 for banana; notes Sec. 2.8), i.e. the probabilities are averaged, not the logits.

    Parameters
    ----------
    prob_samples : array_like, shape (S, N, C)
        Softmax probabilities of ``S >= 1`` posterior samples at ``N`` inputs; every
        ``prob_samples[s, n]`` must sum to 1 within :data:`ROW_SUM_ATOL`.

    Returns
    -------
    numpy.ndarray, shape (N, C)
        The float64 mean over the first axis.

    Raises
    ------
    ValueError
        If the array is not 3-D, is empty, holds non-finite, negative or > 1 entries, or has a
        probability vector that does not sum to 1.
    """
    arr = np.asarray(prob_samples)
    if arr.ndim == 3 and arr.shape[0] == 0:
        raise ValueError(f"prob_samples holds no samples (shape {arr.shape}); need S >= 1")
    arr = probability_array("prob_samples", arr, 3, "(S, N, C)")
    return arr.mean(axis=0)


def _accuracy(probs: np.ndarray, y: np.ndarray) -> float:
    return 100.0 * float(np.mean(probs.argmax(axis=1) == y))


def accuracy(probs: Any, y: Any) -> float:
    """Classification accuracy in percent, :math:`100\\cdot\\frac1N\\sum_n 1[\\arg\\max_c \\bar p_{nc} = y_n]`.

    Bergamin et al. (2023), Sec. 5.2, Tables 1-8 ("Accuracy"); the authors' ``utils/metrics.accuracy``
    (notes Sec. 2.8). Equals ``100 * sklearn.metrics.accuracy_score(y, probs.argmax(1))`` exactly.
    Ties in the maximum go to the first (lowest) class, as ``numpy.argmax`` and ``torch.max``
    both do.

    Parameters
    ----------
    probs : array_like, shape (N, C)
        MC-averaged predictive probabilities; rows sum to 1.
    y : array_like of int, shape (N,)
        True labels in ``[0, C)``.

    Returns
    -------
    float
        Accuracy in percent, in ``[0, 100]``.
    """
    p = checked_probabilities(probs)
    return _accuracy(p, checked_labels(y, p.shape[0], p.shape[1]))


def _nll(probs: np.ndarray, y: np.ndarray) -> float:
    p_true = probs[np.arange(probs.shape[0]), y]
    return float(np.mean(-np.log(np.clip(p_true, _LOG_LOSS_EPS, 1.0 - _LOG_LOSS_EPS))))


def negative_log_likelihood(probs: Any, y: Any) -> float:
    """Mean negative log predictive probability of the true class, as scikit-learn's ``log_loss``.

    Bergamin et al. (2023), Sec. 5.2, Tables 2-8 ("NLL"); the authors compute
    ``sklearn.metrics.log_loss(y, probs)`` (notes Sec. 2.8):

    .. math:: \\mathrm{NLL} = -\\frac1N \\sum_n
              \\log \\operatorname{clip}(\\bar p_{n,y_n}, \\varepsilon, 1-\\varepsilon),
              \\qquad \\varepsilon = 2^{-52}\\ \\text{(float64 machine epsilon)}.

    This is what the installed scikit-learn 1.9 ``log_loss(y, probs, labels=range(C))`` computes
    for float64 input: it clips every probability to ``[eps, 1 - eps]`` and does **not**
    renormalise the rows. A true-class probability of exactly 0 therefore contributes
    ``-log(2**-52) ~ 36.04`` instead of infinity. Matches ``log_loss`` to ~1e-15 relative.

    The scikit-learn version of the authors' runs is not recorded. Older releases clipped to
    ``1e-15`` (before 1.2; a zero then contributes ``~34.54``) and renormalised the clipped rows;
    both differences matter only for true-class probabilities below ~1e-15 (renormalising rows
    that already sum to 1 within 1e-6 changes the NLL by at most ~1e-6 relative).

    Parameters
    ----------
    probs : array_like, shape (N, C)
        MC-averaged predictive probabilities; rows sum to 1.
    y : array_like of int, shape (N,)
        True labels in ``[0, C)``.

    Returns
    -------
    float
        The mean NLL in nats.
    """
    p = checked_probabilities(probs)
    return _nll(p, checked_labels(y, p.shape[0], p.shape[1]))


def _brier(probs: np.ndarray, y: np.ndarray) -> float:
    onehot = np.zeros_like(probs)
    onehot[np.arange(probs.shape[0]), y] = 1.0
    return float(np.mean((onehot - probs) ** 2))


def brier_score(probs: Any, y: Any) -> float:
    """Brier score as the authors compute it: the mean squared error over all N*C entries.

    Bergamin et al. (2023), Sec. 5.2, Tables 2-8 ("Brier"); the authors' code calls
    ``sklearn.metrics.mean_squared_error(onehot(y), probs)`` (notes Sec. 2.8):

    .. math:: \\mathrm{Brier} = \\frac{1}{N C}\\sum_n\\sum_c (\\bar p_{nc} - 1[y_n = c])^2,

    i.e. the usual multi-class Brier score **divided by C** (MNIST values ~0.0075, not ~0.075).
    Matches ``mean_squared_error`` to ~1e-15 relative.

    Parameters
    ----------
    probs : array_like, shape (N, C)
        MC-averaged predictive probabilities; rows sum to 1.
    y : array_like of int, shape (N,)
        True labels in ``[0, C)``.

    Returns
    -------
    float
        The Brier score, in ``[0, 2 / C]``.
    """
    p = checked_probabilities(probs)
    return _brier(p, checked_labels(y, p.shape[0], p.shape[1]))


def _auroc(pos: np.ndarray, neg: np.ndarray) -> float:
    """Mann-Whitney AUROC, P(pos > neg) + P(pos == neg) / 2, with tied scores given averaged ranks."""
    scores = np.concatenate([pos, neg])
    n = scores.shape[0]
    order = np.argsort(scores, kind="mergesort")
    ordered = scores[order]
    starts = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
    counts = np.diff(np.concatenate([starts, [n]]))
    ranks = np.empty(n)
    ranks[order] = np.repeat(starts + (counts + 1) / 2.0, counts)  # 1-based average ranks
    n_pos, n_neg = pos.shape[0], neg.shape[0]
    u = ranks[:n_pos].sum() - n_pos * (n_pos + 1) / 2.0
    return float(u / (n_pos * n_neg))


def ood_auroc(probs_in: Any, probs_out: Any) -> float:
    """AUROC of separating in-distribution from OOD inputs by the max predictive probability.

    Bergamin et al. (2023), App. D.6, Tables 9-10 (models trained on MNIST/FashionMNIST, tested
    against FashionMNIST/MNIST, EMNIST, KMNIST; notes Sec. 2.7). **The paper does not state the
    score.** We use the maximum predictive probability :math:`\\max_c \\bar p_{nc}`, the
    convention of Laplace Redux (Daxberger et al. 2021) and Kristiadi et al. (2020), with the
    in-distribution inputs as the positive class (label 1) and the OOD inputs as negatives.

    Equals ``sklearn.metrics.roc_auc_score(labels, scores)`` with ``labels = [1]*N_in + [0]*N_out``
    and ``scores`` the max probabilities (to ~1e-15), computed here as the Mann-Whitney statistic
    with tied scores given their average rank, so that ties count one half -- as the trapezoidal
    ROC area of scikit-learn does.

    Parameters
    ----------
    probs_in : array_like, shape (N_in, C)
        MC-averaged predictive probabilities on the in-distribution test set.
    probs_out : array_like, shape (N_out, C)
        The same on the OOD set (same model, hence the same C).

    Returns
    -------
    float
        AUROC in ``[0, 1]`` (0.5: no separation).
    """
    p_in = checked_probabilities(probs_in, "probs_in")
    p_out = checked_probabilities(probs_out, "probs_out")
    if p_in.shape[1] != p_out.shape[1]:
        raise ValueError(
            f"probs_in has {p_in.shape[1]} classes but probs_out has {p_out.shape[1]}; "
            "both must come from the same model"
        )
    return _auroc(p_in.max(axis=1), p_out.max(axis=1))


def classification_metrics(probs: Any, y: Any, *, n_bins: int) -> dict[str, float]:
    """All in-distribution metrics of Bergamin et al. (2023), Sec. 5.2 / App. D, in one call.

    Parameters
    ----------
    probs : array_like, shape (N, C)
        MC-averaged predictive probabilities; rows sum to 1.
    y : array_like of int, shape (N,)
        True labels in ``[0, C)``.
    n_bins : int
        Calibration bins (10 for banana, 15 for MNIST/FashionMNIST).

    Returns
    -------
    dict of str to float
        ``accuracy`` (percent, :func:`accuracy`), ``nll`` (:func:`negative_log_likelihood`),
        ``brier`` (:func:`brier_score`), ``ece`` and ``mce`` (percent, :func:`calibration_errors`).
    """
    nb = checked_bin_count(n_bins)
    p = checked_probabilities(probs)
    labels = checked_labels(y, p.shape[0], p.shape[1])
    ece, mce = _calibration(p, labels, nb)
    return {
        "accuracy": _accuracy(p, labels),
        "nll": _nll(p, labels),
        "brier": _brier(p, labels),
        "ece": ece,
        "mce": mce,
    }
