"""Data subsets for Table 1 of Hartmann et al. (2026): "Regression" and "GLM" columns.

Hartmann et al. (2026), Sec. 5 / Table 1 (notes E2 and Sec. 6.2 item 3) use the five
logistic-regression benchmark sets of Yu et al. (2024) (see :mod:`geobayes.data.logreg`)
in two settings, each on the Bernoulli and on the Poisson manifold:

* **Regression** (``h(theta) = X theta``): a random 30 % of the cases, ``D`` = features + 1
  columns (the intercept is appended, matching the paper's ``D`` column);
* **GLM** (latent Gaussian, ``h(theta) = theta``): a random subset of ``n = 100`` cases
  whose covariates enter only through the squared-exponential kernel, so no intercept
  column is added (a constant column does not change SE-kernel distances).

The paper leaves the subset selection, the rounding of ``0.3 * 532 = 159.6``, the
standardisation and the use of 0/1 labels as Poisson counts unspecified; this module fixes
them (see each function) so that every choice is explicit and reproducible from a seed.
"""

from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np

from geobayes.data.logreg import prepare_logreg
from geobayes.data.prepared import register_dataset

__all__ = [
    "GlmSubset",
    "regression_subset_size",
    "subset_indices",
    "prepare_glm_subset",
]

_SUBSET_KEYS = ("X", "y", "indices", "feature_mean", "feature_std", "standardised")


