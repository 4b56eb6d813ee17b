"""The Monte Carlo predictive of a softmax network classifier from posterior samples.

Bergamin et al. (2023), Sec. 3.2 and the prediction rules of their code (notes Sec. 1.6, step 7):
``p(y | x, D) ~= (1/S) sum_s softmax(f_s(x))`` with ``f_s = f_{theta_s}`` (MAP, LA, riem-LA) or the
network linearised at the MAP, ``f_s = f_{theta*} + J_{theta*}(x) (theta_s - theta*)`` (lin-LA,
lin-riem-LA: the linearised network at the geodesic's end point). No probit or closed-form GLM
predictive: every method is averaged over its samples. Given the same weight samples both rules
equal laplace-torch's ``pred_type="nn"`` and linearised predictives (tests/laplace).
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from geobayes.laplace.classification import check_classification_data

__all__ = ["grid_points", "linearised_mc_predictive_probabilities", "mc_predictive_probabilities",
           "predictive_probabilities"]


def _check_samples(theta_samples, dim: int | None = None) -> jax.Array:
    theta_samples = jnp.asarray(theta_samples, dtype=jnp.float64)
    if (theta_samples.ndim != 2 or theta_samples.shape[0] == 0 or theta_samples.shape[1] == 0
            or (dim is not None and theta_samples.shape[1] != dim)):
        expected = "D" if dim is None else dim
        raise ValueError(f"theta_samples must have shape (S, {expected}) with S >= 1, got {theta_samples.shape}")
    return theta_samples


@eqx.filter_jit
def _mean_softmax(network, theta_samples: jax.Array, X: jax.Array) -> jax.Array:
    probabilities = jax.lax.map(lambda w: jax.nn.softmax(network(w, X), axis=-1), theta_samples)
    return jnp.mean(probabilities, axis=0)


@eqx.filter_jit
def _mean_linearised_softmax(network, theta: jax.Array, theta_samples: jax.Array, X: jax.Array) -> jax.Array:
    logits, linear = jax.linearize(lambda w: network(w, X), theta)
    probabilities = jax.lax.map(lambda w: jax.nn.softmax(logits + linear(w - theta), axis=-1), theta_samples)
    return jnp.mean(probabilities, axis=0)


def mc_predictive_probabilities(network, theta_samples, X) -> jax.Array:
    """Monte Carlo predictive of the (non-linearised) Laplace approximation:
    ``1/S sum_s softmax(f_{theta_s}(x_m))``, shape (M, C): Bergamin et al.'s "vanilla la" rule
    (notes Sec. 1.6 step 7) and laplace-torch's ``la(X, pred_type="nn", link_approx="mc")``
    given the same weight samples ``theta_s`` (rows of ``theta_samples``, (S, D))."""
    theta_samples = _check_samples(theta_samples)
    _, X, _, _ = check_classification_data(network, theta_samples[0], X)
    return _mean_softmax(network, theta_samples, X)


def linearised_mc_predictive_probabilities(network, theta, theta_samples, X) -> jax.Array:
    """Monte Carlo predictive of the linearised Laplace approximation:
    ``1/S sum_s softmax(f_theta(x_m) + J_theta(x_m)(theta_s - theta))``, shape (M, C): Bergamin
    et al.'s "lin-la" rule (notes Sec. 1.6 step 7; Immer et al. 2021) with weight samples
    ``theta_s`` ((S, D)), the same distribution as laplace-torch's ``pred_type="glm",
    link_approx="mc"``, which samples the logits from :func:`glm_predictive_moments` instead."""
    theta, X, _, _ = check_classification_data(network, theta, X)
    theta_samples = _check_samples(theta_samples, theta.shape[0])
    return _mean_linearised_softmax(network, theta, theta_samples, X)


def _point_mass_once(theta):
    """``theta`` with one row where all its rows are equal (the MAP's point mass: S copies of one
    weight vector), else unchanged: the mean of S equal softmaxes is that softmax, to round-off,
    and one network evaluation instead of S (the MNIST CNN's 28,000 test images, issue 16)."""
    rows = np.asarray(theta)
    if rows.ndim == 2 and rows.shape[0] > 1 and np.all(rows == rows[:1]):
        return rows[:1]
    return theta


def predictive_probabilities(posterior, theta, X, *, linearised_at=None, chunk_size: int = 2048) -> np.ndarray:
    """The Monte Carlo predictive of a softmax-classifier posterior's samples at inputs ``X``.

    Parameters
    ----------
    posterior
        A softmax-classifier posterior (its model's ``network(theta, X)`` gives the logits).
    theta : array_like, shape (S, D)
        Posterior samples (successful ones: the caller drops and counts failures), S >= 1. Where
        every row is the same (a point mass) the network is evaluated once.
    X : array_like, shape (M, d_in)
        Inputs (the network's scale).
    linearised_at : array_like, shape (D,), optional
        Predict with the network linearised at this point (lin-LA, lin-riem-LA).
    chunk_size : int, optional
        Inputs per evaluation (bounds the memory of the logits and the linearisation).

    Returns
    -------
    numpy.ndarray, shape (M, C)
        :func:`mc_predictive_probabilities` or :func:`linearised_mc_predictive_probabilities`.

    Raises
    ------
    ValueError
        If ``theta`` is not (S >= 1, D) or ``X`` does not fit the network (one line each).
    """
    network = posterior.model.network
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"{posterior.name}: inputs must be (M >= 1, d_in); got shape {X.shape}")
    theta = _point_mass_once(theta)
    if linearised_at is None:
        parts = [mc_predictive_probabilities(network, theta, X[i:i + chunk_size])
                 for i in range(0, X.shape[0], chunk_size)]
    else:
        parts = [linearised_mc_predictive_probabilities(network, linearised_at, theta, X[i:i + chunk_size])
                 for i in range(0, X.shape[0], chunk_size)]
    return np.concatenate([np.asarray(part) for part in parts])


def grid_points(lo: float, hi: float, points: int) -> tuple[np.ndarray, np.ndarray]:
    """The square grid of the confidence maps (Bergamin et al. 2023, Fig. 6: 100 x 100 on [-2, 2]^2).

    Returns
    -------
    axis : numpy.ndarray, shape (points,)
    inputs : numpy.ndarray, shape (points**2, 2)
        ``(x1, x2)`` with ``x1`` varying fastest (``inputs.reshape(points, points, 2)[i, j]`` is
        ``(axis[j], axis[i])``).

    Raises
    ------
    ValueError
        Unless ``lo < hi`` are finite and ``points >= 2``.
    """
    if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo) or int(points) < 2:
        raise ValueError(f"confidence grid [lo, hi, points] needs finite lo < hi and points >= 2; got "
                         f"[{lo}, {hi}, {points}]")
    axis = np.linspace(float(lo), float(hi), int(points))
    x1, x2 = np.meshgrid(axis, axis)
    return axis, np.column_stack([x1.ravel(), x2.ravel()])
