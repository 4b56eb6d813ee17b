"""Predictive variance of a network classifier over the input plane (Hartmann et al. 2026, Fig. 8)."""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class InputGrid(NamedTuple):
    """A regular grid over the 2-D input plane.

    Attributes
    ----------
    x1, x2 : numpy.ndarray, shape (P,)
        Grid coordinates per axis.
    points : numpy.ndarray, shape (P * P, 2)
        All grid points, ``x1`` varying fastest (``points.reshape(P, P, 2)[i, j] = (x1[j], x2[i])``).
    """

    x1: np.ndarray
    x2: np.ndarray
    points: np.ndarray


class PredictiveMoments(NamedTuple):
    """Monte-Carlo moments of ``p(y = 1 | x, theta) = sigmoid(f_theta(x))`` over posterior samples.

    Attributes
    ----------
    mean, variance : numpy.ndarray, shape (M,)
        Sample mean and variance (ddof 0) of the probability.
    logit_variance : numpy.ndarray, shape (M,)
        Sample variance of the logit ``f_theta(x)`` itself.
    """

    mean: np.ndarray
    variance: np.ndarray
    logit_variance: np.ndarray


def input_grid(X: np.ndarray, points: int, margin: float) -> InputGrid:
    """``points x points`` grid over the bounding box of ``X`` widened by ``margin`` on each side.

    Raises
    ------
    ValueError
        If ``X`` is not (n, 2), ``points < 2`` or ``margin < 0``.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"input_grid needs 2-D inputs of shape (n, 2), got {X.shape}")
    if int(points) < 2 or not margin >= 0:
        raise ValueError(f"input_grid needs points >= 2 and margin >= 0, got {points!r} and {margin!r}")
    low, high = X.min(axis=0) - margin, X.max(axis=0) + margin
    x1, x2 = np.linspace(low[0], high[0], int(points)), np.linspace(low[1], high[1], int(points))
    g1, g2 = np.meshgrid(x1, x2)
    return InputGrid(x1, x2, np.column_stack([g1.ravel(), g2.ravel()]))


def distance_to_data(points: np.ndarray, X: np.ndarray) -> np.ndarray:
    """Euclidean distance of every point (M, 2) to its nearest training input, shape (M,)."""
    diff = np.asarray(points)[:, None, :] - np.asarray(X)[None, :, :]
    return np.sqrt(np.min(np.sum(diff**2, axis=-1), axis=1))


def predictive_moments(posterior, theta: np.ndarray, X: np.ndarray, *, chunk: int = 256) -> PredictiveMoments:
    """Moments of ``sigmoid(f_theta(x))`` at inputs ``X`` over the rows of ``theta``.

    ``V(f(x)) = V_{theta ~ rho}(f_theta(x))`` of Hartmann et al. (2026), App. D, with ``f`` the
    class-1 probability (and the logit variance beside it), by Monte Carlo over the posterior
    samples (the network itself, not its linearisation). Samples are processed ``chunk`` at a
    time with running sums, so memory stays ``chunk x M``.

    Raises
    ------
    ValueError
        If ``theta`` has fewer than two rows (no variance).
    """
    theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
    if theta.shape[0] < 2:
        raise ValueError(f"predictive_moments needs at least 2 samples, got {theta.shape[0]}")
    X = jnp.asarray(X, dtype=jnp.float64)
    logits_of = jax.jit(jax.vmap(lambda t: posterior.model.predict(t, X)))
    # Shifted sums (about the first sample) keep the variance accurate when it is tiny.
    shift_f = np.asarray(logits_of(jnp.asarray(theta[:1])))[0]
    shift_p = 1.0 / (1.0 + np.exp(-shift_f))
    sums = np.zeros((4, X.shape[0]))
    for start in range(0, theta.shape[0], int(chunk)):
        f = np.asarray(logits_of(jnp.asarray(theta[start:start + int(chunk)])))
        p = 1.0 / (1.0 + np.exp(-f))
        sums += [np.sum(p - shift_p, 0), np.sum((p - shift_p) ** 2, 0), np.sum(f - shift_f, 0),
                 np.sum((f - shift_f) ** 2, 0)]
    n = theta.shape[0]
    mean_p, mean_f = sums[0] / n, sums[2] / n
    return PredictiveMoments(shift_p + mean_p, np.maximum(sums[1] / n - mean_p**2, 0.0),
                             np.maximum(sums[3] / n - mean_f**2, 0.0))


def variance_summary(data_variance: np.ndarray, grid_variance: np.ndarray, off_data: np.ndarray) -> dict:
    """Mean predictive variance on the data and off it, and their ratio (Hartmann et al. 2026,
    App. D, Fig. 8: LA's variance grows off the data as WG's does, or not).

    Parameters
    ----------
    data_variance : numpy.ndarray of shape (n,)
        Predictive variance of ``p(y = 1 | x)`` at the training inputs.
    grid_variance : numpy.ndarray of shape (P,)
        The same on the input grid.
    off_data : numpy.ndarray of bool, shape (P,)
        Grid points farther than the off-data distance from every training input.

    Returns
    -------
    dict
        ``on_data``, ``off_data`` (NaN without off-data points), ``off_data_points``, ``grid``
        (the mean over the whole grid) and ``off_on_ratio`` (``off_data / on_data``; NaN where
        the variance on the data is 0).

    Raises
    ------
    ValueError
        If ``off_data`` does not match the grid.
    """
    grid_variance, off_data = np.asarray(grid_variance, dtype=np.float64), np.asarray(off_data, dtype=bool)
    if off_data.shape != grid_variance.shape:
        raise ValueError(f"off_data mask of shape {off_data.shape} does not match the grid variance {grid_variance.shape}")
    on = float(np.mean(data_variance))
    off = float(grid_variance[off_data].mean()) if off_data.any() else float("nan")
    return {"on_data": on, "off_data": off, "off_data_points": int(off_data.sum()), "grid": float(grid_variance.mean()),
            "off_on_ratio": off / on if on > 0 else float("nan")}
