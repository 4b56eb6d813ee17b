"""A posterior as the data of the Stan program ``embedding_model.stan``.

Every model of geobayes is an embedding ``h`` of the parameters onto a likelihood family plus a
zero-mean Gaussian prior (:class:`~geobayes.models.embedding_model.EmbeddingModel`; Yu et al. 2024,
Sec. 4.3.3; Hartmann et al. 2026, Sec. 3). The one Stan program mirrors that decomposition, and
this module fills its data block from the library's own objects, three registries deep:

* the **embedding** (:func:`embedding_data`, dispatched on the model's class): any model with an
  affine embedding (``affine_embedding``: the GLMs, latent GPs, the multinomial GP, the linear
  Gaussian regression) as ``h = E theta + c`` with ``E`` and ``c`` read off the library's own
  ``embedding`` (so a new affine model needs no Stan code); the banana, logistic growth and the
  regression networks by their own branch of the program;
* the **family** (:func:`family_data`, dispatched on the family's class);
* the **prior** (:func:`prior_data`): isotropic (``N(0, s^2 I)``) or dense (its Cholesky factor).

A model, family or prior without a branch raises :class:`StanExportError` naming it and the
supported ones, before any compilation.
"""

from __future__ import annotations

import functools
import importlib.resources
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.families import Bernoulli, Poisson
from geobayes.families.categorical import Categorical
from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.families.gaussian_mean_variance import GaussianMeanVariance
from geobayes.models.banana import Banana
from geobayes.models.dense_gaussian_prior import DenseGaussianPrior
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.models.logistic_growth import LogisticGrowth
from geobayes.networks.mlp import ACTIVATIONS
from geobayes.networks.network_models import NetworkRegression, NetworkRegressionInferredNoise

__all__ = ["StanExportError", "PROGRAM", "program_code", "stan_data", "embedding_data", "family_data",
           "prior_data", "log_prior_factor_determinant"]

#: File name of the one Stan program (package data of :mod:`geobayes.stan`).
PROGRAM = "embedding_model.stan"

#: The program's codes (its data block documents them).
EMBEDDINGS = {"affine": 1, "banana": 2, "logistic_growth": 3, "network": 4}
FAMILIES = {Bernoulli: 1, Poisson: 2, GaussianFixedVariance: 3, GaussianMeanVariance: 4, Categorical: 5}
STAN_ACTIVATIONS = {"tanh": 1, "silu": 2}


class StanExportError(ValueError):
    """A posterior the Stan program cannot express (its model, family or prior has no branch)."""


def program_code() -> str:
    """The Stan program's source text."""
    return importlib.resources.files("geobayes.stan").joinpath(PROGRAM).read_text()


def stan_data(posterior: Any) -> dict[str, Any]:
    """The data block of ``embedding_model.stan`` for ``posterior``.

    Parameters
    ----------
    posterior : geobayes.posterior.Posterior
        A model conditioned on a data set.

    Returns
    -------
    dict
        Every variable of the program's data block (arrays as NumPy, float64 or int64); blocks
        of branches the posterior does not use are empty.

    Raises
    ------
    StanExportError
        If the posterior is not a model of data, or its model, family or prior has no branch in
        the program (the message names the posterior and what is supported).
    """
    model, data = getattr(posterior, "model", None), getattr(posterior, "data", None)
    name = getattr(posterior, "name", type(posterior).__name__)
    if model is None or data is None:
        raise StanExportError(f"{name}: a closed-form target has no Stan program (the Stan references cover "
                              "models of data: geobayes.posterior.Posterior)")
    dim = int(posterior.dim)
    y = np.asarray(data.y, dtype=np.float64)
    blocks = {"D": dim, "N": int(y.shape[0]),
              "R": 0, "E": np.zeros((0, dim)), "c": np.zeros(0),
              "P": 0, "X": np.zeros((y.shape[0], 0)),
              "layers": 0, "widths": np.zeros(1, dtype=np.int64), "activation": 1, "inferred_noise": 0}
    try:
        blocks.update(embedding_data(model, data, dim))
        blocks.update(family_data(model.family, y, np.asarray(model.embedding(jnp.zeros(dim), data))))
        blocks.update(prior_data(model.prior, dim))
    except StanExportError as error:
        raise StanExportError(f"{name}: {error}") from None
    return blocks


@functools.singledispatch
def embedding_data(model: Any, data: Any, dim: int) -> dict[str, Any]:
    """The embedding block of ``model``: ``h = E theta + c`` for any model whose embedding is affine.

    ``E`` is the Jacobian of ``h`` at 0 and ``c = h(0)``, flattened row-major (observation by
    observation: the program reads ``K`` natural parameters per observation in that order).
    Models with a non-affine embedding register their own branch with ``embedding_data.register``.
    """
    if not getattr(model, "affine_embedding", False):
        supported = ", ".join(sorted(cls.__name__ for cls in embedding_data.registry if cls is not object))
        raise StanExportError(f"model {type(model).__name__} has a non-affine embedding without a branch in "
                              f"{PROGRAM} (supported: any affine model, {supported})")
    zero = jnp.zeros(dim)
    offset = np.asarray(model.embedding(zero, data), dtype=np.float64).reshape(-1)
    jacobian = np.asarray(jax.jacfwd(lambda theta: model.embedding(theta, data).reshape(-1))(zero), dtype=np.float64)
    return {"embedding": EMBEDDINGS["affine"], "R": int(offset.shape[0]), "E": jacobian, "c": offset}


