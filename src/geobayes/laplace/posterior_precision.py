"""Laplace posterior precision of Gaussian-likelihood network regression.

The model is ``y_n ~ N(f_theta(x_n), sigma^2)`` with an isotropic prior ``N(0, I / alpha)``;
its negative log posterior is, up to constants,

    L(theta) = sum_n |y_n - f_theta(x_n)|^2 / (2 sigma^2) + alpha / 2 |theta|^2.

Two curvatures at ``theta`` (Bergamin et al. 2023, Eq. A.4; Daxberger et al. 2021 "Laplace
Redux", Sec. 2):

* ``"ggn"``: ``J^T J / sigma^2 + alpha I`` with ``J`` the network Jacobian at the training
  inputs. This is the generalised Gauss-Newton matrix, equal to the Fisher metric of the
  Gaussian likelihood, and the "Fisher precision" of laplace-torch's ``FullLaplace``
  (its default backend) that Yu et al. (2024, Sec. 5.4) and Bergamin et al. (2023, Sec. 5.1)
  use.
* ``"full"``: the exact Hessian of ``L``, i.e. ``(J^T J + sum_n r_n grad^2 f_n) / sigma^2
  + alpha I`` with residual ``r_n = f_n - y_n`` (laplace-torch's ``CurvlinopsHessian`` or
  ``AsdlHessian`` backend).

laplace-torch stores the data term without the noise: ``la.H`` is the curvature of
``0.5 * sum_n |y_n - f_n|^2`` (``MSELoss(reduction='sum')`` times its ``factor`` 1/2), and
``la.posterior_precision = la.H / sigma^2 + alpha I``. :func:`data_curvature` returns that
``la.H``, so the precision for any ``(alpha, sigma)`` follows without recomputing it.
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.networks.mlp import MultilayerPerceptron

#: Curvature structures: the GGN ("Fisher precision") or the exact Hessian.
STRUCTURES = ("ggn", "full")


def check_structure(structure: str) -> str:
    """Return ``structure`` if it is one of :data:`STRUCTURES`, else raise ``ValueError``."""
    if structure not in STRUCTURES:
        raise ValueError(f"unknown Laplace structure {structure!r}; known: {', '.join(STRUCTURES)}")
    return structure


def check_positive(name: str, value, *, scalar: bool = True) -> None:
    """Raise ``ValueError`` unless a concrete ``value`` is finite and > 0 (every entry, and a
    scalar when ``scalar``). Traced values (inside ``jit`` or ``grad``) are not checked."""
    if isinstance(value, jax.core.Tracer):
        return
    array = jnp.asarray(value)
    if scalar and array.ndim != 0:
        raise ValueError(f"{name} must be a scalar, got shape {array.shape}")
    if array.size == 0 or not bool(jnp.all(jnp.isfinite(array) & (array > 0))):
        raise ValueError(f"{name} must be finite and > 0, got {value}")


def check_regression_data(network: MultilayerPerceptron, theta, X,
                          y=None) -> tuple[jax.Array, jax.Array, jax.Array | None]:
    """Validate shapes and return ``(theta, X, Y)`` as float64 arrays, ``Y`` of shape (N, d_out)
    (None when ``y`` is None).

    Raises
    ------
    ValueError
        If the network is not a :class:`MultilayerPerceptron`, ``theta`` is not
        ``(num_parameters,)``, ``X`` is not ``(N, d_in)``, or ``y`` is neither ``(N,)`` (one output)
        nor ``(N, d_out)``.
    """
    if not isinstance(network, MultilayerPerceptron):
        raise ValueError(f"network must be a MultilayerPerceptron, got {type(network).__name__}")
    theta = jnp.asarray(theta, dtype=jnp.float64)
    X = jnp.asarray(X, dtype=jnp.float64)
    d_in, d_out = network.layer_sizes[0], network.layer_sizes[-1]
    if theta.shape != (network.num_parameters,):
        raise ValueError(f"theta must have shape ({network.num_parameters},) for network "
                         f"{network.layer_sizes}, got {theta.shape}")
    if X.ndim != 2 or X.shape[1] != d_in:
        raise ValueError(f"X must have shape (N, {d_in}), got {X.shape}")
    if X.shape[0] == 0:
        raise ValueError("need at least one observation, got N = 0")
    if y is None:
        return theta, X, None
    y = jnp.asarray(y, dtype=jnp.float64)
    if y.ndim == 1 and d_out == 1:
        y = y[:, None]
    if y.shape != (X.shape[0], d_out):
        raise ValueError(f"y must have shape ({X.shape[0]},) or ({X.shape[0]}, {d_out}) to match "
                         f"X {X.shape} and the network's {d_out} output(s), got {y.shape}")
    return theta, X, y


@eqx.filter_jit
def _jacobian(network: MultilayerPerceptron, theta: jax.Array, X: jax.Array) -> jax.Array:
    outputs = lambda w: network(w, X).reshape(-1)  # noqa: E731  (N * d_out,), row n then output k
    if X.shape[0] * network.layer_sizes[-1] >= theta.shape[0]:
        return jax.jacfwd(outputs)(theta)
    return jax.jacrev(outputs)(theta)


def network_jacobian(network: MultilayerPerceptron, theta, X) -> jax.Array:
    """Jacobian ``J = d f_theta(X) / d theta`` at the inputs, shape (N * d_out, D).

    Rows are ordered observation-major (row ``n * d_out + k`` is output ``k`` at ``x_n``), so for
    one output ``J`` is (N, D). Forward mode when there are at least as many outputs as
    parameters, reverse mode otherwise. Compute it once and pass it as ``jacobian=`` to
    :func:`data_curvature` / :func:`posterior_precision` to avoid recomputing it.
    """
    theta, X, _ = check_regression_data(network, theta, X)
    return _jacobian(network, theta, X)


@eqx.filter_jit
def _half_squared_error_hessian(network: MultilayerPerceptron, theta: jax.Array, X: jax.Array,
                                Y: jax.Array) -> jax.Array:
    half_sse = lambda w: 0.5 * jnp.sum((Y - network(w, X)) ** 2)  # noqa: E731
    return jax.hessian(half_sse)(theta)


def _symmetrise(matrix: jax.Array) -> jax.Array:
    return 0.5 * (matrix + matrix.T)


def data_curvature(network: MultilayerPerceptron, theta, X, y, *, structure: str = "ggn",
                   jacobian: jax.Array | None = None) -> jax.Array:
    """Curvature of ``0.5 * sum_n |y_n - f_theta(x_n)|^2``: laplace-torch's ``la.H``, shape (D, D).

    Parameters
    ----------
    network
        The network ``f``.
    theta
        Weights, shape (D,), torch ``nn.Sequential`` order.
    X, y
        Training inputs (N, d_in) and targets (N,) or (N, d_out).
    structure
        ``"ggn"``: ``J^T J`` (no dependence on ``y``); ``"full"``: the exact Hessian
        ``J^T J + sum_n (f_n - y_n) grad^2 f_n``.
    jacobian
        Optional precomputed :func:`network_jacobian` (used by ``"ggn"`` only).

    Returns
    -------
    jax.Array
        Symmetric (D, D) matrix; divide by ``sigma^2`` and add ``alpha I`` for the posterior
        precision (Daxberger et al. 2021, Sec. 2; Bergamin et al. 2023, Eq. A.4).
    """
    check_structure(structure)
    theta, X, Y = check_regression_data(network, theta, X, y)
    if structure == "full":
        return _symmetrise(_half_squared_error_hessian(network, theta, X, Y))
    jacobian = _jacobian(network, theta, X) if jacobian is None else jnp.asarray(jacobian, dtype=jnp.float64)
    expected = (X.shape[0] * network.layer_sizes[-1], network.num_parameters)
    if jacobian.shape != expected:
        raise ValueError(f"jacobian must have shape {expected}, got {jacobian.shape}")
    return _symmetrise(jacobian.T @ jacobian)


def posterior_precision(network: MultilayerPerceptron, theta, X, y, *, prior_precision, noise_std,
                        structure: str = "ggn", jacobian: jax.Array | None = None) -> jax.Array:
    """Laplace posterior precision of Gaussian network regression at ``theta``, shape (D, D).

    ``data_curvature / noise_std^2 + prior_precision * I``, symmetrised: with ``structure="ggn"``
    the "Fisher precision" ``J^T J / sigma^2 + alpha I`` of laplace-torch's ``FullLaplace``
    (Yu et al. 2024, Sec. 5.4; Bergamin et al. 2023, Sec. 5.1 and Eq. A.4); with ``"full"`` the
    exact Hessian of ``sum_n (y_n - f_n)^2 / (2 sigma^2) + alpha / 2 |theta|^2``.

    Parameters
    ----------
    network, theta, X, y, structure, jacobian
        As in :func:`data_curvature`.
    prior_precision
        ``alpha > 0`` of the prior ``N(0, I / alpha)``.
    noise_std
        Observation noise standard deviation ``sigma > 0``.

    Raises
    ------
    ValueError
        For a non-positive precision or noise, an unknown structure or mismatched shapes.
    """
    check_positive("prior_precision", prior_precision)
    check_positive("noise_std", noise_std)
    curvature = data_curvature(network, theta, X, y, structure=structure, jacobian=jacobian)
    precision = curvature / jnp.square(noise_std) + prior_precision * jnp.eye(curvature.shape[0])
    return _symmetrise(precision)
