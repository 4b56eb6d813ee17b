"""The Jacobian of the exponential map in its velocity, by the geodesic's variational equations."""

from __future__ import annotations

import diffrax
import jax
import jax.numpy as jnp
import optimistix as optx

from geobayes.geometry.exponential_map import _SOLVERS, OdeSettings, _geodesic_vector_field

__all__ = ["exponential_map_jacobian"]


def _variational_vector_field(t, state, args):
    """``d/dt [(theta, v), (J_theta, J_v)] = [f(theta, v), Df(theta, v) (J_theta, J_v)]``.

    ``f`` is the geodesic vector field ``(v, -Gamma_theta(v, v))``; its derivative is applied to
    the ``D`` columns of the sensitivities by one linearisation and a ``vmap`` of its JVP.
    """
    primal, (sensitivity_theta, sensitivity_v) = state
    field, push = jax.linearize(lambda y: _geodesic_vector_field(t, y, args), primal)
    pushed = jax.vmap(lambda dt, dv: push((dt, dv)), in_axes=(1, 1), out_axes=1)(sensitivity_theta, sensitivity_v)
    return field, pushed


def _primal_rms_norm(error):
    """The controller's error norm over the geodesic's own state only, so that the steps are the shot's."""
    return optx.rms_norm(error[0])


def exponential_map_jacobian(metric, posterior, base_point: jax.Array, velocity: jax.Array,
                             ode: OdeSettings) -> tuple[jax.Array, jax.Array]:
    """``d Exp_{base_point}(v) / d v`` and ``Exp_{base_point}(v)``, by the variational equations.

    The geodesic IVP (Yu et al. 2024, Eq. (1), Supp. 12) is integrated together with its
    sensitivities ``J_theta = d theta(t) / d v`` and ``J_v = d theta'(t) / d v``
    (``J_theta(0) = 0``, ``J_v(0) = I``), the Jacobi fields of the geodesic, by the same
    Runge-Kutta method. The step-size controller measures the error of the geodesic's state only,
    so the steps are those of the plain shot (:func:`~geobayes.geometry.exponential_map.solve_geodesic`)
    and the result is the derivative of the discrete scheme along them, less the steps' own
    dependence on ``v`` (an ``O(tolerance)`` term: on Yu et al.'s raw-input Snelson network,
    ``D = 31`` and 2,980 steps, the two differed by 5e-13 against entries up to 0.93).

    A forward-mode ``jax.jacfwd`` of the whole solve (``diffrax.ForwardMode``) gives the same
    matrix, but differentiates the solver's machinery too (controller, error norms, step sizes):
    on that network it took 46 times the shot where this takes about 10
    (``benchmarks/bench_log_map_jacobian.py``).

    Parameters
    ----------
    metric, posterior
        The Riemannian metric and the target it is built on (as for
        :func:`~geobayes.geometry.exponential_map.exponential_map`).
    base_point, velocity : jax.Array
        ``(D,)`` base point and initial velocity.
    ode : OdeSettings
        Solver, tolerances and step cap of the shot.

    Returns
    -------
    (jax.Array, jax.Array)
        The ``(D, D)`` Jacobian and the ``(D,)`` endpoint; both NaN where the solve failed.
    """
    base_point, velocity = jnp.asarray(base_point), jnp.asarray(velocity)
    if velocity.ndim != 1 or base_point.shape != velocity.shape:
        raise ValueError("exponential_map_jacobian: base_point and velocity must both have shape (D,), got "
                         f"{base_point.shape} and {velocity.shape}")
    dim = velocity.shape[0]
    zero = jnp.zeros((dim, dim), velocity.dtype)
    solution = diffrax.diffeqsolve(
        diffrax.ODETerm(_variational_vector_field),
        _SOLVERS[ode.solver](),
        t0=0.0,
        t1=1.0,
        dt0=ode.initial_step,
        y0=((base_point, velocity), (zero, jnp.eye(dim, dtype=velocity.dtype))),
        args=(metric, posterior),
        stepsize_controller=diffrax.PIDController(rtol=ode.rtol, atol=ode.atol, norm=_primal_rms_norm),
        saveat=diffrax.SaveAt(t1=True),
        max_steps=ode.max_steps,
        throw=False,
        adjoint=diffrax.ForwardMode(),  # a plain while_loop: nothing here is differentiated in reverse mode
    )
    ok = solution.result == diffrax.RESULTS.successful
    (endpoint, _), (jacobian, _) = jax.tree_util.tree_map(lambda leaf: leaf[-1], solution.ys)
    return jnp.where(ok, jacobian, jnp.nan), jnp.where(ok, endpoint, jnp.nan)
