"""Geodesic Monte Carlo (GMC) and stochastic-gradient GMC (SGGMC) on a product of spheres.

The MCMC baselines of Liu & Zhu (2018), Sec. "Spherical Admixture Model": GMC of Byrne &
Girolami (2013) and SGGMC of Liu, Zhu & Song (2016), each run as "-seq" (one chain whose last
``N`` samples are the particles) or "-par" (``N`` independent chains, the last sample of each).

Points are ``(n, P)`` arrays with unit-norm columns (one sphere per column); velocities live in
the tangent space, column by column. The potential is ``U = -log p``: GMC takes the *positive*
log density (``docs/conventions.md``) and flips the sign itself; SGGMC takes a caller-supplied
estimate of ``grad U`` (a potential gradient, i.e. ``-grad log p``), as in the SGGMC paper.

SGGMC splitting (what this module does, per outer step; velocity ``v`` is a momentum in units
of 1/time, the flow moves ``y`` by the angle ``eps ||v||``)::

    (y, v) <- geodesic flow for eps/2
    repeat L times (with a full eps-flow between consecutive repeats):
        v <- e^{-alpha/2} (e^{-alpha/2} v - eps grad U_hat(y) + sqrt(2 alpha - B eps^2) xi)
        v <- (I - y y^T) v                                   (per column)
    (y, v) <- geodesic flow for eps/2

with ``eps = sqrt(gamma / D)`` and ``xi ~ N(0, I)``. This is a Strang splitting of the
geodesic Langevin SDE ``dv = -grad U dt - C v dt + sqrt(2C) dW`` (projected) with friction
per step ``alpha = C eps``: the friction ``e^{-alpha}`` is split in two halves around the kick,
the kick is ``-eps grad U`` and the noise has variance ``2 C eps = 2 alpha`` minus the
estimated gradient-noise variance ``B eps^2``. The SGGMC paper's text was not at hand: the
splitting follows the reproduction notes (Sec. 2.2, methods table) and the authors' SAM code
(``SGGMC_inplace.hpp``, where ``B`` is ``gradVariance`` and the friction is ``btAl``). The
stationary velocity law is the tangent ``N(0, I)``, the same as GMC's, so ``v`` is *not* in
units of ``eps`` (it is not the displacement per step of the SGHMC "learning-rate" form).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.spheres.hypersphere import check_points, geodesic_flow, tangent_project

__all__ = [
    "GMCInfo",
    "GMCResult",
    "SGGMCState",
    "gmc_chain",
    "gmc_par",
    "gmc_seq",
    "gmc_step",
    "sggmc_init",
    "sggmc_par",
    "sggmc_seq",
    "sggmc_step",
    "sggmc_step_size",
]


class GMCInfo(NamedTuple):
    """Diagnostics of one GMC transition.

    Attributes
    ----------
    accepted
        Whether the Metropolis-Hastings test accepted the proposal.
    acceptance_probability
        ``min(1, exp(H_old - H_new))`` (0 when the proposal's energy is not finite).
    """

    accepted: jax.Array
    acceptance_probability: jax.Array


class GMCResult(NamedTuple):
    """Particles of a GMC run and its acceptance rate.

    Attributes
    ----------
    particles
        ``(N, n, P)``.
    acceptance_rate
        Fraction of accepted transitions (scalar for -seq, one per chain for -par).
    """

    particles: jax.Array
    acceptance_rate: jax.Array


class SGGMCState(NamedTuple):
    """State of an SGGMC chain: position ``(n, P)`` and tangent velocity ``(n, P)``."""

    position: jax.Array
    velocity: jax.Array


def _check_positive(name, value):
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be finite and > 0, got {value}")


def _check_count(name, value, minimum=1):
    if int(value) != value or int(value) < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")


def gmc_step(key, position, logdensity_fn, step_size, num_leapfrog):
    """One Geodesic Monte Carlo transition (Byrne & Girolami 2013, Alg. 1, sphere case).

    Draws ``v ~ N(0, I)`` projected onto the tangent space, runs ``num_leapfrog`` steps of
    half kick ``v += eps/2 grad log p`` (projected), geodesic flow for ``eps``, half kick
    (projected), and accepts with probability ``min(1, exp(H - H'))``,
    ``H = -log p(y) + ||v||^2 / 2``.

    Parameters
    ----------
    key : jax.Array
    position : array, shape (n, P)
        Current point, unit-norm columns.
    logdensity_fn : callable
        ``(n, P) -> scalar``, the positive log density (any smooth extension to R^{n x P}).
    step_size : float
    num_leapfrog : int

    Returns
    -------
    (jax.Array, GMCInfo)
        The next point and the transition's diagnostics.
    """
    k_v, k_u = jax.random.split(key)
    value_and_grad = jax.value_and_grad(logdensity_fn)
    velocity = tangent_project(position, jax.random.normal(k_v, position.shape, position.dtype))
    logp0, grad0 = value_and_grad(position)
    h0 = -logp0 + 0.5 * jnp.sum(velocity**2)

    def leapfrog(carry, _):
        y, v, grad, _ = carry
        v = tangent_project(y, v + 0.5 * step_size * grad)
        y, v = geodesic_flow(y, v, step_size)
        logp, grad = value_and_grad(y)
        v = tangent_project(y, v + 0.5 * step_size * grad)
        return (y, v, grad, logp), None

    (y1, v1, _, logp1), _ = jax.lax.scan(leapfrog, (position, velocity, grad0, logp0), None,
                                         length=int(num_leapfrog))
    h1 = -logp1 + 0.5 * jnp.sum(v1**2)
    prob = jnp.minimum(1.0, jnp.exp(h0 - h1))
    prob = jnp.where(jnp.isfinite(h1) & jnp.isfinite(prob), prob, 0.0)
    accepted = jax.random.uniform(k_u, dtype=position.dtype) < prob
    return jnp.where(accepted, y1, position), GMCInfo(accepted, prob)


def _gmc_kernel(logdensity_fn, step_size, num_leapfrog):
    def step(y, key):
        y, info = gmc_step(key, y, logdensity_fn, step_size, num_leapfrog)
        return y, info.accepted

    return step


def _seq_run(step, key, state, num_steps, num_kept, extract):
    """Burn in ``num_steps - num_kept`` steps, then keep ``extract(state)`` of the last ones."""
    k_burn, k_keep = jax.random.split(key)

    def burn(s, k):
        s, acc = step(s, k)
        return s, acc

    def keep(s, k):
        s, acc = step(s, k)
        return s, (extract(s), acc)

    state, acc_burn = jax.lax.scan(burn, state, jax.random.split(k_burn, num_steps - num_kept))
    state, (kept, acc_keep) = jax.lax.scan(keep, state, jax.random.split(k_keep, num_kept))
    return kept, jnp.concatenate([acc_burn, acc_keep])


def gmc_chain(key, position, logdensity_fn, *, step_size, num_leapfrog, num_steps):
    """A GMC chain of ``num_steps`` transitions from ``position``.

    Parameters
    ----------
    key : jax.Array
    position : array, shape (n, P)
    logdensity_fn : callable, ``(n, P) -> scalar`` (positive log density)
    step_size : float
    num_leapfrog : int
    num_steps : int

    Returns
    -------
    GMCResult
        ``particles`` = all states after each transition, ``(num_steps, n, P)``.
    """
    return gmc_seq(key, position, logdensity_fn, step_size=step_size,
                   num_leapfrog=num_leapfrog, num_steps=num_steps, num_particles=num_steps)


def gmc_seq(key, position, logdensity_fn, *, step_size, num_leapfrog, num_steps, num_particles):
    """GMC-seq: one chain; the last ``num_particles`` states are the particles.

    Liu & Zhu (2018), Sec. "Spherical Admixture Model" ("-seq"); Byrne & Girolami (2013).

    Parameters
    ----------
    key : jax.Array
    position : array, shape (n, P)
        Start of the chain.
    logdensity_fn : callable, ``(n, P) -> scalar`` (positive log density)
    step_size : float
    num_leapfrog : int
    num_steps : int
        Total transitions (burn-in included), ``>= num_particles``.
    num_particles : int

    Returns
    -------
    GMCResult
        ``particles`` of shape ``(num_particles, n, P)``; ``acceptance_rate`` over all steps.
    """
    position = check_points(position, "position", 2)
    _check_gmc_settings(step_size, num_leapfrog, num_steps, num_particles)
    step = _gmc_kernel(logdensity_fn, step_size, num_leapfrog)

    @jax.jit
    def run(key, y):
        kept, acc = _seq_run(step, key, y, int(num_steps), int(num_particles), lambda s: s)
        return GMCResult(kept, jnp.mean(acc))

    return run(key, position)


def gmc_par(key, positions, logdensity_fn, *, step_size, num_leapfrog, num_steps):
    """GMC-par: ``N`` independent chains (``vmap``); the last state of each is a particle.

    Liu & Zhu (2018), Sec. "Spherical Admixture Model" ("-par").

    Parameters
    ----------
    key : jax.Array
    positions : array, shape (N, n, P)
        Starts of the chains.
    logdensity_fn : callable, ``(n, P) -> scalar`` (positive log density)
    step_size : float
    num_leapfrog : int
    num_steps : int

    Returns
    -------
    GMCResult
        ``particles`` of shape ``(N, n, P)``; ``acceptance_rate`` of shape ``(N,)``.
    """
    positions = check_points(positions, "positions", 3)
    _check_gmc_settings(step_size, num_leapfrog, num_steps, 1)
    step = _gmc_kernel(logdensity_fn, step_size, num_leapfrog)

    def one(key, y):
        y, acc = jax.lax.scan(step, y, jax.random.split(key, int(num_steps)))
        return GMCResult(y, jnp.mean(acc))

    keys = jax.random.split(key, positions.shape[0])
    return jax.jit(jax.vmap(one))(keys, positions)


def _check_gmc_settings(step_size, num_leapfrog, num_steps, num_particles):
    _check_positive("step_size", step_size)
    _check_count("num_leapfrog", num_leapfrog)
    _check_count("num_particles", num_particles)
    _check_count("num_steps", num_steps, minimum=int(num_particles))


def sggmc_step_size(learning_rate, num_data):
    """SGGMC's step size ``eps = sqrt(gamma / D)`` (Liu, Zhu & Song 2016; SAM code).

    Parameters
    ----------
    learning_rate : float
        ``gamma``, the per-batch learning rate (``btGm``, 1e-2 in the SAM settings).
    num_data : int
        ``D``, the number of data (1666 training documents in SAM).

    Returns
    -------
    float
    """
    _check_positive("learning_rate", learning_rate)
    _check_positive("num_data", num_data)
    return float(np.sqrt(learning_rate / num_data))


def sggmc_init(key, position):
    """Start an SGGMC chain: ``v ~ N(0, I)`` projected onto the tangent space at ``position``.

    Parameters
    ----------
    key : jax.Array
    position : array, shape (n, P)

    Returns
    -------
    SGGMCState
    """
    position = jnp.asarray(position, dtype=jnp.float64)
    noise = jax.random.normal(key, position.shape, position.dtype)
    return SGGMCState(position, tangent_project(position, noise))


def sggmc_step(key, state, stochastic_grad_potential, *, step_size, friction, num_leapfrog=1,
               grad_noise_variance=0.0):
    """One outer SGGMC step on the product of spheres (Liu, Zhu & Song 2016; SAM code splitting).

    See the module docstring for the splitting: half geodesic flow, ``num_leapfrog`` damped
    kicks with noise (full flows between them), half geodesic flow.

    Parameters
    ----------
    key : jax.Array
    state : SGGMCState
    stochastic_grad_potential : callable
        ``(key, y) -> (n, P)``, an unbiased estimate of ``grad U = -grad log p`` at ``y``
        (Euclidean; its normal component is projected away).
    step_size : float
        ``eps``; the SGGMC paper's ``sqrt(gamma / D)`` (:func:`sggmc_step_size`).
    friction : float
        ``alpha = C eps``, the friction per step (``btAl``, 1e-2 in the SAM settings).
    num_leapfrog : int
        ``L`` kicks per outer step (``btL``).
    grad_noise_variance : float
        ``B``, estimated variance of the gradient noise; the injected variance is
        ``2 alpha - B eps^2`` (must stay > 0).

    Returns
    -------
    SGGMCState
    """
    damper = jnp.exp(-0.5 * friction)
    noise_sd = jnp.sqrt(2.0 * friction - grad_noise_variance * step_size**2)
    y, v = geodesic_flow(state.position, state.velocity, 0.5 * step_size)

    def kick(y, v, k):
        k_grad, k_noise = jax.random.split(k)
        grad = stochastic_grad_potential(k_grad, y)
        xi = jax.random.normal(k_noise, y.shape, y.dtype)
        v = damper * (damper * v - step_size * grad + noise_sd * xi)
        return tangent_project(y, v)

    keys = jax.random.split(key, int(num_leapfrog))
    v = kick(y, v, keys[0])

    def inner(carry, k):
        y, v = carry
        y, v = geodesic_flow(y, v, step_size)
        return (y, kick(y, v, k)), None

    (y, v), _ = jax.lax.scan(inner, (y, v), keys[1:])
    y, v = geodesic_flow(y, v, 0.5 * step_size)
    return SGGMCState(y, v)


def _check_sggmc_settings(step_size, friction, num_leapfrog, grad_noise_variance, num_steps,
                          num_particles):
    _check_positive("step_size", step_size)
    _check_positive("friction", friction)
    _check_count("num_leapfrog", num_leapfrog)
    _check_count("num_particles", num_particles)
    _check_count("num_steps", num_steps, minimum=int(num_particles))
    if not (np.isfinite(grad_noise_variance) and grad_noise_variance >= 0):
        raise ValueError(f"grad_noise_variance must be finite and >= 0, got {grad_noise_variance}")
    injected = grad_noise_variance * step_size**2
    if not injected < 2.0 * friction:
        raise ValueError(f"grad_noise_variance * step_size^2 = {injected:g} "
                         f"must be < 2 * friction = {2.0 * friction:g}")


def _sggmc_kernel(grad_fn, step_size, friction, num_leapfrog, grad_noise_variance):
    def step(state, key):
        state = sggmc_step(key, state, grad_fn, step_size=step_size, friction=friction,
                           num_leapfrog=num_leapfrog, grad_noise_variance=grad_noise_variance)
        return state, jnp.asarray(True)

    return step


def sggmc_seq(key, position, stochastic_grad_potential: Callable, *, step_size, friction,
              num_steps, num_particles, num_leapfrog=1, grad_noise_variance=0.0):
    """SGGMC-seq: one chain; the positions of its last ``num_particles`` steps are the particles.

    Liu & Zhu (2018), Sec. "Spherical Admixture Model"; Liu, Zhu & Song (2016).

    Parameters
    ----------
    key : jax.Array
    position : array, shape (n, P)
    stochastic_grad_potential : callable, ``(key, y) -> grad U estimate``
    step_size, friction, num_leapfrog, grad_noise_variance : see :func:`sggmc_step`
    num_steps : int
        Total outer steps (burn-in included), ``>= num_particles``.
    num_particles : int

    Returns
    -------
    jax.Array, shape (num_particles, n, P)
    """
    position = check_points(position, "position", 2)
    _check_sggmc_settings(step_size, friction, num_leapfrog, grad_noise_variance, num_steps,
                          num_particles)
    step = _sggmc_kernel(stochastic_grad_potential, step_size, friction, num_leapfrog,
                         grad_noise_variance)

    @jax.jit
    def run(key, y):
        k_init, k_run = jax.random.split(key)
        kept, _ = _seq_run(step, k_run, sggmc_init(k_init, y), int(num_steps),
                           int(num_particles), lambda s: s.position)
        return kept

    return run(key, position)


def sggmc_par(key, positions, stochastic_grad_potential: Callable, *, step_size, friction,
              num_steps, num_leapfrog=1, grad_noise_variance=0.0):
    """SGGMC-par: ``N`` independent chains (``vmap``); the last position of each is a particle.

    Parameters
    ----------
    key : jax.Array
    positions : array, shape (N, n, P)
    stochastic_grad_potential : callable, ``(key, y) -> grad U estimate``
    step_size, friction, num_leapfrog, grad_noise_variance : see :func:`sggmc_step`
    num_steps : int

    Returns
    -------
    jax.Array, shape (N, n, P)
    """
    positions = check_points(positions, "positions", 3)
    _check_sggmc_settings(step_size, friction, num_leapfrog, grad_noise_variance, num_steps, 1)
    step = _sggmc_kernel(stochastic_grad_potential, step_size, friction, num_leapfrog,
                         grad_noise_variance)

    def one(key, y):
        k_init, k_run = jax.random.split(key)
        state, _ = jax.lax.scan(step, sggmc_init(k_init, y),
                                jax.random.split(k_run, int(num_steps)))
        return state.position

    keys = jax.random.split(key, positions.shape[0])
    return jax.jit(jax.vmap(one))(keys, positions)
