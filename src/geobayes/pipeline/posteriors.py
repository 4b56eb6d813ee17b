"""Build a target from its name ``<dataset>-<model>`` and, where it has one, a prepared data file.

The model part of the name is looked up in :mod:`geobayes.registry`, where every model and
closed-form target registers itself with a ``from_options`` constructor:

* a model (``heart_raw-logreg``, ``yu2024-banana``, ``complete_raw-mlp1x10``) is built from the
  experiment's config slice and the prepared data file's arrays, and paired with its ``X``, ``y``;
* a closed-form target (``d2-gaussian``, ``easy-squiggle``, ``neal-funnel``) has no data file;
  the ``<dataset>`` part names the setting within the experiment's config slice.
"""

from __future__ import annotations

import os

import numpy as np

from geobayes.data.prepared import load_prepared
from geobayes.dataset import Dataset
from geobayes.posterior import Posterior, split_posterior_name
from geobayes.registry import closed_form_targets, lookup
from geobayes.target import Target

__all__ = ["build_model", "build_posterior", "closed_form_targets"]


def build_model(model_name: str, options: dict, arrays: dict | None = None):
    """Instantiate the registered model ``model_name`` from its experiment config slice.

    Parameters
    ----------
    model_name
        A registered model name (e.g. ``logreg``, ``banana``, ``berngp``) or a network of the
        experiment's ``networks`` block.
    options
        The experiment's config slice (e.g. ``experiments.logreg``).
    arrays
        The prepared data file's arrays (GP kernels on ``X``, a stored ``prior_covariance``, a
        trained network's ``noise_variance`` and ``prior_variance``).
    """
    entry = lookup(model_name, options)
    if entry.closed_form:
        raise ValueError(f"{model_name!r} is a closed-form target, not a model of data")
    if entry.claims is not None:
        return entry.from_options(model_name, options, arrays)
    return entry.from_options(options, arrays)


def build_posterior(name: str, data_path: str | os.PathLike[str] | None, options: dict) -> Target:
    """Target ``name``: model x the prepared data set at ``data_path``, or a closed-form target.

    ``data_path`` is ignored (and may be None) for the closed-form targets.
    """
    _, model_name = split_posterior_name(name)
    entry = lookup(model_name, options)
    if entry.closed_form:
        return entry.from_options(name, options)
    if data_path is None:
        raise ValueError(f"{name}: the {model_name!r} model needs a prepared data file")
    arrays = load_prepared(data_path, required=("X", "y"))
    model = build_model(model_name, options, arrays)
    inputs = np.asarray(arrays["X"], dtype=np.float64)
    if not getattr(model, "reads_inputs", True):  # built from X (a GP's kernel): its rows, no columns
        inputs = inputs[:, :0]
    return Posterior(name, model, Dataset(inputs, np.asarray(arrays["y"], dtype=np.float64)))
