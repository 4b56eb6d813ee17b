"""Build a posterior from its name ``<dataset>-<model>`` and a prepared data file."""

from __future__ import annotations

import os

from geobayes.data.logreg import load_prepared
from geobayes.dataset import Dataset
from geobayes.models import MODELS
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.posterior import Posterior, split_posterior_name


def build_model(model_name: str, options: dict):
    """Instantiate the registered model ``model_name`` from its experiment config slice.

    Parameters
    ----------
    model_name
        A key of :data:`geobayes.models.MODELS` (e.g. ``logreg``).
    options
        The experiment's config slice (e.g. ``experiments.logreg``); ``prior_variance`` sets
        the Gaussian prior.
    """
    if model_name not in MODELS:
        raise KeyError(f"unknown model {model_name!r}; known: {', '.join(sorted(MODELS))}")
    prior = GaussianPrior(variance=float(options.get("prior_variance", 100.0)))
    return MODELS[model_name](prior=prior)


def build_posterior(name: str, data_path: str | os.PathLike[str], options: dict) -> Posterior:
    """Posterior ``name`` = model x the prepared data set stored at ``data_path``."""
    _, model_name = split_posterior_name(name)
    prepared = load_prepared(data_path)
    return Posterior(name, build_model(model_name, options), Dataset(prepared.X, prepared.y))
