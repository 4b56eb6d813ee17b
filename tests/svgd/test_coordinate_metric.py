"""Metric quantities: autodiff in general, and the paper's BLR closed form (App. A7) against autodiff."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.svgd import blr_metric, blr_metric_quantities, metric_quantities


def _divergence_by_inverse_jacobian(metric_fn, x):
    """``sum_a d_a (G^{-1})_{ab}``, differentiating ``inv(G(x))`` directly (independent of the library)."""
    jac = jax.jacfwd(lambda y: jnp.linalg.inv(metric_fn(y)))(x)  # [a, b, c] = d_c Ginv_ab
    return jnp.einsum("aba->b", jac)


def test_autodiff_quantities_in_one_dimension():
    x = jnp.array([0.7])
    q = metric_quantities(lambda y: (1.0 + y @ y) * jnp.eye(1), x)
    np.testing.assert_allclose(q.inverse, [[1.0 / 1.49]], rtol=1e-13)
    np.testing.assert_allclose(q.grad_logdet, [1.4 / 1.49], rtol=1e-13)
    np.testing.assert_allclose(q.divergence, [-1.4 / 1.49**2], rtol=1e-13)


def test_autodiff_quantities_match_direct_derivatives():
    def metric_fn(y):
        a = jnp.array([jnp.sin(y[0]), y[1] * y[2], jnp.cos(y[2])])
        return jnp.eye(3) + jnp.outer(a, a) + jnp.diag(jnp.exp(0.3 * y))

    @jax.jit
    def both(x):
        direct = (jnp.linalg.inv(metric_fn(x)), jax.grad(lambda y: jnp.linalg.slogdet(metric_fn(y))[1])(x),
                  _divergence_by_inverse_jacobian(metric_fn, x))
        return metric_quantities(metric_fn, x), direct

    q, (inverse, grad_logdet, divergence) = both(jnp.array([0.3, -0.8, 1.1]))
    np.testing.assert_allclose(q.inverse, inverse, rtol=1e-12)
    np.testing.assert_allclose(q.grad_logdet, grad_logdet, rtol=1e-11)
    np.testing.assert_allclose(q.divergence, divergence, rtol=1e-11)


def test_blr_closed_form_matches_autodiff():
    kx, kw = jax.random.split(jax.random.PRNGKey(3))
    features = jax.random.normal(kx, (25, 4))
    alpha = 0.5
    metric_fn = partial(blr_metric, features=features, prior_variance=alpha)
    closed_fn = jax.jit(partial(blr_metric_quantities, features=features, prior_variance=alpha))
    auto_fn = jax.jit(partial(metric_quantities, metric_fn))
    for w in jax.random.normal(kw, (3, 4)):
        closed, auto = closed_fn(w), auto_fn(w)
        np.testing.assert_allclose(closed.inverse, auto.inverse, rtol=1e-11, atol=1e-14)
        np.testing.assert_allclose(closed.grad_logdet, auto.grad_logdet, rtol=1e-10, atol=1e-13)
        np.testing.assert_allclose(closed.divergence, auto.divergence, rtol=1e-10, atol=1e-13)
    # G(w) = sum_d c_d x_d x_d^T + I / alpha, written out
    w = jnp.array([0.2, -0.1, 0.4, 0.0])
    s = 1.0 / (1.0 + np.exp(-np.asarray(features @ w)))
    ref = sum(si * (1 - si) * np.outer(xd, xd) for si, xd in zip(s, np.asarray(features))) + np.eye(4) / alpha
    np.testing.assert_allclose(blr_metric(w, features, alpha), ref, rtol=1e-12)
