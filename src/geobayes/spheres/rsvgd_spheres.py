"""RSVGD on a product of hyperspheres with the vMF product kernel (Liu & Zhu 2018, Prop. 9).

Particles are ``(N, n, P)`` arrays: ``N`` points of ``(S^{n-1})^P``, one sphere per column. With
per-column concentrations ``kappa_k``, ``c_{ij,k} = y_{j,k}^T y_{i,k}`` and ``g_j`` the Euclidean
score ``+grad log p(y_j)``, Eq. (12) with ``K(y, y') = prod_k exp(kappa_k (y_k^T y'_k - 1))``
evaluates in closed form to::

    S_ij     = sum_k [kappa_k y_{i,k}^T g_{j,k} + kappa_k^2 - kappa_k^2 c_{ij,k}^2
                      - (y_{j,k}^T g_{j,k} + n - 1) kappa_k c_{ij,k}]
    v_{i,l}  = 1/N sum_j kappa_l K_ij [g_{j,l} + y_{j,l} (S_ij - 2 kappa_l c_{ij,l}
                                                         - y_{j,l}^T g_{j,l} - (n - 1))]
    X_{i,l}  = (I - y_{i,l} y_{i,l}^T) v_{i,l}                (Prop. 9's projection)
    y_{i,l} <- Exp_{y_{i,l}}(eps X_{i,l})                     (first-order flow, Sec. 3)

The kernel is *normalised*, ``exp(sum_k kappa_k (c_k - 1))`` instead of the paper's
``exp(sum_k kappa_k c_k)``: the two differ by the constant ``exp(-sum_k kappa_k)``, which is
absorbed into the step size (so a step size tuned for one form is not the step size of the
other, and with the median-adaptive bandwidth the absorbed factor changes every iteration).
The normalised form cannot overflow (reproduction notes Sec. 5.4 E). It equals the restricted
Gaussian kernel ``exp(-kappa/2 ||y - y'||^2)``.

Sign: the field uses ``+grad log p`` (the authors' SAM code passes a potential gradient
here; reproduction notes Sec. 5.4 F). A single vMF target pulls the particles to ``mu``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.spheres.hypersphere import check_points, exponential_map, tangent_project

__all__ = [
    "SCHEDULES",
    "median_bandwidth",
    "resolve_bandwidths",
    "rsvgd_direction",
    "rsvgd_field",
    "rsvgd_step",
    "rsvgd_update",
    "run_rsvgd",
    "step_size",
]

#: Step-size schedules: ``fixed`` (``eps0``) and ``decay`` (``eps0 / t^power``, the code's
#: ``rsgd`` optimiser with ``btTau0 = 1``, so ``t = 2`` at the first update).
SCHEDULES = ("fixed", "decay")

_BANDWIDTH_HELP = ("expected a positive number, a per-column array of shape (P,), a list of "
                   "those (summed kernels), or 'median'")


@jax.jit
def rsvgd_field(eval_points, particles, scores, kappa):
    """The RSVGD direction of Prop. 9 / Eq. (12) at ``eval_points``, one vMF product kernel.

    Liu & Zhu (2018), Prop. 9 with the vMF product kernel in its normalised form
    ``K_ij = exp(sum_k kappa_k (c_{ij,k} - 1))`` (see the module docstring for the closed form;
    Prop. 7 / Eq. (8) is the case ``P = 1``). The expectation over ``q`` is the mean over
    ``particles``; the result is projected onto the tangent space of each evaluation point.

    Parameters
    ----------
    eval_points : array, shape (M, n, P)
        Points where the field is evaluated (unit-norm columns).
    particles : array, shape (N, n, P)
        Particles that stand for ``q``.
    scores : array, shape (N, n, P)
        Euclidean ``+grad log p`` at each particle.
    kappa : array, shape (P,)
        Kernel concentration of each column, ``> 0``.

    Returns
    -------
    jax.Array, shape (M, n, P)
        Tangent field ``X`` at the evaluation points.
    """
    n = particles.shape[-2]
    kappa = jnp.broadcast_to(jnp.asarray(kappa, dtype=jnp.float64), particles.shape[-1:])
    # Column-major layout (P, ., n) so that every contraction is a batched matmul over columns.
    e_t, y_t, g_t = (jnp.transpose(a, (2, 0, 1)) for a in (eval_points, particles, scores))
    kap = kappa[:, None, None]  # (P, 1, 1)
    c = e_t @ jnp.swapaxes(y_t, 1, 2)  # c[k, i, j] = y_{i,k}^T y_{j,k}, (P, M, N)
    yg = e_t @ jnp.swapaxes(g_t, 1, 2)  # y_{i,k}^T g_{j,k}
    d = jnp.sum(y_t * g_t, axis=-1)[:, None, :]  # d[k, 0, j] = y_{j,k}^T g_{j,k}
    # Sums over the column axis as contractions (XLA:CPU reduces a leading axis slowly).
    kern = jnp.exp(jnp.tensordot(kappa, c - 1.0, 1))  # normalised product kernel, (M, N)
    terms = kap * yg + kap**2 - kap**2 * c**2 - (d + n - 1.0) * kap * c
    s = jnp.tensordot(jnp.ones_like(kappa), terms, 1)  # (M, N)
    coef_y = kap * kern * (s - 2.0 * kap * c - d - (n - 1.0))  # (P, M, N)
    coef_g = kap * kern  # (P, M, N)
    v_t = (coef_g @ g_t + coef_y @ y_t) / particles.shape[0]  # (P, M, n)
    v = jnp.transpose(v_t, (1, 2, 0))
    return tangent_project(eval_points, v)


def median_bandwidth(particles):
    """Median-adaptive concentration per column (the code's ``ibandw = -1``).

    ``kappa_k = log(N - 1) / (1 - median_{i<j} y_{i,k}^T y_{j,k})`` (Liu & Zhu 2018, SAM code
    ``RSVGD_SphProd.hpp``; the vMF analogue of SVGD's median heuristic). Needs ``N >= 3``. The
    median of an even number of pairs is the mean of the two middle values (the code takes the
    upper one). If all particles coincide in a column the denominator is floored at 1e-12.

    Parameters
    ----------
    particles : array, shape (N, n, P)

    Returns
    -------
    jax.Array, shape (P,)
    """
    num = particles.shape[0]
    if num < 3:
        raise ValueError(f"the median bandwidth needs at least 3 particles, got N={num}")
    return _median_bandwidth(particles)


@jax.jit
def _median_bandwidth(particles):
    num = particles.shape[0]
    y_t = jnp.transpose(particles, (2, 0, 1))
    c = y_t @ jnp.swapaxes(y_t, 1, 2)  # (P, N, N)
    rows, cols = np.triu_indices(num, 1)
    med = jnp.median(c[:, rows, cols], axis=-1)
    return jnp.log(num - 1.0) / jnp.maximum(1.0 - med, 1e-12)


def resolve_bandwidths(bandwidth: Any, num_columns: int) -> Callable[[jax.Array], jax.Array]:
    """Turn a bandwidth specification into ``particles -> kappas`` of shape ``(B, P)``.

    The field is summed over the ``B`` rows (the paper's "summed kernel trick", Sec. SAM).

    Parameters
    ----------
    bandwidth : float, array of shape (P,), list of those, or "median"
        * a positive number: the same fixed ``kappa`` for every column;
        * an array of shape ``(P,)``: a fixed ``kappa_k`` per column;
        * a list/tuple of numbers or ``(P,)`` arrays: one kernel each, directions summed;
        * ``"median"``: :func:`median_bandwidth`, recomputed at every update.
    num_columns : int
        ``P``.

    Returns
    -------
    callable
        Maps particles ``(N, n, P)`` to concentrations ``(B, P)``.
    """
    if isinstance(bandwidth, str):
        if bandwidth == "median":
            return lambda particles: median_bandwidth(particles)[None, :]
        raise ValueError(f"unknown bandwidth {bandwidth!r}; {_BANDWIDTH_HELP}")
    if isinstance(bandwidth, Sequence):
        if len(bandwidth) == 0:
            raise ValueError(f"bandwidth list is empty; {_BANDWIDTH_HELP}")
        rows = [_fixed_row(b, num_columns) for b in bandwidth]
    else:
        rows = [_fixed_row(bandwidth, num_columns)]
    table = jnp.asarray(np.stack(rows))
    return lambda particles: table


def _fixed_row(value, num_columns):
    if isinstance(value, str):
        raise ValueError(f"bandwidth {value!r} inside a list; {_BANDWIDTH_HELP}")
    if value is None or isinstance(value, (bytes, dict)):
        raise ValueError(f"bandwidth {value!r} is not a number; {_BANDWIDTH_HELP}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"bandwidth {value!r} is not a number; {_BANDWIDTH_HELP}") from None
    if arr.ndim == 0:
        arr = np.full(num_columns, float(arr))
    if arr.shape != (num_columns,):
        raise ValueError(f"bandwidth array must have shape (P,) = ({num_columns},), "
                         f"got shape {arr.shape}")
    if not np.all(np.isfinite(arr) & (arr > 0)):
        raise ValueError(f"bandwidth values must be finite and > 0, got {arr.tolist()}")
    return arr


def rsvgd_direction(particles, scores, bandwidth="median"):
    """The RSVGD field at the particles themselves, summed over the bandwidths.

    Liu & Zhu (2018), Prop. 9 / Eq. (12) (vMF product kernel, normalised; see
    :func:`rsvgd_field`), evaluated at every particle and summed over the kernels given by
    ``bandwidth`` (:func:`resolve_bandwidths`).

    Parameters
    ----------
    particles : array, shape (N, n, P)
        Unit-norm columns.
    scores : array, shape (N, n, P)
        Euclidean ``+grad log p`` at each particle.
    bandwidth : see :func:`resolve_bandwidths`

    Returns
    -------
    jax.Array, shape (N, n, P)
        Tangent directions.
    """
    particles, scores = _check_inputs(particles, scores)
    kappas = resolve_bandwidths(bandwidth, particles.shape[-1])(particles)
    return _summed_direction(particles, scores, kappas)


@jax.jit
def _summed_direction(particles, scores, kappas):
    def one(total, kappa):
        return total + rsvgd_field(particles, particles, scores, kappa), None

    total, _ = jax.lax.scan(one, jnp.zeros_like(particles), kappas)
    return total


def _check_inputs(particles, scores):
    particles = check_points(particles, "particles", 3)
    if np.shape(scores) != tuple(particles.shape):
        raise ValueError(f"scores must have the particles' shape {tuple(particles.shape)}, "
                         f"got {tuple(np.shape(scores))}")
    scores = jnp.asarray(scores, dtype=jnp.float64)
    if not isinstance(scores, jax.core.Tracer) and not bool(jnp.all(jnp.isfinite(scores))):
        raise ValueError("scores contain non-finite values (NaN or inf)")
    return particles, scores


def step_size(schedule, eps0, iteration, power=0.7, tau0=1):
    """Step size of update number ``iteration`` (0 for the first update).

    * ``"fixed"``: ``eps0``;
    * ``"decay"``: ``eps0 / t^power`` with ``t = tau0 + iteration + 1``; the defaults are the
      SAM code's ``rsgd`` optimiser (``btKappa = 0.7``, ``btTau0 = 1``, so ``t = 2`` first).

    Parameters
    ----------
    schedule : {"fixed", "decay"}
    eps0 : float
    iteration : int or traced int
    power, tau0 : float, int

    Returns
    -------
    jax.Array, scalar
    """
    if schedule == "fixed":
        return jnp.asarray(eps0, dtype=jnp.float64)
    if schedule == "decay":
        t = jnp.asarray(iteration, dtype=jnp.float64) + tau0 + 1.0
        return eps0 / t**power
    raise ValueError(f"unknown step-size schedule {schedule!r}; expected one of {SCHEDULES}")


def _check_schedule(schedule, eps0):
    if schedule not in SCHEDULES:
        raise ValueError(f"unknown step-size schedule {schedule!r}; expected one of {SCHEDULES}")
    if not (np.isfinite(eps0) and eps0 > 0):
        raise ValueError(f"step size eps0 must be finite and > 0, got {eps0}")


def rsvgd_update(particles, scores, eps, bandwidth="median"):
    """One RSVGD move ``y_{i,l} <- Exp_{y_{i,l}}(eps X_{i,l})`` from given scores.

    Liu & Zhu (2018), Sec. "RSVGD in embedded space" (first-order flow with the exponential
    map) and Prop. 9.

    Parameters
    ----------
    particles : array, shape (N, n, P)
    scores : array, shape (N, n, P)
        Euclidean ``+grad log p`` at each particle.
    eps : float
        Step size (absorbs the kernel's normalising constant, see the module docstring).
    bandwidth : see :func:`resolve_bandwidths`

    Returns
    -------
    jax.Array, shape (N, n, P)
        The moved particles, unit-norm columns.
    """
    particles, scores = _check_inputs(particles, scores)
    kappas = resolve_bandwidths(bandwidth, particles.shape[-1])(particles)
    return _move(particles, scores, eps, kappas)


@jax.jit
def _move(particles, scores, eps, kappas):
    return exponential_map(particles, eps * _summed_direction(particles, scores, kappas))


def rsvgd_step(particles, score_fn, iteration, *, eps0, schedule="fixed", bandwidth="median"):
    """One RSVGD update given a score function.

    Evaluates ``score_fn`` at every particle (``vmap``), then :func:`rsvgd_update` with the
    step size :func:`step_size` ``(schedule, eps0, iteration)``.

    Parameters
    ----------
    particles : array, shape (N, n, P)
    score_fn : callable
        ``(n, P) -> (n, P)``, the Euclidean ``+grad log p``.
    iteration : int
        Number of updates done before this one.
    eps0 : float
    schedule : {"fixed", "decay"}
    bandwidth : see :func:`resolve_bandwidths`

    Returns
    -------
    jax.Array, shape (N, n, P)
    """
    _check_schedule(schedule, eps0)
    particles = check_points(particles, "particles", 3)
    scores = jax.vmap(score_fn)(particles)
    return rsvgd_update(particles, scores, step_size(schedule, eps0, iteration), bandwidth)


def run_rsvgd(particles, score_fn, num_iterations, *, eps0, schedule="fixed",
              bandwidth="median"):
    """Run ``num_iterations`` RSVGD updates in one jitted ``lax.scan``.

    Parameters
    ----------
    particles : array, shape (N, n, P)
        Initial particles, unit-norm columns.
    score_fn : callable
        ``(n, P) -> (n, P)``, Euclidean ``+grad log p`` (JAX-traceable).
    num_iterations : int
    eps0 : float
    schedule : {"fixed", "decay"}
    bandwidth : see :func:`resolve_bandwidths`

    Returns
    -------
    jax.Array, shape (N, n, P)
        Final particles.
    """
    _check_schedule(schedule, eps0)
    particles = check_points(particles, "particles", 3)
    if int(num_iterations) < 0:
        raise ValueError(f"num_iterations must be >= 0, got {num_iterations}")
    kappas_fn = resolve_bandwidths(bandwidth, particles.shape[-1])

    def body(y, iteration):
        scores = jax.vmap(score_fn)(y)
        return _move(y, scores, step_size(schedule, eps0, iteration), kappas_fn(y)), None

    @jax.jit
    def run(y):
        out, _ = jax.lax.scan(body, y, jnp.arange(int(num_iterations)))
        return out

    return run(particles)
