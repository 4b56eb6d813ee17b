"""Synthetic 2-D Bernoulli and Poisson regressions for Fig. 1 of Hartmann et al. (2026).

Hartmann et al. (2026), Sec. 5, Fig. 1 (notes E1 and Sec. 6.2 item 7): for each
``n in {5, 10, 15, 30}`` they "randomly pick values" for the constant ``n x 2`` design
``X`` and use the prior ``theta ~ N(0, Sigma)`` with
``Sigma ~ Wishart(2, diag(10, 10))`` drawn once per ``n``. The distribution of ``X``, how
``y`` was generated and the Wishart convention are not stated; this module fixes them:

* ``Sigma = G^T G`` with the ``df`` rows of ``G`` iid ``N(0, scale)``, i.e. the standard
  Wishart with ``E[Sigma] = df * scale`` (``diag(20, 20)`` for the paper's values);
* ``X`` has iid ``N(0, input_std^2)`` entries (``input_std = 1``);
* ``theta_true ~ N(0, Sigma)`` is drawn from the prior;
* ``y_i ~ Bernoulli(sigmoid(x_i^T theta_true))`` or ``y_i ~ Poisson(exp(x_i^T theta_true))``.

With the paper's prior (``E[Sigma] = diag(20, 20)``) and unit-variance inputs,
``x^T theta`` has a standard deviation of several units, so the Poisson counts are
heavy-tailed: over 1000 seeds the largest of ``n = 30`` counts has median about 2000 and
90th percentile about 1.4e8, and 0.3 % (n = 5) to 2.4 % (n = 30) of the seeds give a
rate above 1e15, which raises an error (never redrawn). ``input_std = 0.25`` gives
medians of 4-8 and no overflow in 1000 seeds.

The draws come from one ``np.random.default_rng(seed)`` in the order ``G``, ``X``,
``theta_true``, ``y``; the family only affects the last draw, so the Bernoulli and the
Poisson data sets with the same ``(n, seed)`` share ``X``, ``Sigma`` and ``theta_true``.
"""

from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np

from geobayes.data.prepared import register_dataset

__all__ = [
    "REGRESSION_FAMILIES",
    "SyntheticRegression",
    "simulate_regression",
]

#: Likelihood families of Fig. 1.
REGRESSION_FAMILIES = ("bernoulli", "poisson")

_KEYS = ("X", "y", "prior_covariance", "theta_true")
# numpy's Poisson sampler rejects rates above about 1e19; stay far below.
_MAX_POISSON_RATE = 1e15