class GlmSubset(NamedTuple):
    """Design matrix and labels of one Table 1 subset (Hartmann et al. 2026, Sec. 5).

    Attributes
    ----------
    X : numpy.ndarray, shape (n, D0) or (n, D0 + 1)
        Rows ``indices`` of the (optionally z-scored) features; with an intercept, a column
        of ones is the LAST column.
    y : numpy.ndarray, shape (n,)
        Labels in {0.0, 1.0}, float64 (Bernoulli labels and Poisson counts alike).
    indices : numpy.ndarray, shape (n,)
        Row indices (int64) into the full data set, in the order of the rows of ``X``.
    feature_mean : numpy.ndarray, shape (D0,)
        Mean of each raw feature over the FULL data set (zeros if not standardised).
    feature_std : numpy.ndarray, shape (D0,)
        Population standard deviation of each raw feature over the FULL data set (ones if
        not standardised and for constant columns).
    standardised : bool
        Whether the features were z-scored.
    """

    X: np.ndarray
    y: np.ndarray
    indices: np.ndarray
    feature_mean: np.ndarray
    feature_std: np.ndarray
    standardised: bool

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays of the prepared file (:func:`geobayes.data.prepared.save_prepared`); the
        logistic-regression keys plus ``indices``."""
        return {"X": np.asarray(self.X, dtype=np.float64), "y": np.asarray(self.y, dtype=np.float64),
                "indices": np.asarray(self.indices, dtype=np.int64),
                "feature_mean": np.asarray(self.feature_mean, dtype=np.float64),
                "feature_std": np.asarray(self.feature_std, dtype=np.float64),
                "standardised": np.asarray(self.standardised, dtype=bool)}


#: Prepared subsets of Hartmann et al. (2026), Table 1: data/prepared/glm/<dataset>_{regression,gp}.npz.
GLM_DATASET = register_dataset("glm", _SUBSET_KEYS, "a row subset of a logistic-regression benchmark set")


def _check_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer; got {value!r} ({type(value).__name__})")
    return int(value)


def regression_subset_size(n_total: int, fraction: float) -> int:
    """Number of cases of the "Regression" subsets (Hartmann et al. 2026, Table 1).

    The paper uses "only 30 % of the data" (``n = 0.3 n_Total``) without saying how a
    fractional size is rounded. We round half up, ``floor(fraction * n_total + 0.5)``, so
    Pima gives ``0.3 * 532 = 159.6 -> 160``; the other sets are exact (Australian 207,
    German 300, Heart 81, Ripley 75, Microarray 27).

    Parameters
    ----------
    n_total : int
        Number of cases in the full data set.
    fraction : float
        Fraction of cases to keep, in (0, 1] (paper: 0.3).

    Returns
    -------
    int
        Subset size, between 2 and ``n_total``.

    Raises
    ------
    ValueError
        If ``n_total`` is not a positive integer, ``fraction`` is not in (0, 1], or the
        rounded size is below 2 or above ``n_total``.
    """
    n_total = _check_int(n_total, "n_total")
    if n_total < 1:
        raise ValueError(f"n_total must be >= 1; got {n_total}")
    fraction_value = float(fraction)
    if not (np.isfinite(fraction_value) and 0.0 < fraction_value <= 1.0):
        raise ValueError(f"fraction must be in (0, 1]; got {fraction!r}")
    size = int(np.floor(fraction_value * n_total + 0.5))
    if size < 2 or size > n_total:
        raise ValueError(
            f"regression subset size floor({fraction_value} * {n_total} + 0.5) = {size} must "
            f"be between 2 and n_total = {n_total}"
        )
    return size


def subset_indices(n_total: int, size: int, seed: int) -> np.ndarray:
    """Random rows of a Table 1 subset, drawn without replacement from a fixed seed.

    Hartmann et al. (2026), Table 1 (notes E2, Sec. 6.2 item 3) do not say how the subsets
    are chosen; we draw a simple random sample (not stratified by label) with
    ``np.random.default_rng(seed).choice(n_total, size, replace=False)`` and sort it.

    Parameters
    ----------
    n_total : int
        Number of cases in the full data set.
    size : int
        Number of cases to draw, ``1 <= size <= n_total``.
    seed : int
        Seed of :func:`numpy.random.default_rng`.

    Returns
    -------
    numpy.ndarray, shape (size,)
        Sorted, distinct int64 row indices in ``[0, n_total)``.

    Raises
    ------
    ValueError
        If an argument is not an integer, or ``size`` is not in ``[1, n_total]``.
    """
    n_total = _check_int(n_total, "n_total")
    size = _check_int(size, "size")
    seed = _check_int(seed, "seed")
    if n_total < 1:
        raise ValueError(f"n_total must be >= 1; got {n_total}")
    if size < 1 or size > n_total:
        raise ValueError(
            f"subset size must be between 1 and n_total = {n_total} (drawn without "
            f"replacement); got size = {size}"
        )
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(n_total, size, replace=False)).astype(np.int64)


def _check_indices(indices: object, n_total: int) -> np.ndarray:
    idx = np.asarray(indices)
    if idx.ndim != 1 or idx.size == 0:
        raise ValueError(f"indices must be a non-empty 1-D array; got shape {idx.shape}")
    if not np.issubdtype(idx.dtype, np.integer):
        raise ValueError(f"indices must have an integer dtype; got {idx.dtype}")
    idx = idx.astype(np.int64)
    if idx.min() < 0 or idx.max() >= n_total:
        raise ValueError(
            f"indices must lie in [0, {n_total}) (the number of cases); got range "
            f"[{idx.min()}, {idx.max()}]"
        )
    if np.unique(idx).size != idx.size:
        raise ValueError(
            f"indices must be distinct (a subset drawn without replacement); got "
            f"{idx.size - np.unique(idx).size} duplicate(s)"
        )
    return idx


def prepare_glm_subset(
    features: np.ndarray,
    labels: np.ndarray,
    indices: np.ndarray,
    *,
    standardise: bool,
    intercept: bool,
) -> GlmSubset:
    """Build the design matrix of one Table 1 subset (Hartmann et al. 2026, Sec. 5, E2).

    If ``standardise``, every feature is z-scored with the mean and population standard
    deviation (``ddof=0``; constant columns get scale 1) of the FULL data set, exactly as
    :func:`geobayes.data.logreg.prepare_logreg`, and only then are the rows ``indices``
    taken. Z-scoring is a property of the data set, not of a subset: the Bernoulli and
    Poisson fits, and the Regression and GLM (GP) settings, all see the same covariates.

    ``intercept=True`` appends a column of ones LAST, for the Regression setting
    (``D`` = features + 1, the paper's ``D`` column). Use ``intercept=False`` for the GLM
    setting: its SE-ARD kernel only sees differences of covariates, which a constant
    column does not change.

    The 0/1 labels serve both as Bernoulli labels and as Poisson counts; the paper does
    this implicitly (it reports Poisson results on the same binary data sets, notes E2).

    Parameters
    ----------
    features : array_like, shape (N, D0)
        Raw features of the full data set.
    labels : array_like, shape (N,)
        Labels of the full data set, exactly the set {0, 1}.
    indices : array_like of int, shape (n,)
        Distinct rows to keep, e.g. from :func:`subset_indices`; used in the given order.
    standardise : bool
        Whether to z-score the features with full-data statistics.
    intercept : bool
        Whether to append a column of ones as the last column.

    Returns
    -------
    GlmSubset
        ``X`` of shape (n, D0 + intercept), ``y`` of shape (n,), the indices (int64) and
        the full-data feature transform.

    Raises
    ------
    ValueError
        On mismatched shapes, labels that are not exactly {0, 1}, or indices that are not
        distinct integers in ``[0, N)``.
    """
    F = np.asarray(features, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    if F.ndim != 2:
        raise ValueError(f"features must be 2-D (N, D0); got shape {F.shape}")
    if not np.all(np.isfinite(F)):
        raise ValueError("features contain non-finite values (NaN or inf)")
    # prepare_logreg checks the labels against {0, 1} and the shapes against each other.
    full = prepare_logreg(F, y, standardise=bool(standardise))
    idx = _check_indices(indices, F.shape[0])
    X = full.X[idx] if intercept else full.X[idx, :-1]
    return GlmSubset(
        X=np.ascontiguousarray(X),
        y=full.y[idx].copy(),
        indices=idx,
        feature_mean=full.feature_mean,
        feature_std=full.feature_std,
        standardised=full.standardised,
    )
