"""Small posteriors with known answers, shared by the test modules (on pytest's pythonpath)."""

from __future__ import annotations

import numpy as np

from geobayes.dataset import Dataset
from geobayes.families import GaussianFixedVariance
from geobayes.models import GaussianPrior, LinearGaussianRegression
from geobayes.posterior import Posterior


def linear_gaussian_posterior(seed: int = 0, n: int = 30) -> Posterior:
    """Bayesian linear regression in 3-D with a closed-form Gaussian posterior."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = X @ np.array([1.0, -0.5, 0.3]) + 0.7 * rng.normal(size=n)
    model = LinearGaussianRegression(family=GaussianFixedVariance(0.5), prior=GaussianPrior(4.0))
    return Posterior("toy-lingauss", model, Dataset(X, y))
