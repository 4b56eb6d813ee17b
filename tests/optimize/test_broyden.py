"""Broyden's quasi-Newton root finder (geobayes.optimize.broyden; Broyden 1965) inside Optimistix."""

import jax
import jax.numpy as jnp
import numpy as np
import optimistix as optx
import pytest

from geobayes.optimize.broyden import Broyden

jax.config.update("jax_enable_x64", True)


def _system(y, args):
    """A nonlinear system with D f = I at 0 (as the approximate log map at its base) and the root
    ``y*`` of ``y + 0.3 tanh(A y) = b``: strongly monotone, so the root is unique."""
    a, b = args
    return y + 0.3 * jnp.tanh(a @ y) - b


def _problem(d=6, seed=0):
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    a = jnp.asarray(q @ np.diag(rng.uniform(0.5, 2.0, d)) @ q.T)  # symmetric positive definite
    b = jnp.asarray(rng.standard_normal(d))
    return a, b


def test_broyden_finds_newtons_root_in_more_but_jacobian_free_steps():
    args = _problem()
    y0 = jnp.zeros(6)
    newton = optx.root_find(_system, optx.Newton(rtol=1e-10, atol=1e-10), y0, args=args, max_steps=100)
    broyden = optx.root_find(_system, Broyden(rtol=1e-10, atol=1e-10), y0, args=args, max_steps=100)
    assert broyden.result == optx.RESULTS.successful
    np.testing.assert_allclose(broyden.value, newton.value, rtol=0, atol=1e-9)
    assert float(jnp.max(jnp.abs(_system(broyden.value, args)))) < 1e-10
    assert int(newton.stats["num_steps"]) < int(broyden.stats["num_steps"]) < 40
    # the plain iteration y <- y - f(y) (the start H = I, never updated) needs many more steps
    fixed = optx.fixed_point(lambda y, args: y - _system(y, args), optx.FixedPointIteration(rtol=1e-10, atol=1e-10),
                             y0, args=args, max_steps=1000, throw=False)
    assert int(fixed.stats["num_steps"]) > 2 * int(broyden.stats["num_steps"])


def test_broyden_is_exact_in_one_step_on_an_affine_system_started_from_its_inverse_jacobian():
    a, b = _problem(seed=1)
    matrix = jnp.eye(6) + 0.3 * a

    def affine(y, args):
        return matrix @ y - b

    sol = optx.root_find(affine, Broyden(rtol=1e-12, atol=1e-12, initial_inverse_jacobian=jnp.linalg.inv(matrix)),
                         jnp.zeros(6), max_steps=5)
    np.testing.assert_allclose(sol.value, jnp.linalg.solve(matrix, b), rtol=0, atol=1e-12)
    assert int(sol.stats["num_steps"]) <= 2  # the exact step, then the stop rule's confirming step


def test_broyden_reports_the_step_cap_and_divergence_without_raising():
    args = _problem()
    capped = optx.root_find(_system, Broyden(rtol=1e-12, atol=1e-12), jnp.zeros(6), args=args, max_steps=2,
                            throw=False)
    assert capped.result == optx.RESULTS.nonlinear_max_steps_reached  # as Newton reports it
    nonfinite = optx.root_find(lambda y, args: jnp.log(y) - 1.0, Broyden(rtol=1e-8, atol=1e-8), -jnp.ones(3),
                               max_steps=10, throw=False)
    assert nonfinite.result == optx.RESULTS.nonlinear_divergence
    assert int(nonfinite.stats["num_steps"]) == 0


def test_broyden_runs_under_vmap_with_per_sample_steps():
    a, _ = _problem()
    targets = jnp.asarray(np.random.default_rng(2).standard_normal((5, 6))) * jnp.arange(1, 6)[:, None]

    def one(b):
        sol = optx.root_find(_system, Broyden(rtol=1e-10, atol=1e-10), jnp.zeros(6), args=(a, b), max_steps=100)
        return sol.value, sol.stats["num_steps"]

    roots, steps = jax.jit(jax.vmap(one))(targets)
    for root, b in zip(roots, targets):
        assert float(jnp.max(jnp.abs(_system(root, (a, b))))) < 1e-10
    assert len(set(np.asarray(steps).tolist())) > 1  # each sample stops at its own step


@pytest.mark.parametrize("kwargs, match", [
    ({"rtol": 0.0, "atol": 1e-8}, "Broyden: rtol must be > 0"),
    ({"rtol": 1e-8, "atol": -1.0}, "Broyden: atol must be > 0"),
])
def test_broyden_refuses_bad_tolerances_in_one_line(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Broyden(**kwargs)


def test_broyden_refuses_a_non_square_system_or_a_misshapen_start_matrix_in_one_line():
    with pytest.raises(ValueError, match=r"f must map a vector of shape \(3,\) to one of the same shape; got \(2,\)"):
        optx.root_find(lambda y, args: y[:2], Broyden(rtol=1e-8, atol=1e-8), jnp.zeros(3), max_steps=5)
    with pytest.raises(ValueError, match=r"initial_inverse_jacobian must have shape \(3, 3\); got \(2, 2\)"):
        optx.root_find(lambda y, args: y, Broyden(rtol=1e-8, atol=1e-8, initial_inverse_jacobian=jnp.eye(2)),
                       jnp.zeros(3), max_steps=5)
    with pytest.raises(ValueError, match=r"the unknown must be one vector \(shape \(D,\)\)"):
        optx.root_find(lambda y, args: y, Broyden(rtol=1e-8, atol=1e-8), jnp.zeros((2, 2)), max_steps=5)
