"""Function samples of a network posterior: what the predictive metrics and figures consume."""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.networks.linearise import linearised_posterior


@dataclass(frozen=True)
class FunctionSamples:
    """Network outputs of posterior samples, on the ORIGINAL output scale.

    Attributes
    ----------
    f : numpy.ndarray, shape (S, M)
        ``f_{theta_s}(x_m) * y_std + y_mean``.
    noise_std : numpy.ndarray, shape (S,)
        Observation noise std per sample on the original scale (``sigma * y_std``; constant for
        fixed-noise models, ``exp(theta_D / 2)`` for Hartmann et al.'s inferred noise).
    """

    f: np.ndarray
    noise_std: np.ndarray


def function_samples(posterior, theta, X, *, y_mean: float = 0.0, y_std: float = 1.0,
                     linearised_at=None) -> FunctionSamples:
    """Outputs of ``posterior``'s network at inputs ``X`` for every row of ``theta``.

    Parameters
    ----------
    posterior
        A network posterior (model with ``predict`` and ``noise_variance``).
    theta : array_like, shape (S, D)
        Posterior samples (successful ones only: the caller drops and counts failures).
    X : array_like, shape (M, d_in)
        Inputs on the training scale.
    y_mean, y_std
        Output standardisation to undo (Yu et al. 2024, Supp. 16.5.2: predictions are mapped back
        as ``f * y_std + y_mean`` and the noise std as ``sigma * y_std``).
    linearised_at : array_like, shape (D,), optional
        Predict with the network linearised at this point (Bergamin et al. 2023: lin-LA and
        lin-riem-LA predict with ``f_MAP + J (theta - MAP)``).
    """
    theta = jnp.atleast_2d(jnp.asarray(theta, dtype=jnp.float64))
    X = jnp.asarray(X, dtype=jnp.float64)
    model = posterior.model if linearised_at is None else linearised_posterior(
        posterior, jnp.asarray(linearised_at, dtype=jnp.float64)).model
    f = jax.jit(jax.vmap(lambda t: model.predict(t, X)))(theta)
    noise = jax.vmap(lambda t: jnp.sqrt(model.noise_variance(t)))(theta)
    return FunctionSamples(np.asarray(f) * y_std + y_mean, np.asarray(noise) * y_std)
