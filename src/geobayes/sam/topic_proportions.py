"""Inner sampler of the topic proportions ``theta_d | beta, v_d``: geodesic Monte Carlo on the simplex.

Used inside Fisher's identity for the SAM topic posterior gradient (Liu & Zhu (2018), Sec. 5.2,
adopting the gradient estimate of Liu, Zhu & Song (2016)). It follows the authors' code
(``SAM_RSVGD::InitTheta`` and ``GMC_simplex`` in ``SAM/codes/GMC.hpp``):

* Initialisation by clipped least squares (``InitTheta``):
  ``theta = normalize_L1(clip((beta^T beta)^{-1} beta^T v_d))`` where entries ``<= 0`` become
  ``1e-6``.
* Potential ``U(theta) = -kappa1 v_d^T beta theta / |beta theta| - (alpha - 1) sum_k log theta_k``
  (``U_thetad``), gradient taken in ``R^P``.
* Geodesic Monte Carlo (Byrne & Girolami (2013), Sec. 4.2 "the simplex"): the simplex is
  treated as a flat manifold embedded in the hyperplane ``sum theta = 1``; the velocity is
  ``N(0, I_P)`` projected onto ``sum v = 0``; the geodesic flow is a straight line that is
  *reflected* specularly off every face ``theta_j = 0`` it hits within the step
  (``GeodFlowUpdate``); ``L`` leapfrog steps of size ``eps`` then a Metropolis-Hastings test on
  ``H = U + |v|^2 / 2``.

Everything is O(P^2) per leapfrog step: ``beta`` enters only through ``G = beta^T beta`` (P, P)
and ``c_d = beta^T v_d`` (P,), since ``|beta theta| = sqrt(theta^T G theta)`` and
``v_d^T beta theta = c_d^T theta``.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

from geobayes.sam.settings import SamSettings

__all__ = [
    "ThetaSamples",
    "initial_topic_proportions",
    "topic_potential",
    "grad_topic_potential",
    "simplex_geodesic_flow",
    "sample_topic_proportions",
    "MAX_REFLECTIONS",
]

#: Value given to non-positive least-squares proportions before L1 normalisation (code: 1e-6).
CLIP_VALUE = 1e-6
#: Most face reflections within one geodesic flow step (a step that needs more stops early).
MAX_REFLECTIONS = 64


class ThetaSamples(NamedTuple):
    """Kept inner samples.

    Attributes
    ----------
    samples : jax.Array
        ``(D, inner_kept, P)`` topic proportions, each on the simplex.
    acceptance_rate : jax.Array
        ``(D,)`` fraction of accepted MH proposals per document (NaN if no proposal was made).
    n_nonfinite : jax.Array
        ``(D,)`` proposals rejected because the trajectory produced a non-finite energy.
    """

    samples: jax.Array
    acceptance_rate: jax.Array
    n_nonfinite: jax.Array


def initial_topic_proportions(gram, projections):
    """Clipped least-squares start ``normalize_L1(clip(G^{-1} c_d))`` for every document.

    Parameters
    ----------
    gram : array_like
        ``(P, P)`` ``beta^T beta``.
    projections : array_like
        ``(D, P)`` rows ``c_d = beta^T v_d``.

    Returns
    -------
    jax.Array
        ``(D, P)`` starting points on the simplex (``SAM_RSVGD::InitTheta``: entries ``<= 0``
        set to ``1e-6``, then divided by the L1 norm).
    """
    factor = jax.scipy.linalg.cho_factor(gram)
    least_squares = jax.scipy.linalg.cho_solve(factor, jnp.asarray(projections).T).T
    clipped = jnp.where(least_squares <= 0, CLIP_VALUE, least_squares)
    return clipped / jnp.sum(clipped, axis=-1, keepdims=True)


def topic_potential(theta, gram, projection, kappa1: float, alpha: float):
    """``U(theta) = -kappa1 c^T theta / sqrt(theta^T G theta) - (alpha - 1) sum log theta``.

    Parameters
    ----------
    theta : array_like
        ``(P,)`` point of the simplex.
    gram, projection : array_like
        ``(P, P)`` ``beta^T beta`` and ``(P,)`` ``beta^T v_d``.
    kappa1, alpha : float
        Document concentration and Dirichlet parameter.

    Returns
    -------
    jax.Array
        Scalar ``-log p(theta_d | beta, v_d)`` up to a constant (Liu & Zhu (2018), Sec. 5.2;
        code ``U_thetad``).
    """
    norm = jnp.sqrt(theta @ gram @ theta)
    return -kappa1 * (projection @ theta) / norm - (alpha - 1.0) * jnp.sum(jnp.log(theta))


def grad_topic_potential(theta, gram, projection, kappa1: float, alpha: float):
    """Gradient of :func:`topic_potential` in ``R^P`` (code ``GradU_thetad``).

    ``-(alpha-1)/theta - kappa1/|b| (c - (c^T theta)/|b|^2 G theta)``, ``|b|^2 = theta^T G theta``.

    Parameters
    ----------
    theta, gram, projection, kappa1, alpha
        As in :func:`topic_potential`.

    Returns
    -------
    jax.Array
        ``(P,)``.
    """
    g_theta = gram @ theta
    norm_sq = theta @ g_theta
    norm = jnp.sqrt(norm_sq)
    return -(alpha - 1.0) / theta - (kappa1 / norm) * (projection - ((projection @ theta) / norm_sq) * g_theta)


def _project(velocity):
    return velocity - jnp.mean(velocity)


def simplex_geodesic_flow(theta, velocity, step: float):
    """Move for time ``step`` along a straight line in the simplex, reflecting off its faces.

    Byrne & Girolami (2013), Sec. 4.2; code ``GMC_simplex::GeodFlowUpdate``. When the line
    reaches a face ``theta_j = 0`` before the time is used up, the point is put on the face
    and the velocity is reflected in the hyperplane ``sum v = 0``:
    ``v <- v - 2 P v_j / (P - 1) (e_j - 1/P)`` (for ``sum v = 0``), which keeps ``|v|`` and
    ``sum v = 0``.

    Parameters
    ----------
    theta : array_like
        ``(P,)`` point of the simplex.
    velocity : array_like
        ``(P,)`` tangent vector, ``sum v = 0``.
    step : float
        Flow time ``eps``.

    Returns
    -------
    (jax.Array, jax.Array)
        New point and velocity. At most :data:`MAX_REFLECTIONS` reflections are made; a step
        that would need more stops at the last face hit (never seen at the SAM step sizes).
    """
    size = theta.shape[-1]
    tiny = jnp.finfo(jnp.float64).tiny

    def cond(state):
        _, _, remaining, count = state
        return (remaining > tiny) & (count < MAX_REFLECTIONS)

    def body(state):
        point, vel, remaining, count = state
        hit_times = jnp.where(vel < 0, point / -jnp.where(vel < 0, vel, -1.0), jnp.inf)
        j = jnp.argmin(hit_times)
        move = jnp.minimum(remaining, hit_times[j])
        hits = hit_times[j] <= remaining
        point = point + move * vel
        point = jnp.where(hits, point.at[j].set(0.0), point)
        remaining = remaining - move
        shift = (size * vel[j] - jnp.sum(vel)) * 2.0 / (size * (size - 1.0))
        reflected = (vel + shift).at[j].add(-size * shift)
        vel = jnp.where(hits & (remaining > tiny), reflected, vel)
        remaining = jnp.where(hits, remaining, 0.0)
        return point, vel, remaining, count + hits.astype(jnp.int32)

    # The first move is unconditional (the flow time is positive), and usually the last: peeled
    # out of the loop, whose cond then ends it at once, it costs no loop iteration.
    first = body((theta, velocity, jnp.asarray(step, theta.dtype), jnp.asarray(0, jnp.int32)))
    point, vel, _, _ = jax.lax.while_loop(cond, body, first)
    return point, vel


def _mh_step(key, theta, gram, projection, settings: SamSettings):
    """One GMC proposal with L leapfrog steps and its MH test (code ``GMC::Sample``)."""
    eps = settings.inner_step_size
    kappa1, alpha = settings.kappa1, settings.alpha
    grad = lambda t: grad_topic_potential(t, gram, projection, kappa1, alpha)  # noqa: E731
    energy = lambda t: topic_potential(t, gram, projection, kappa1, alpha)  # noqa: E731
    key_v, key_u = jax.random.split(key)
    velocity = _project(jax.random.normal(key_v, theta.shape, theta.dtype))
    h0 = energy(theta) + 0.5 * velocity @ velocity

    point, vel = theta, _project(velocity - 0.5 * eps * grad(theta))
    point, vel = simplex_geodesic_flow(point, vel, eps)

    def leapfrog(_, state):
        p, v = state
        v = _project(v - eps * grad(p))
        return simplex_geodesic_flow(p, v, eps)

    point, vel = jax.lax.fori_loop(1, settings.inner_leapfrog_steps, leapfrog, (point, vel))
    vel = _project(vel - 0.5 * eps * grad(point))
    h1 = energy(point) + 0.5 * vel @ vel
    finite = jnp.isfinite(h1) & jnp.all(jnp.isfinite(point))
    log_ratio = jnp.where(finite, h0 - h1, -jnp.inf)
    accept = jnp.log(jax.random.uniform(key_u, dtype=theta.dtype)) < log_ratio
    return jnp.where(accept, point, theta), accept, ~finite


def _sample_one(key, theta0, gram, projection, settings: SamSettings):
    n_iterations = settings.inner_burn_in + settings.inner_kept - 1

    def body(theta, k):
        new, accepted, nonfinite = _mh_step(k, theta, gram, projection, settings)
        return new, (new, accepted, nonfinite)

    keys = jax.random.split(key, max(n_iterations, 1))[:n_iterations]
    _, (chain, accepted, nonfinite) = jax.lax.scan(body, theta0, keys)
    states = jnp.concatenate([theta0[None], chain], axis=0)  # s_0 (start), s_1, ..., s_{B+N-1}
    kept = states[settings.inner_burn_in:]
    rate = jnp.mean(accepted.astype(jnp.float64)) if n_iterations > 0 else jnp.asarray(jnp.nan)
    return kept, rate, jnp.sum(nonfinite.astype(jnp.int32))


def sample_topic_proportions(key, gram, projections, settings: SamSettings, initial=None) -> ThetaSamples:
    """Sample ``theta_d | beta, v_d`` for every document by geodesic Monte Carlo on the simplex.

    Parameters
    ----------
    key : jax.Array
        PRNG key (one sub-key per document is derived with ``jax.random.split``).
    gram : array_like
        ``(P, P)`` ``beta^T beta``.
    projections : array_like
        ``(D, P)`` rows ``beta^T v_d``.
    settings : SamSettings
        ``kappa1``, ``alpha`` and the inner-sampler settings (``L``, ``eps``, burn-in, kept).
    initial : array_like, optional
        ``(D, P)`` starting points; default :func:`initial_topic_proportions`.

    Returns
    -------
    ThetaSamples
        Kept states ``s_B, ..., s_{B+N-1}`` of each chain, where ``s_0`` is the start and
        ``s_i`` the state after ``i`` MH iterations (``B`` burn-in, ``N`` kept): exactly the
        states the authors' ``GradU_beta`` averages (``thetaSamples[d][thBnin .. thBnin+thN-1]``).
        The code draws one further MH iteration whose state it never uses; it is skipped here.

    Notes
    -----
    Liu & Zhu (2018), Sec. 5.2; Byrne & Girolami (2013), Sec. 4.2. A proposal whose energy is
    not finite is rejected and counted in ``n_nonfinite`` (the C++ code would accept a NaN).
    """
    projections = jnp.asarray(projections, jnp.float64)
    gram = jnp.asarray(gram, jnp.float64)
    if projections.ndim != 2 or projections.shape[1] != gram.shape[0]:
        raise ValueError(f"sample_topic_proportions: projections must be (D, {gram.shape[0]}), got {projections.shape}")
    if initial is None:
        initial = initial_topic_proportions(gram, projections)
    keys = jax.random.split(key, projections.shape[0])
    kept, rate, nonfinite = jax.vmap(_sample_one, in_axes=(0, 0, None, 0, None))(
        keys, jnp.asarray(initial, jnp.float64), gram, projections, settings
    )
    return ThetaSamples(samples=kept, acceptance_rate=rate, n_nonfinite=nonfinite)
