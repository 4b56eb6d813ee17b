"""The banana data set of Yu et al. (2024), Sec. 5.2: 100 draws of N(theta1 + theta2^2, 2^2)."""

from __future__ import annotations

import math

import numpy as np

from geobayes.data.logreg import PreparedData
from geobayes.data.prepared import register_dataset

__all__ = ["generate_banana_data"]


def generate_banana_data(
    seed: int = 1,
    n: int = 100,
    theta1: float = 0.5,
    theta2_squared: float = 0.75,
    noise_std: float = 2.0,
) -> PreparedData:
    """Responses ``y_n ~ N(theta1 + theta2^2, noise_std^2)``, exactly the authors' draws.

    Yu et al. (2024), Sec. 5.2 (notes Sec. 2.3): their code runs ``np.random.seed(1); ys =
    scipy.stats.norm.rvs(loc=0.5 + 0.75, scale=2.0, size=100)``. The same call here draws
    from a private ``np.random.RandomState(seed)``, which yields the same numbers without
    touching NumPy's global state.

    Parameters
    ----------
    seed
        Seed of the legacy Mersenne-Twister generator (paper: 1).
    n
        Number of observations N (paper: 100).
    theta1, theta2_squared
        True ``theta1`` and ``theta2^2`` (paper: 0.5 and 0.75).
    noise_std
        Noise standard deviation ``sigma_y`` (paper: 2).

    Returns
    -------
    PreparedData
        ``X`` of shape (N, 0) (the model has no inputs), ``y`` of shape (N,), empty feature
        transform, ``standardised=False``; storable with
        :func:`geobayes.data.logreg.save_prepared`.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer, ``noise_std`` not finite and > 0, ``theta2_squared``
        negative, or a mean parameter not finite.
    """
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ValueError(f"banana data: n must be an integer >= 1, got {n!r}")
    if not (math.isfinite(noise_std) and noise_std > 0):
        raise ValueError(f"banana data: noise_std must be finite and > 0, got {noise_std!r}")
    if not (math.isfinite(theta1) and math.isfinite(theta2_squared)) or theta2_squared < 0:
        raise ValueError(
            "banana data: theta1 must be finite and theta2_squared finite and >= 0, got "
            f"theta1={theta1!r}, theta2_squared={theta2_squared!r}"
        )
    import scipy.stats  # here, not at module level: every prepared-data reader imports this module

    n = int(n)
    ys = scipy.stats.norm.rvs(
        loc=theta1 + theta2_squared,
        scale=noise_std,
        size=n,
        random_state=np.random.RandomState(seed),
    )
    return PreparedData(
        X=np.zeros((n, 0)),
        y=np.asarray(ys, dtype=np.float64),
        feature_mean=np.zeros(0),
        feature_std=np.ones(0),
        standardised=False,
    )


#: Prepared banana data (Yu et al. 2024, Sec. 5.2): data/prepared/banana/.
BANANA_DATASET = register_dataset("banana", ("X", "y", "feature_mean", "feature_std", "standardised"),
                                  "observations y_n (X a column of ones)")