@embedding_data.register
def _banana(model: Banana, data: Any, dim: int) -> dict[str, Any]:
    """``h_n = theta_1 + theta_2^2`` (Yu et al. 2024, Sec. 5.2)."""
    return {"embedding": EMBEDDINGS["banana"]}


@embedding_data.register
def _logistic_growth(model: LogisticGrowth, data: Any, dim: int) -> dict[str, Any]:
    """``h = (C(t_1), ..., C(t_n), sigma^2)`` at the data set's times (Hartmann et al. 2026, Sec. 6)."""
    times = np.asarray(data.X, dtype=np.float64)
    return {"embedding": EMBEDDINGS["logistic_growth"], "P": 1, "X": times[:, :1]}


@embedding_data.register
def _network(model: NetworkRegression, data: Any, dim: int) -> dict[str, Any]:
    """``h_n = f_theta(x_n)`` (and ``exp(theta_D)`` for an inferred noise variance): the MLP in
    torch's order (:class:`~geobayes.networks.mlp.MultilayerPerceptron`), one output."""
    network = model.network
    if network.layer_sizes[-1] != 1:
        raise StanExportError(f"network {network.layer_sizes} has {network.layer_sizes[-1]} outputs; the program's "
                              "network branch has one")
    if network.activation not in STAN_ACTIVATIONS:
        raise StanExportError(f"activation {network.activation!r} has no branch in {PROGRAM} "
                              f"(supported: {', '.join(STAN_ACTIVATIONS)}; the library has {', '.join(ACTIVATIONS)})")
    inputs = np.asarray(data.X, dtype=np.float64)
    return {"embedding": EMBEDDINGS["network"], "P": int(inputs.shape[1]), "X": inputs,
            "layers": len(network.layer_sizes) - 1, "widths": np.asarray(network.layer_sizes, dtype=np.int64),
            "activation": STAN_ACTIVATIONS[network.activation],
            "inferred_noise": int(isinstance(model, NetworkRegressionInferredNoise))}


def family_data(family: Any, y: np.ndarray, natural: np.ndarray) -> dict[str, Any]:
    """The family block: the family's code, the observations in the type it reads, ``K`` (natural
    parameters per observation, from the embedding's shape) and the fixed noise variance.

    Raises
    ------
    StanExportError
        If the family has no branch, or a discrete family's observations are not integers (or, for
        the categorical family, not class indices ``0 .. K``).
    """
    code = FAMILIES.get(type(family))
    if code is None:
        raise StanExportError(f"family {type(family).__name__} has no branch in {PROGRAM} "
                              f"(supported: {', '.join(cls.__name__ for cls in FAMILIES)})")
    per_observation = int(natural.shape[1]) if natural.ndim == 2 else 1
    discrete = code in (FAMILIES[Bernoulli], FAMILIES[Poisson], FAMILIES[Categorical])
    if discrete and not np.all(np.isfinite(y) & (y == np.round(y)) & (y >= 0)):
        raise StanExportError(f"family {type(family).__name__} needs non-negative integer observations; "
                              f"the data set's y holds {y[~(np.isfinite(y) & (y == np.round(y)) & (y >= 0))][:3]}")
    labels = np.round(y).astype(np.int64) if discrete else np.zeros(y.shape[0], dtype=np.int64)
    if code == FAMILIES[Categorical]:
        if labels.size and labels.max() > per_observation:
            raise StanExportError(f"categorical labels must lie in 0 .. {per_observation} "
                                  f"(C - 1 = {per_observation} natural parameters); got {labels.max()}")
        labels = labels + 1  # Stan's classes are 1 .. C; the last is the reference
    noise = float(family.noise_variance) if code == FAMILIES[GaussianFixedVariance] else 1.0
    return {"family": code, "y_real": y if not discrete else np.zeros(y.shape[0]), "y_int": labels,
            "K": per_observation, "noise_variance": noise}


def prior_data(prior: Any, dim: int) -> dict[str, Any]:
    """The prior block: ``theta = s z`` for ``N(0, s^2 I)``, ``theta = L z`` for a dense prior.

    Raises
    ------
    StanExportError
        For a prior that is not a zero-mean Gaussian of the library (e.g. the flat prior).
    """
    if isinstance(prior, GaussianPrior):
        return {"dense_prior": 0, "prior_scale": float(np.sqrt(prior.variance)), "L": np.zeros((0, 0))}
    if isinstance(prior, DenseGaussianPrior):
        return {"dense_prior": 1, "prior_scale": 1.0, "L": np.asarray(prior.cholesky, dtype=np.float64)}
    raise StanExportError(f"prior {type(prior).__name__} has no branch in {PROGRAM} "
                          "(supported: GaussianPrior, DenseGaussianPrior)")


def log_prior_factor_determinant(data: dict[str, Any]) -> float:
    """``log det`` of the map ``z -> theta`` of the program: the program's log density of ``z``
    exceeds the library's log density of ``theta = L z`` by exactly this constant (both keep every
    normalising constant)."""
    if data["dense_prior"]:
        return float(np.sum(np.log(np.diag(data["L"]))))
    return float(data["D"] * np.log(data["prior_scale"]))
