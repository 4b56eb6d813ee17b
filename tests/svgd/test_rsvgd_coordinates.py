"""Coordinate-space RSVGD (Liu & Zhu 2018, Eq. (6)): closed form vs autodiff of Eq. (6), errors."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.svgd import MetricQuantities, metric_quantities, rsvgd_direction, svgd_direction


def _metric(y):
    """A non-constant SPD metric on R^3."""
    a = jnp.array([jnp.sin(y[0]) + y[2], y[1] * y[0], jnp.cos(y[2])])
    return jnp.eye(3) + jnp.outer(a, a) + jnp.diag(jnp.exp(0.3 * y))


_quantities = jax.jit(jax.vmap(partial(metric_quantities, _metric)))


def _log_pi(y):
    return -0.5 * jnp.sum((y - 0.2) ** 2 * jnp.array([1.0, 2.0, 0.5])) + 0.1 * jnp.sin(y[0] * y[1])


_HS = (0.5, 2.0)


@jax.jit
def _eq6_by_autodiff(particles, points, code_weight):
    """``X(x') = G(x')^{-1} grad_{x'} f_hat(x')`` with f_hat of Eq. (6), every derivative by JAX.

    ``log(p sqrt|G|)`` is ``log pi`` (``code_weight = 0``, the paper's convention) or
    ``log pi + log|G| / 2`` (``code_weight = 1``, the official code's).
    """
    hs = _HS

    def log_p_sqrt_det(y):
        return _log_pi(y) + code_weight * 0.5 * jnp.linalg.slogdet(_metric(y))[1]

    def inverse(y):
        return jnp.linalg.inv(_metric(y))

    def kernel(xj, xp):
        return sum(jnp.exp(-jnp.sum((xj - xp) ** 2) / (2.0 * h)) for h in hs)

    def term(xj, xp):
        g_inv = inverse(xj)
        d_inv = jax.jacfwd(inverse)(xj)  # [a, b, c] = d_c g^{ab}
        coefficient = g_inv @ jax.grad(log_p_sqrt_det)(xj) + jnp.einsum("aba->b", d_inv)
        dk = jax.grad(kernel)(xj, xp)
        ddk = jax.hessian(kernel)(xj, xp)
        return coefficient @ dk + jnp.sum(g_inv * ddk)

    def f_hat(xp):
        return jnp.mean(jax.vmap(term, in_axes=(0, None))(particles, xp))

    return jax.vmap(lambda xp: inverse(xp) @ jax.grad(f_hat)(xp))(points)


@pytest.mark.slow  # compiling third derivatives of the reference
@pytest.mark.parametrize("convention", ["paper", "code"])
def test_closed_form_matches_autodiff_of_eq6(convention):
    kx, kp = jax.random.split(jax.random.PRNGKey(0))
    particles = 0.8 * jax.random.normal(kx, (7, 3))
    points = jnp.concatenate([particles[:3], 0.8 * jax.random.normal(kp, (3, 3))])
    hs = _HS
    quantities = _quantities(particles)
    at_points = _quantities(points)
    grads = jax.jit(jax.vmap(jax.grad(_log_pi)))(particles)
    closed = rsvgd_direction(particles, grads, quantities, hs, convention, points, at_points.inverse)
    reference = _eq6_by_autodiff(particles, points, 1.0 if convention == "code" else 0.0)
    scale = float(jnp.max(jnp.abs(reference)))
    assert scale > 1e-2
    np.testing.assert_allclose(closed, reference, rtol=1e-8, atol=1e-8 * scale)
    # evaluation at the particles themselves is the default
    np.testing.assert_allclose(rsvgd_direction(particles, grads, quantities, hs, convention)[:3], closed[:3],
                               rtol=1e-12)


def test_rsvgd_with_identity_metric_is_not_svgd():
    """The curl-free kernel of RSVGD differs from SVGD's K I_m even for G = I (notes Sec. 1.3)."""
    x = jax.random.normal(jax.random.PRNGKey(1), (5, 2))
    scores = -x
    identity = MetricQuantities(jnp.broadcast_to(jnp.eye(2), (5, 2, 2)), jnp.zeros((5, 2)), jnp.zeros((5, 2)))
    rsvgd = rsvgd_direction(x, scores, identity, (1.0,))
    svgd = svgd_direction(x, scores, (1.0,))
    assert float(jnp.max(jnp.abs(rsvgd - svgd))) > 1e-2


def test_errors_are_one_line():
    x = jnp.zeros((2, 1)) + jnp.array([[0.0], [1.0]])
    q = MetricQuantities(jnp.ones((2, 1, 1)), jnp.zeros((2, 1)), jnp.zeros((2, 1)))
    with pytest.raises(ValueError) as info:
        rsvgd_direction(x, -x, q, (1.0,), "lebesgue")
    assert "\n" not in str(info.value) and "density_convention" in str(info.value) and "'paper'" in str(info.value)
    with pytest.raises(ValueError) as info:
        rsvgd_direction(x, -x, q, (1.0,), "paper", evaluation_points=x)
    assert "\n" not in str(info.value) and "evaluation_inverse" in str(info.value)
    with pytest.raises(ValueError) as info:
        rsvgd_direction(x, -x, q, (1.0, -1.0))
    assert "\n" not in str(info.value) and "bandwidth" in str(info.value)
