"""Simulated data of the Gaussian linear model (Hartmann et al. 2026, App. C.1, Fig. 3)."""

from __future__ import annotations

import numpy as np

from geobayes.data.prepared import register_dataset

#: Simulated data of the Gaussian linear model: data/prepared/lingauss/.
LINGAUSS_DATASET = register_dataset("lingauss", ("X", "y", "theta_true"), "simulated linear-Gaussian data")


def simulate_linear_gaussian(
    n: int, dim: int, *, noise_variance: float, prior_variance: float, seed: int
) -> dict[str, np.ndarray]:
    """``y = X theta + e``, ``X_ij ~ N(0, 1)``, ``theta ~ N(0, prior_variance I)``,
    ``e ~ N(0, noise_variance I)``.

    The paper gives no data for this model (its point is that WG is exact for any data); these
    choices only have to give a proper Gaussian posterior.

    Returns
    -------
    dict
        ``X`` (n, dim), ``y`` (n,), ``theta_true`` (dim,).

    Raises
    ------
    ValueError
        On a non-positive size or variance.
    """
    if n < 1 or dim < 1:
        raise ValueError(f"need n >= 1 and dim >= 1, got n={n}, dim={dim}")
    for name, value in (("noise_variance", noise_variance), ("prior_variance", prior_variance)):
        if not value > 0:
            raise ValueError(f"{name} must be > 0, got {value}")
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, dim))
    theta = rng.normal(scale=np.sqrt(prior_variance), size=dim)
    y = X @ theta + rng.normal(scale=np.sqrt(noise_variance), size=n)
    return {"X": X, "y": y, "theta_true": theta}
