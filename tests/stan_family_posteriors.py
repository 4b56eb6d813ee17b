"""One small posterior of every model family the Stan program covers (on pytest's pythonpath)."""

from __future__ import annotations

import numpy as np
import scipy.linalg

from geobayes.dataset import Dataset
from geobayes.families import Bernoulli, Poisson
from geobayes.families.categorical import Categorical
from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.models.banana import Banana
from geobayes.models.dense_gaussian_prior import DenseGaussianPrior
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.models.latent_gaussian_process import LatentGaussianProcess
from geobayes.models.logistic_growth import LogisticGrowth
from geobayes.models.logistic_regression import LogisticRegression
from geobayes.models.multinomial_gaussian_process import MultinomialGaussianProcess
from geobayes.models.poisson_regression import PoissonRegression
from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.networks.network_models import NetworkRegression, NetworkRegressionInferredNoise
from geobayes.posterior import Posterior
from toy_posteriors import linear_gaussian_posterior


def _kernel(x: np.ndarray, lengthscale: float = 0.7) -> np.ndarray:
    return np.exp(-0.5 * (x[:, None, 0] - x[None, :, 0]) ** 2 / lengthscale**2) + 1e-6 * np.eye(len(x))


def family_posteriors(seed: int = 0) -> dict[str, Posterior]:
    """Name -> posterior: each embedding (affine, banana, growth, network) and family (Bernoulli, Poisson,
    Gaussian with fixed or inferred variance, categorical) with both priors (isotropic, dense)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(20, 3))
    spd = rng.normal(size=(3, 3))
    gp_x = np.sort(rng.uniform(-2, 2, size=(12, 1)), axis=0)
    times = np.linspace(0.0, 8.0, 9)[:, None]
    mlp_x = rng.uniform(-2, 2, size=(10, 1))
    return {
        "logreg": Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(4.0)),
                            Dataset(X, (rng.uniform(size=20) < 0.4).astype(float))),
        "synthpois": Posterior("toy-synthpois", PoissonRegression(prior=DenseGaussianPrior(spd @ spd.T + np.eye(3))),
                               Dataset(X, rng.poisson(2.0, size=20).astype(float))),
        "poisgp": Posterior("toy-poisgp", LatentGaussianProcess(family=Poisson(), prior=DenseGaussianPrior(_kernel(gp_x))),
                            Dataset(gp_x, rng.poisson(1.5, size=12).astype(float))),
        "berngp": Posterior("toy-berngp", LatentGaussianProcess(family=Bernoulli(), prior=DenseGaussianPrior(_kernel(gp_x))),
                            Dataset(gp_x, (gp_x[:, 0] > 0).astype(float))),
        "multigp": Posterior("toy-multigp", MultinomialGaussianProcess(
            n_classes=3, prior=DenseGaussianPrior(scipy.linalg.block_diag(_kernel(gp_x), _kernel(gp_x))),
            family=Categorical()), Dataset(gp_x, rng.integers(0, 3, size=12).astype(float))),
        "lingauss": linear_gaussian_posterior(seed),
        "growth": Posterior("toy-growth", LogisticGrowth(prior=GaussianPrior(10.0)),
                            Dataset(times, 10.0 / (1.0 + 9.0 * np.exp(-0.8 * times[:, 0])) + 0.3 * rng.normal(size=9))),
        "banana": Posterior("toy-banana", Banana(prior=GaussianPrior(4.0), noise_variance=4.0),
                            Dataset(np.zeros((15, 0)), 1.0 + 2.0 * rng.normal(size=15))),
        "mlp": Posterior("toy-mlp", NetworkRegression(network=MultilayerPerceptron((1, 4, 1), "tanh"),
                                                       prior=GaussianPrior(1.0), family=GaussianFixedVariance(0.1)),
                         Dataset(mlp_x, np.sin(2 * mlp_x[:, 0]) + 0.3 * rng.normal(size=10))),
        "mlp_var": Posterior("toy-mlpvar", NetworkRegressionInferredNoise(
            network=MultilayerPerceptron((1, 3, 3, 1), "silu"), prior=GaussianPrior(1.0)),
            Dataset(mlp_x, np.sin(2 * mlp_x[:, 0]) + 0.3 * rng.normal(size=10))),
    }


def prior_factor(data: dict) -> np.ndarray:
    """``L`` of the program's ``theta = L z`` from its data block."""
    return np.asarray(data["L"]) if data["dense_prior"] else data["prior_scale"] * np.eye(data["D"])
