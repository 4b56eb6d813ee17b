"""Geometry of the (product of) hypersphere(s) embedded in R^n, one sphere per column.

A point of the product of ``P`` spheres ``S^{n-1}`` is an ``(n, P)`` array whose columns have
unit norm (SAM's topic matrix ``beta``); a single sphere is ``P = 1``. Every function here acts
column by column along axis ``-2``, so leading batch axes (particles, chains) broadcast.

Formulas: Liu & Zhu (2018), Sec. "Hypersphere" (Prop. 7 and the exponential map below it);
Byrne & Girolami (2013), Sec. 3.2 (geodesic flow on the sphere). The product metric is the sum
of the column metrics (Liu & Zhu 2018, App. A6.3), so each column moves independently.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

__all__ = [
    "UNIT_NORM_TOLERANCE",
    "check_points",
    "exponential_map",
    "geodesic_flow",
    "normalize_columns",
    "tangent_project",
]

#: Largest ``| ||y_k|| - 1 |`` accepted by :func:`check_points` for a column ``y_k``.
UNIT_NORM_TOLERANCE = 1e-8

# Below this squared angle the trigonometric factors use their Taylor series, so that
# neither the value nor its gradient divides by zero (error < angle^6 / 5040 < 1e-21).
_SMALL_ANGLE_SQ = 1e-6


def _column_sq_norm(v):
    return jnp.sum(v * v, axis=-2, keepdims=True)


def _cos_and_sinc(angle_sq):
    """``cos(a)`` and ``sin(a)/a`` from ``a^2``, with finite values and gradients at ``a = 0``."""
    small = angle_sq < _SMALL_ANGLE_SQ
    safe_sq = jnp.where(small, 1.0, angle_sq)
    a = jnp.sqrt(safe_sq)
    cos_big, sinc_big = jnp.cos(a), jnp.sin(a) / a
    s = jnp.where(small, angle_sq, 0.0)
    cos_small = 1.0 - s / 2.0 + s * s / 24.0
    sinc_small = 1.0 - s / 6.0 + s * s / 120.0
    return jnp.where(small, cos_small, cos_big), jnp.where(small, sinc_small, sinc_big)


@jax.jit
def normalize_columns(x):
    """Scale each column (axis ``-2``) of ``x`` to unit Euclidean norm.

    Parameters
    ----------
    x : array, shape (..., n, P)
        Columns with non-zero norm.

    Returns
    -------
    array, shape (..., n, P)
        ``x_k / ||x_k||`` per column.
    """
    x = jnp.asarray(x)
    return x / jnp.sqrt(_column_sq_norm(x))


@jax.jit
def tangent_project(y, v):
    """Orthogonal projection of ``v`` onto the tangent space at ``y``, column by column.

    Implements ``(I_n - y_k y_k^T) v_k`` (Liu & Zhu 2018, Prop. 7; the projector
    ``I_n - N N^T`` of Prop. 6 with normal ``N = y``).

    Parameters
    ----------
    y : array, shape (..., n, P)
        Points with unit-norm columns.
    v : array, shape (..., n, P)
        Ambient vectors.

    Returns
    -------
    array, shape (..., n, P)
        The tangent component of ``v``.
    """
    return v - y * jnp.sum(y * v, axis=-2, keepdims=True)


@jax.jit
def exponential_map(y, v):
    """Exponential map of the sphere, column by column (Liu & Zhu 2018, Sec. "Hypersphere").

    ``Exp_y(v) = y cos||v|| + v/||v|| sin||v||``: the great circle through ``y`` with initial
    velocity ``v`` (assumed tangent), followed for length ``||v||``. The value and its gradient
    are finite at ``v = 0`` (Taylor series below a small angle), and each column is re-normalised
    so that ``||y_k|| = 1`` to round-off.

    Parameters
    ----------
    y : array, shape (..., n, P)
        Points with unit-norm columns.
    v : array, shape (..., n, P)
        Tangent vectors at ``y``.

    Returns
    -------
    array, shape (..., n, P)
        The end points, with unit-norm columns.
    """
    cos_a, sinc_a = _cos_and_sinc(_column_sq_norm(v))
    out = y * cos_a + v * sinc_a
    return normalize_columns(out)


@jax.jit
def geodesic_flow(y, v, t):
    """Geodesic flow of (position, velocity) on the sphere for time ``t``, column by column.

    Byrne & Girolami (2013), Sec. 3.2::

        y' = y cos(||v|| t) + v/||v|| sin(||v|| t)
        v' = -y ||v|| sin(||v|| t) + v cos(||v|| t)

    Safe at ``v = 0``. The returned position is re-normalised and the velocity re-projected
    onto its tangent space, so ``||y'|| = 1``, ``y'.v' = 0`` and ``||v'|| = ||v||`` hold to
    round-off.

    Parameters
    ----------
    y : array, shape (..., n, P)
        Positions with unit-norm columns.
    v : array, shape (..., n, P)
        Tangent velocities at ``y``.
    t : float
        Flow time (may be negative).

    Returns
    -------
    (array, array)
        ``(y', v')``, both of shape (..., n, P).
    """
    v_sq = _column_sq_norm(v)
    cos_a, sinc_a = _cos_and_sinc(v_sq * t * t)
    y_new = normalize_columns(y * cos_a + v * (t * sinc_a))
    v_new = v * cos_a - y * (v_sq * t * sinc_a)
    return y_new, tangent_project(y_new, v_new)


def check_points(y, name, ndim, tolerance=UNIT_NORM_TOLERANCE):
    """Raise a one-line ``ValueError`` unless ``y`` is an array of points on the spheres.

    Checks the number of axes (``ndim``: 2 for one point ``(n, P)``, 3 for a set ``(N, n, P)``),
    ``n >= 2``, finiteness and the unit norm of every column. Traced values (inside ``jit`` or
    ``vmap``) are only checked for their shape.

    Parameters
    ----------
    y : array_like
        The candidate points.
    name : str
        How the error message calls ``y``.
    ndim : int
        Expected number of axes.
    tolerance : float
        Largest accepted ``| ||y_k|| - 1 |``.

    Returns
    -------
    jax.Array
        ``y`` as a float64 JAX array.
    """
    layout = {2: "(n, P)", 3: "(N, n, P)"}.get(ndim, f"{ndim} axes")
    shape = np.shape(y)
    if len(shape) != ndim or min(shape, default=0) < 1 or shape[-2] < 2:
        raise ValueError(f"{name} must have shape {layout} with n >= 2 and no empty axis, "
                         f"got shape {tuple(shape)}")
    if isinstance(y, jax.core.Tracer):
        return y
    arr = np.asarray(y, dtype=np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains non-finite values (NaN or inf)")
    deviation = np.abs(np.sqrt(np.sum(arr * arr, axis=-2)) - 1.0)
    if deviation.max() > tolerance:
        where = np.unravel_index(int(np.argmax(deviation)), deviation.shape)
        actual = float(np.sqrt(np.sum(arr * arr, axis=-2))[where])
        raise ValueError(f"{name} must have unit-norm columns (tolerance {tolerance:g}); "
                         f"column at index {tuple(int(i) for i in where)} has norm {actual:.6g} "
                         f"(off by {float(deviation[where]):.3g})")
    return jnp.asarray(arr)
