"""Laplace log marginal likelihood of network regression and its post-hoc hyperparameter fit.

The evidence is laplace-torch 0.3's ``FullLaplace.log_marginal_likelihood(prior_precision,
sigma_noise)`` for ``likelihood="regression"`` (Daxberger et al. 2021, "Laplace Redux",
Sec. 2; Bergamin et al. 2023, Eq. A.10; Immer et al. 2021), term by term:

    log p(D) ~= log p(y | theta, sigma)
                - 1/2 (log det P - log det P_0)
                - 1/2 alpha |theta - mu_0|^2,

    log p(y | theta, sigma) = -loss / sigma^2 - N K log(sigma sqrt(2 pi)),
    loss = 1/2 sum_n |y_n - f_theta(x_n)|^2,
    P = H / sigma^2 + alpha I,   P_0 = alpha I,

with ``K`` outputs, ``H`` the stored curvature ``la.H`` of ``loss`` (``J^T J`` for the GGN
backends, the exact Hessian of ``loss`` for the Hessian backends) and ``mu_0`` the prior mean.
laplace-torch computes ``loss`` as ``MSELoss(reduction='sum')`` times its ``factor`` 1/2 and
rescales both ``loss`` and ``H`` by ``_H_factor = 1 / sigma^2`` (temperature 1) whenever
``sigma`` changes; ``theta`` stays fixed at the fitted weights.

At fixed ``theta`` only ``alpha`` and ``sigma`` vary, so :func:`evidence_terms` takes the
eigenvalues ``lambda_i`` of ``H`` once and ``log det P = sum_i log(lambda_i / sigma^2 + alpha)``:
each evaluation is O(D), and :func:`optimise_hyperparameters` runs Yu et al.'s 20,000 Adam steps
in one ``lax.scan``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

from geobayes.laplace.posterior_precision import (
    check_positive,
    check_regression_data,
    data_curvature,
)
from geobayes.networks.mlp import MultilayerPerceptron


class EvidenceTerms(eqx.Module):
    """What the Laplace evidence needs from a fitted network, independent of ``(alpha, sigma)``.

    Attributes
    ----------
    curvature_eigenvalues
        Eigenvalues of laplace-torch's ``la.H`` (:func:`~geobayes.laplace.data_curvature`),
        shape (D,).
    half_squared_error
        laplace-torch's ``la.loss``: ``1/2 sum_n |y_n - f_theta(x_n)|^2``, shape ().
    squared_distance
        ``|theta - prior_mean|^2``, shape () (the "scatter" is ``alpha`` times it).
    num_observations
        ``N * K`` (laplace-torch's ``n_data * n_outputs``).
    """

    curvature_eigenvalues: jax.Array
    half_squared_error: jax.Array
    squared_distance: jax.Array
    num_observations: int = eqx.field(static=True)


def evidence_terms(network: MultilayerPerceptron, theta, X, y, *, structure: str = "ggn",
                   prior_mean=0.0, jacobian: jax.Array | None = None) -> EvidenceTerms:
    """Precompute the ``(alpha, sigma)``-independent parts of the Laplace evidence at ``theta``.

    Parameters
    ----------
    network, theta, X, y, structure, jacobian
        As in :func:`~geobayes.laplace.data_curvature` (``"ggn"``: eigenvalues of ``J^T J``;
        ``"full"``: of the exact Hessian of ``1/2 sum_n |y_n - f_n|^2``, which also scales with
        ``1/sigma^2`` in ``P``).
    prior_mean
        ``mu_0`` of the prior, scalar or shape (D,) (laplace-torch's ``prior_mean``, default 0).
    """
    theta, X, Y = check_regression_data(network, theta, X, y)
    prior_mean = jnp.asarray(prior_mean, dtype=jnp.float64)
    if prior_mean.shape not in ((), theta.shape):
        raise ValueError(f"prior_mean must be a scalar or have shape {theta.shape}, got {prior_mean.shape}")
    curvature = data_curvature(network, theta, X, Y, structure=structure, jacobian=jacobian)
    residual = Y - network(theta, X)
    delta = theta - prior_mean
    return EvidenceTerms(
        curvature_eigenvalues=jnp.linalg.eigvalsh(curvature),
        half_squared_error=0.5 * jnp.sum(residual * residual),
        squared_distance=jnp.dot(delta, delta),
        num_observations=int(Y.size),
    )


def log_marginal_likelihood_from_terms(terms: EvidenceTerms, prior_precision, noise_std) -> jax.Array:
    """Laplace log evidence from precomputed terms; differentiable, broadcasts over arrays.

    ``prior_precision`` and ``noise_std`` may be arrays of any broadcast-compatible shapes (a grid
    of pairs costs O(D) per pair); the result has their broadcast shape. Not validated here (it
    runs under ``jit``/``grad``); a non-positive-definite posterior precision (possible with
    ``structure="full"`` away from a mode) gives NaN, where torch's ``logdet`` returns NaN only
    for a negative determinant.
    """
    alpha = jnp.asarray(prior_precision, dtype=jnp.float64)
    sigma = jnp.asarray(noise_std, dtype=jnp.float64)
    eigenvalues = terms.curvature_eigenvalues
    dim = eigenvalues.shape[0]
    log_likelihood = (-terms.half_squared_error / jnp.square(sigma)
                      - terms.num_observations * jnp.log(sigma * math.sqrt(2.0 * math.pi)))
    log_det_posterior = jnp.sum(
        jnp.log(eigenvalues / jnp.square(sigma)[..., None] + alpha[..., None]), axis=-1)
    log_det_prior = dim * jnp.log(alpha)
    scatter = alpha * terms.squared_distance
    return log_likelihood - 0.5 * (log_det_posterior - log_det_prior + scatter)


def log_marginal_likelihood(network: MultilayerPerceptron, theta, X, y, *, prior_precision, noise_std,
                            structure: str = "ggn", prior_mean=0.0) -> jax.Array:
    """Laplace approximation to ``log p(y | X, alpha, sigma)`` of Gaussian network regression.

    Exactly laplace-torch 0.3's ``FullLaplace(model, "regression").log_marginal_likelihood(
    prior_precision, sigma_noise)`` after ``la.fit`` at weights ``theta`` (GGN backends for
    ``structure="ggn"``, Hessian backends for ``"full"``): see the module docstring and
    Bergamin et al. (2023), Eq. A.10; Daxberger et al. (2021); Yu et al. (2024), Sec. 5.4.

    Parameters
    ----------
    network, theta, X, y, structure, prior_mean
        As in :func:`evidence_terms`.
    prior_precision
        ``alpha > 0``, scalar or array (broadcast with ``noise_std``).
    noise_std
        ``sigma > 0``, scalar or array.

    Returns
    -------
    jax.Array
        The log evidence, shape ``broadcast(prior_precision, noise_std)``.

    Raises
    ------
    ValueError
        For a non-positive precision or noise, an unknown structure or mismatched shapes.
    """
    check_positive("prior_precision", prior_precision, scalar=False)
    check_positive("noise_std", noise_std, scalar=False)
    terms = evidence_terms(network, theta, X, y, structure=structure, prior_mean=prior_mean)
    return log_marginal_likelihood_from_terms(terms, prior_precision, noise_std)


@dataclass(frozen=True)
class HyperparameterFit:
    """Result of :func:`optimise_hyperparameters`.

    Attributes
    ----------
    prior_precision, noise_std
        ``exp`` of the log values after the last Adam step (torch: ``log_prior.exp()``,
        ``log_sigma.exp()``; the fitted ``la.prior_precision`` / ``la.sigma_noise`` hold the values
        of the last *evaluation*, one step earlier).
    log_marginal_likelihood
        The evidence at ``(prior_precision, noise_std)``.
    gradient_norm
        Euclidean norm of the gradient of the negative evidence with respect to the optimised log
        values there (0 at a stationary point).
    steps
        Step indices ``0, trace_every, 2 trace_every, ...`` of the trace.
    trace_log_marginal_likelihood, trace_prior_precision, trace_noise_std
        The evidence and the hyperparameters at which it was evaluated at the start of those
        steps (what the torch loop's ``-neg_marglik`` is at that iteration).
    """

    prior_precision: float
    noise_std: float
    log_marginal_likelihood: float
    gradient_norm: float
    steps: np.ndarray
    trace_log_marginal_likelihood: np.ndarray
    trace_prior_precision: np.ndarray
    trace_noise_std: np.ndarray

    def summary(self) -> dict:
        """JSON-ready summary."""
        return {
            "prior_precision": self.prior_precision,
            "noise_std": self.noise_std,
            "log_marginal_likelihood": self.log_marginal_likelihood,
            "gradient_norm": self.gradient_norm,
            "steps": self.steps.tolist(),
            "trace_log_marginal_likelihood": self.trace_log_marginal_likelihood.tolist(),
            "trace_prior_precision": self.trace_prior_precision.tolist(),
            "trace_noise_std": self.trace_noise_std.tolist(),
        }


def _negative_evidence(log_hyperparameters: jax.Array, terms: EvidenceTerms) -> jax.Array:
    return -log_marginal_likelihood_from_terms(terms, jnp.exp(log_hyperparameters[0]),
                                               jnp.exp(log_hyperparameters[1]))


@eqx.filter_jit
def _adam_scan(terms: EvidenceTerms, init: jax.Array, learning_rate: jax.Array, mask: jax.Array,
               num_steps: int):
    optimiser = optax.adam(learning_rate)
    value_and_grad = jax.value_and_grad(_negative_evidence)

    def step(carry, _):
        params, state = carry
        value, grad = value_and_grad(params, terms)
        updates, state = optimiser.update(grad * mask, state, params)
        return (optax.apply_updates(params, updates), state), (-value, params)

    (final, _), (trace_value, trace_params) = jax.lax.scan(
        step, (init, optimiser.init(init)), None, length=num_steps)
    final_value, final_grad = value_and_grad(final, terms)
    return final, -final_value, jnp.linalg.norm(final_grad * mask), trace_value, trace_params


def optimise_hyperparameters_from_terms(terms: EvidenceTerms, *, init_log_prior_precision: float = 1.0,
                                        init_log_noise_std: float = 1.0, learning_rate: float = 0.1,
                                        num_steps: int = 20_000, trace_every: int = 100,
                                        optimise_noise_std: bool = True) -> HyperparameterFit:
    """:func:`optimise_hyperparameters` on precomputed :class:`EvidenceTerms`."""
    if not isinstance(num_steps, (int, np.integer)) or num_steps < 0:
        raise ValueError(f"num_steps must be an integer >= 0, got {num_steps!r}")
    if not isinstance(trace_every, (int, np.integer)) or trace_every < 1:
        raise ValueError(f"trace_every must be an integer >= 1, got {trace_every!r}")
    check_positive("learning_rate", learning_rate)
    init = jnp.array([init_log_prior_precision, init_log_noise_std], dtype=jnp.float64)
    if not bool(jnp.all(jnp.isfinite(init))):
        raise ValueError(f"initial log hyperparameters must be finite, got {init.tolist()}")
    mask = jnp.array([1.0, 1.0 if optimise_noise_std else 0.0])
    final, value, grad_norm, trace_value, trace_params = _adam_scan(
        terms, init, jnp.asarray(learning_rate, dtype=jnp.float64), mask, int(num_steps))
    trace_value = np.asarray(trace_value)[::trace_every]
    trace_hyper = np.exp(np.asarray(trace_params)[::trace_every])
    return HyperparameterFit(
        prior_precision=float(jnp.exp(final[0])),
        noise_std=float(jnp.exp(final[1])),
        log_marginal_likelihood=float(value),
        gradient_norm=float(grad_norm),
        steps=np.arange(0, int(num_steps), trace_every),
        trace_log_marginal_likelihood=trace_value,
        trace_prior_precision=trace_hyper[:, 0],
        trace_noise_std=trace_hyper[:, 1],
    )


def optimise_hyperparameters(network: MultilayerPerceptron, theta, X, y, *, structure: str = "ggn",
                             prior_mean=0.0, init_log_prior_precision: float = 1.0,
                             init_log_noise_std: float = 1.0, learning_rate: float = 0.1,
                             num_steps: int = 20_000, trace_every: int = 100,
                             optimise_noise_std: bool = True) -> HyperparameterFit:
    """Post-hoc prior precision and noise by Adam on the Laplace evidence at fixed ``theta``.

    The papers' loop (Yu et al. 2024, Sec. 5.4 and its code; Bergamin et al. 2023, Sec. 5.1;
    the laplace-torch README recipe of Daxberger et al. 2021)::

        log_prior, log_sigma = torch.ones(1), torch.ones(1)      # requires_grad
        hyper_optimizer = torch.optim.Adam([log_prior, log_sigma], lr=0.1)
        for _ in range(num_steps):
            hyper_optimizer.zero_grad()
            neg_marglik = -la.log_marginal_likelihood(log_prior.exp(), log_sigma.exp())
            neg_marglik.backward()
            hyper_optimizer.step()

    Here ``optax.adam`` (the same update as ``torch.optim.Adam``: betas (0.9, 0.999), eps 1e-8
    added to the bias-corrected ``sqrt(v)``) inside one ``jax.lax.scan``.

    Parameters
    ----------
    network, theta, X, y, structure, prior_mean
        As in :func:`log_marginal_likelihood`.
    init_log_prior_precision, init_log_noise_std
        Starting log values. Yu et al.: 1.0 and 1.0; Bergamin et al. (regression code): also 1.0
        and 1.0.
    learning_rate, num_steps
        Adam step size and number of steps. Yu et al.: 0.1 and 20,000; Bergamin et al.
        (regression code): 1e-3 and 3,000.
    trace_every
        Keep the evidence and hyperparameters of every ``trace_every``-th step.
    optimise_noise_std
        If False, only ``log alpha`` moves and ``sigma`` stays at ``exp(init_log_noise_std)``
        (laplace-torch's ``optimize_prior_precision(method="marglik")``).

    Returns
    -------
    HyperparameterFit

    Raises
    ------
    ValueError
        For bad shapes, an unknown structure, a non-positive learning rate, a negative number of
        steps or non-finite initial values.
    """
    terms = evidence_terms(network, theta, X, y, structure=structure, prior_mean=prior_mean)
    return optimise_hyperparameters_from_terms(
        terms, init_log_prior_precision=init_log_prior_precision, init_log_noise_std=init_log_noise_std,
        learning_rate=learning_rate, num_steps=num_steps, trace_every=trace_every,
        optimise_noise_std=optimise_noise_std)


MARGINAL_LIKELIHOOD_KEYS = ("structure", "init_log_prior_precision", "init_log_noise_std", "learning_rate", "steps")


def optimise_hyperparameters_from_config(network: MultilayerPerceptron, theta, X, y, settings: dict, *,
                                         where: str = "marginal_likelihood") -> HyperparameterFit:
    """:func:`optimise_hyperparameters` with the settings of a config ``marginal_likelihood`` block.

    The block every network experiment of the DAG shares (Yu et al. 2024, Sec. 5.4; Bergamin
    et al. 2023, Sec. 5.1): ``structure``, ``init_log_prior_precision``, ``init_log_noise_std``,
    ``learning_rate`` and ``steps``. ``where`` names the block in the error for a missing or
    unknown key (e.g. ``experiments.bnn_yu.marginal_likelihood``).
    """
    missing = [key for key in MARGINAL_LIKELIHOOD_KEYS if key not in settings]
    unknown = sorted(set(settings) - set(MARGINAL_LIKELIHOOD_KEYS))
    if missing or unknown:
        raise KeyError(f"{where}: missing keys {missing}, unknown keys {unknown}; "
                       f"expected exactly {list(MARGINAL_LIKELIHOOD_KEYS)}")
    return optimise_hyperparameters(
        network, theta, X, y, structure=settings["structure"],
        init_log_prior_precision=float(settings["init_log_prior_precision"]),
        init_log_noise_std=float(settings["init_log_noise_std"]),
        learning_rate=float(settings["learning_rate"]), num_steps=int(settings["steps"]))
