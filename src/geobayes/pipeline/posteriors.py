"""Build a target from its name ``<dataset>-<model>`` and, where it has one, a prepared data file.

Two kinds of target share the name convention:

* posteriors = model x data (``heart_raw-logreg``, ``yu2024-banana``), built from a prepared
  data file and the experiment's config slice;
* closed-form targets without data (``d2-gaussian``, ``easy-squiggle``, ``neal-funnel``), whose
  ``<dataset>`` part names the setting within the experiment's config slice.
"""

from __future__ import annotations

import os

import numpy as np
import scipy.linalg

from geobayes.dataset import Dataset
from geobayes.families import Bernoulli, Categorical, GaussianFixedVariance, Poisson
from geobayes.io import load_npz
from geobayes.models import MODELS
from geobayes.models.dense_gaussian_prior import DenseGaussianPrior
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.models.kernels import squared_exponential_kernel
from geobayes.pipeline.network_posteriors import build_network_model, is_network_model
from geobayes.posterior import Posterior, split_posterior_name
from geobayes.target import Target
from geobayes.targets import Funnel, IsotropicGaussian, Rosenbrock, Squiggle

#: Model names whose targets are closed-form (no data file; exact samples as reference).
CLOSED_FORM_TARGETS = ("gaussian", "squiggle", "funnel", "rosenbrock")

#: Latent-GP models of Hartmann et al. (2026), Table 1, and their likelihood families.
GP_FAMILIES = {"berngp": Bernoulli, "poisgp": Poisson}

#: Regression models whose prior covariance is stored in the data file (Fig. 1: Wishart draws).
FILE_PRIOR_MODELS = ("synthbern", "synthpois")


def build_model(model_name: str, options: dict, arrays: dict | None = None):
    """Instantiate the registered model ``model_name`` from its experiment config slice.

    Parameters
    ----------
    model_name
        A key of :data:`geobayes.models.MODELS` (e.g. ``logreg``, ``banana``, ``berngp``).
    options
        The experiment's config slice (e.g. ``experiments.logreg``); ``prior_variance`` sets
        the isotropic Gaussian prior, ``noise_std`` the banana's observation noise, ``kernel``
        the latent-GP prior (``variance``, ``lengthscale``, relative ``jitter``).
    arrays
        The prepared data file's arrays: the GP kernels are built on its inputs ``X``, the
        Fig. 1 regressions read their Wishart-drawn ``prior_covariance`` from it, and fixed-noise
        networks their marginal-likelihood ``noise_variance`` and ``prior_variance``.
    """
    if is_network_model(model_name, options):
        return build_network_model(model_name, options, arrays)
    if model_name not in MODELS:
        raise KeyError(f"unknown model {model_name!r}; known: {', '.join(sorted(MODELS))} "
                       "(or a network of the experiment's `networks`)")
    cls = MODELS[model_name]
    if model_name in GP_FAMILIES or model_name == "multigp":
        kernel = options["kernel"]
        K = squared_exponential_kernel(arrays["X"], variance=float(kernel["variance"]),
                                       lengthscale=float(kernel["lengthscale"]), jitter=float(kernel["jitter"]))
        if model_name == "multigp":
            classes = len(options["digits"])
            prior = DenseGaussianPrior(scipy.linalg.block_diag(*[K] * (classes - 1)))
            return cls(n_classes=classes, prior=prior, family=Categorical())
        return cls(family=GP_FAMILIES[model_name](), prior=DenseGaussianPrior(K))
    if model_name in FILE_PRIOR_MODELS:
        return cls(prior=DenseGaussianPrior(arrays["prior_covariance"]))
    prior = GaussianPrior(variance=float(options.get("prior_variance", 100.0)))
    if model_name == "banana":
        return cls(prior=prior, noise_variance=float(options["noise_std"]) ** 2)
    if model_name == "lingauss":
        return cls(prior=prior, family=GaussianFixedVariance(float(options["noise_variance"])))
    return cls(prior=prior)


def build_closed_form_target(name: str, options: dict) -> Target:
    """The closed-form target ``name`` of an experiment (Yu et al. 2024, Secs. 2.1-2.4 of the notes).

    ``d<D>-gaussian`` is N(0, I_D); ``<setting>-squiggle`` takes the variances
    ``options['variances'][setting]`` and ``options['a']``; ``<anything>-funnel`` takes
    ``options['sigma']``.

    Raises
    ------
    ValueError
        If the name does not match a configured setting (naming the config key).
    """
    setting, model = split_posterior_name(name)
    if model == "gaussian":
        if not (setting.startswith("d") and setting[1:].isdigit() and int(setting[1:]) >= 1):
            raise ValueError(f"{name}: a Gaussian target is named d<D>-gaussian with D >= 1")
        return IsotropicGaussian(name=name, dim=int(setting[1:]))
    if model == "squiggle":
        variances = options["variances"]
        if setting not in variances:
            raise ValueError(f"{name}: experiments.squiggle.variances has no {setting!r}; "
                             f"configured: {sorted(variances)}")
        return Squiggle(name=name, a=float(options["a"]), variances=tuple(float(s) for s in variances[setting]))
    if model == "funnel":
        return Funnel(name=name, sigma=float(options["sigma"]))
    if model == "rosenbrock":
        return Rosenbrock(name=name, a=float(options["a"]), b=float(options["b"]),
                          covariance=tuple(float(c) for c in options["covariance"]))
    raise ValueError(f"{name}: {model!r} is not a closed-form target ({', '.join(CLOSED_FORM_TARGETS)})")


def build_posterior(name: str, data_path: str | os.PathLike[str] | None, options: dict) -> Target:
    """Target ``name``: model x the prepared data set at ``data_path``, or a closed-form target.

    ``data_path`` is ignored (and may be None) for the closed-form targets.
    """
    _, model_name = split_posterior_name(name)
    if model_name in CLOSED_FORM_TARGETS:
        return build_closed_form_target(name, options)
    if data_path is None:
        raise ValueError(f"{name}: the {model_name!r} model needs a prepared data file")
    arrays = load_npz(data_path, required=("X", "y"), what="prepared data file")
    model = build_model(model_name, options, arrays)
    return Posterior(name, model, Dataset(np.asarray(arrays["X"], dtype=np.float64),
                                          np.asarray(arrays["y"], dtype=np.float64)))