class SyntheticRegression(NamedTuple):
    """One synthetic data set of Fig. 1 (Hartmann et al. 2026, Sec. 5).

    Attributes
    ----------
    X : numpy.ndarray, shape (n, d)
        Design matrix (no intercept), float64.
    y : numpy.ndarray, shape (n,)
        Responses, float64: 0/1 labels (Bernoulli) or non-negative integer counts (Poisson).
    prior_covariance : numpy.ndarray, shape (d, d)
        The Wishart draw ``Sigma`` of the prior ``theta ~ N(0, Sigma)``.
    theta_true : numpy.ndarray, shape (d,)
        Parameter that generated ``y``, drawn from the prior.
    """

    X: np.ndarray
    y: np.ndarray
    prior_covariance: np.ndarray
    theta_true: np.ndarray

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays of the prepared file, float64 (:func:`geobayes.data.prepared.save_prepared`)."""
        return {key: np.asarray(value, dtype=np.float64) for key, value in self._asdict().items()}


#: Prepared data sets of Hartmann et al. (2026), Fig. 1: data/prepared/synthetic/.
SYNTHETIC_DATASET = register_dataset("synthetic", _KEYS, "simulated 2-D regression with its Wishart prior covariance")


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def simulate_regression(
    family: str,
    n: int,
    seed: int,
    *,
    wishart_df: int = 2,
    wishart_scale: np.ndarray | None = None,
    input_std: float = 1.0,
) -> SyntheticRegression:
    """Simulate one Fig. 1 regression (Hartmann et al. 2026, Sec. 5, notes E1).

    Parameters
    ----------
    family : {"bernoulli", "poisson"}
        Likelihood: logistic (canonical Bernoulli) or log-linear (canonical Poisson).
    n : int
        Number of observations (paper: 5, 10, 15, 30).
    seed : int
        Seed of :func:`numpy.random.default_rng`.
    wishart_df : int, optional
        Degrees of freedom of the Wishart prior covariance (paper: 2); at least the
        dimension ``d``, otherwise ``Sigma`` is singular.
    wishart_scale : array_like, shape (d, d), optional
        Symmetric positive-definite Wishart scale; ``None`` means ``diag(10, 10)`` (paper).
        Its size sets the dimension ``d`` of ``theta`` and the columns of ``X``.
    input_std : float, optional
        Standard deviation of the iid normal entries of ``X`` (unspecified in the paper;
        default 1).

    Returns
    -------
    SyntheticRegression
        ``X`` (n, d), ``y`` (n,), ``prior_covariance`` (d, d), ``theta_true`` (d,).

    Raises
    ------
    ValueError
        If ``family`` is unknown, ``n`` or ``wishart_df`` is not a positive integer,
        ``wishart_df`` is below ``d``, ``wishart_scale`` is not symmetric positive
        definite, ``input_std`` is not finite and positive, the Wishart draw is not
        numerically positive definite (it is never redrawn), or a Poisson rate overflows.
    """
    if family not in REGRESSION_FAMILIES:
        raise ValueError(f"family must be one of {REGRESSION_FAMILIES}; got {family!r}")
    for name, value in (("n", n), ("wishart_df", wishart_df), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise ValueError(f"{name} must be an integer; got {value!r}")
    if n < 1:
        raise ValueError(f"n must be >= 1; got {n}")
    scale = (
        np.diag([10.0, 10.0])
        if wishart_scale is None
        else np.asarray(wishart_scale, dtype=np.float64)
    )
    if scale.ndim != 2 or scale.shape[0] != scale.shape[1] or scale.shape[0] < 1:
        raise ValueError(f"wishart_scale must be a square (d, d) matrix; got shape {scale.shape}")
    d = scale.shape[0]
    if not np.all(np.isfinite(scale)) or not np.allclose(scale, scale.T, rtol=0, atol=0):
        raise ValueError("wishart_scale must be finite and exactly symmetric")
    if np.linalg.eigvalsh(scale).min() <= 0:
        raise ValueError(
            f"wishart_scale must be positive definite; smallest eigenvalue "
            f"{np.linalg.eigvalsh(scale).min()!r}"
        )
    if wishart_df < d:
        raise ValueError(
            f"wishart_df must be >= the dimension d = {d} (else Sigma is singular); got "
            f"{wishart_df}"
        )
    if not (np.isfinite(input_std) and input_std > 0):
        raise ValueError(f"input_std must be finite and > 0; got {input_std!r}")

    rng = np.random.default_rng(int(seed))
    G = rng.multivariate_normal(np.zeros(d), scale, size=int(wishart_df))
    sigma = G.T @ G
    sigma = 0.5 * (sigma + sigma.T)
    eigenvalues = np.linalg.eigvalsh(sigma)
    if eigenvalues.min() <= d * np.finfo(np.float64).eps * eigenvalues.max():
        raise ValueError(
            f"Wishart draw with seed {seed} is not numerically positive definite "
            f"(eigenvalues {eigenvalues.tolist()}); choose another seed (no redraw is made)"
        )
    X = rng.normal(0.0, float(input_std), size=(int(n), d))
    theta = rng.multivariate_normal(np.zeros(d), sigma)
    eta = X @ theta
    if family == "bernoulli":
        y = rng.binomial(1, _sigmoid(eta)).astype(np.float64)
    else:
        if not np.all(eta < np.log(_MAX_POISSON_RATE)):
            raise ValueError(
                f"Poisson rate exp(x^T theta) overflows: max x^T theta = {eta.max():.4g} > "
                f"log({_MAX_POISSON_RATE:g}) for seed {seed} (n={n}, input_std={input_std}); "
                "reduce input_std or wishart_scale (no redraw is made)"
            )
        y = rng.poisson(np.exp(eta)).astype(np.float64)
    return SyntheticRegression(X=X, y=y, prior_covariance=sigma, theta_true=theta)
