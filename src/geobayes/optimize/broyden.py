"""Broyden's quasi-Newton root finder, as an Optimistix solver.

Broyden (1965), "A class of methods for solving nonlinear simultaneous equations", Math. Comp.
19(92), the "good" method: the inverse Jacobian ``H ~ (Df)^{-1}`` is carried from step to step
and corrected by the rank-one Sherman-Morrison update that makes it map the last change of
``f`` onto the last step,

``s = -H f(y)``, ``y <- y + s``, ``dy = f(y + s) - f(y)``,
``H <- H + (s - H dy) (s^T H) / (s^T H dy)``,

so a step costs one evaluation of ``f`` and O(D^2) arithmetic, where a Newton step builds the
D-column Jacobian (D forward passes) and factorises it (O(D^3)). Convergence is superlinear
near a root with a non-singular Jacobian when ``H`` starts close to its inverse. It is started
from the identity, which is exact where ``Df = I`` (Hartmann et al. 2026, Eq. (15): the
approximate log map's differential at its base point), or from a given matrix.

Far from the root a full quasi-Newton step can overshoot, and the method then wanders for
hundreds of steps. So each step is a backtracking line search on the residual (Dennis &
Schnabel 1996, "Numerical Methods for Unconstrained Optimization and Nonlinear Equations",
the line search of their globalised quasi-Newton methods for nonlinear equations):
``s = alpha d`` with ``d = -H f(y)`` and ``alpha`` halved from 1 until
``|f(y + s)|^2 <= (1 - 1e-4 alpha) |f(y)|^2``, at most ``halvings`` times (the last ``alpha`` is
taken if none passes: ``d`` need not be a descent direction of ``|f|^2``), and the update uses
the step taken. Each halving costs one more evaluation of ``f``; near the root the full step
passes at once. ``halvings = 0`` is the plain method.

It stops as Optimistix's Newton does (``optimistix.Newton`` with Cauchy termination): when the
last step is below ``atol + rtol |y|`` and ``|f|`` below ``atol`` (max norms), now at the new
point (Newton tests the point the step started from). A non-finite step or residual ends the
solve with ``RESULTS.nonlinear_divergence``; a vanishing denominator skips that update.
"""

from __future__ import annotations

from typing import Any, Callable

import equinox as eqx
import jax
import jax.numpy as jnp
import optimistix as optx
from jaxtyping import PyTree

__all__ = ["Broyden"]


class _BroydenState(eqx.Module):
    f: jax.Array
    inverse_jacobian: jax.Array
    diff: jax.Array
    step: jax.Array
    finite: jax.Array


def _check_vector(y: Any) -> jax.Array:
    if not (isinstance(y, jax.Array) or hasattr(y, "shape")) or jnp.ndim(y) != 1:
        raise ValueError(f"Broyden: the unknown must be one vector (shape (D,)); got {jax.tree.structure(y)} "
                         f"of shape {getattr(y, 'shape', None)}")
    return y


class Broyden(optx.AbstractRootFinder):
    """Broyden's "good" method (Broyden 1965) for ``f(y) = 0`` with ``y`` and ``f(y)`` vectors of one length.

    Parameters
    ----------
    rtol, atol : float
        Tolerances of the stop rule (module docstring), both > 0.
    initial_inverse_jacobian : jax.Array or None
        ``H_0``, shape (D, D); None (default) for the identity.
    halvings : int, default 6
        Most halvings of the step in its line search (module docstring), ``>= 0``; 0 takes every
        full step.
    norm : callable
        Norm of the stop rule; Optimistix's max norm.
    """

    rtol: float
    atol: float
    initial_inverse_jacobian: jax.Array | None = None
    halvings: int = eqx.field(default=6, static=True)
    norm: Callable[[PyTree], jax.Array] = optx.max_norm

    def __check_init__(self):
        for name in ("rtol", "atol"):
            if not getattr(self, name) > 0:
                raise ValueError(f"Broyden: {name} must be > 0, got {getattr(self, name)!r}")
        if isinstance(self.halvings, bool) or not isinstance(self.halvings, int) or self.halvings < 0:
            raise ValueError(f"Broyden: halvings must be an integer >= 0, got {self.halvings!r}")

    def init(self, fn, y, args, options, f_struct, aux_struct, tags) -> _BroydenState:
        del options, aux_struct, tags
        y = _check_vector(y)
        if f_struct.shape != y.shape:
            raise ValueError(f"Broyden: f must map a vector of shape {y.shape} to one of the same shape; "
                             f"got {f_struct.shape}")
        if self.initial_inverse_jacobian is None:
            inverse = jnp.eye(y.shape[0], dtype=y.dtype)
        else:
            inverse = jnp.asarray(self.initial_inverse_jacobian, dtype=y.dtype)
            if inverse.shape != (y.shape[0], y.shape[0]):
                raise ValueError(f"Broyden: initial_inverse_jacobian must have shape {(y.shape[0],) * 2}; "
                                 f"got {inverse.shape}")
        f, _ = fn(y, args)
        return _BroydenState(f=f, inverse_jacobian=inverse, diff=jnp.full_like(y, jnp.inf),
                             step=jnp.array(0), finite=jnp.all(jnp.isfinite(f)))

    def step(self, fn, y, args, options, state: _BroydenState, tags):
        del options, tags
        inverse = state.inverse_jacobian
        direction = -(inverse @ state.f)
        squared = jnp.sum(state.f ** 2)

        def insufficient(carry):
            count, alpha, f_trial, _ = carry
            return (count < self.halvings) & ~(jnp.sum(f_trial ** 2) <= (1.0 - 1e-4 * alpha) * squared)

        def halve(carry):
            count, alpha, _, _ = carry
            alpha = 0.5 * alpha
            f_trial, aux = fn(y + alpha * direction, args)
            return count + 1, alpha, f_trial, aux

        full, aux = fn(y + direction, args)
        _, alpha, new_f, aux = jax.lax.while_loop(insufficient, halve,
                                                  (jnp.array(0), jnp.ones((), y.dtype), full, aux))
        s = alpha * direction
        new_y = y + s
        df = new_f - state.f
        inverse_df = inverse @ df
        denominator = s @ inverse_df
        usable = jnp.abs(denominator) > jnp.finfo(denominator.dtype).tiny ** 0.5
        update = jnp.outer(s - inverse_df, s @ inverse) / jnp.where(usable, denominator, 1.0)
        new_inverse = jnp.where(usable, inverse + update, inverse)
        finite = jnp.all(jnp.isfinite(new_f)) & jnp.all(jnp.isfinite(new_y))
        return new_y, _BroydenState(f=new_f, inverse_jacobian=new_inverse, diff=s, step=state.step + 1,
                                    finite=finite), aux

    def terminate(self, fn, y, args, options, state: _BroydenState, tags):
        del fn, args, options, tags
        y_small = self.norm(jnp.abs(state.diff) / (self.atol + self.rtol * jnp.abs(y))) < 1
        f_small = self.norm(jnp.abs(state.f)) < self.atol
        diverged = ~state.finite
        result = optx.RESULTS.where(diverged, optx.RESULTS.nonlinear_divergence, optx.RESULTS.successful)
        return (y_small & f_small) | diverged, result

    def postprocess(self, fn, y, aux, args, options, state, tags, result):
        del fn, args, options, state, tags, result
        return y, aux, {}
