"""Diagonal metrics: RMSprop / pSGLD and Wenzel's layer-wise scaling (Yu et al. 2023, Sec. 2.1)."""

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.sgmcmc import RMSpropPreconditioner, WenzelPreconditioner, sgrld


def _gradients(n):
    keys = jax.random.split(jax.random.key(0), n)
    return [{"w": jax.random.normal(k, (3, 2)) * 2.0, "b": jax.random.normal(k, (2,)) * 0.1} for k in keys]


def test_rmsprop_uses_the_current_gradient_before_applying_it():
    rmsprop = RMSpropPreconditioner(lam=0.9, eps=1e-3)
    gradients = _gradients(3)
    state = rmsprop.init(gradients[0])
    for step, g in enumerate(gradients, start=1):
        state = rmsprop.update(state, g, step)
    v = sum(0.1 * 0.9 ** (2 - t) * np.asarray(g["w"]) ** 2 for t, g in enumerate(gradients))
    x = {"w": jnp.ones((3, 2)), "b": jnp.ones(2)}
    np.testing.assert_allclose(rmsprop.inverse(state, x)["w"], 1 / (np.sqrt(v) + 1e-3), rtol=1e-12)
    np.testing.assert_allclose(rmsprop.inverse_sqrt(state, x)["w"], 1 / np.sqrt(np.sqrt(v) + 1e-3), rtol=1e-12)


def test_wenzel_is_one_at_initialisation_and_the_formula_after_an_epoch():
    wenzel = WenzelPreconditioner(lam=0.99, eps=1e-8)
    gradients = _gradients(5)
    state = wenzel.init(gradients[0])
    x = {"w": jnp.arange(6.0).reshape(3, 2), "b": jnp.array([1.0, -2.0])}
    for method in (wenzel.inverse, wenzel.inverse_sqrt):
        out = method(state, x)
        for key in x:
            np.testing.assert_array_equal(out[key], x[key])
    for step, g in enumerate(gradients, start=1):
        state = wenzel.update(state, g, step)
        np.testing.assert_array_equal(wenzel.inverse(state, x)["w"], x["w"])  # frozen within the epoch
    state = wenzel.end_epoch(state)
    v = {k: np.ones(x[k].shape) for k in x}
    for g in gradients:
        v = {k: 0.99 * v[k] + 0.01 * np.asarray(g[k]) ** 2 for k in x}
    sigma2 = {k: v[k].mean() + 1e-8 for k in x}
    smallest = min(sigma2.values())
    for key in x:
        precond = (sigma2[key] / smallest) ** -0.5
        np.testing.assert_allclose(wenzel.inverse(state, x)[key], precond * np.asarray(x[key]), rtol=1e-12)
        np.testing.assert_allclose(wenzel.inverse_sqrt(state, x)[key], np.sqrt(precond) * np.asarray(x[key]),
                                   rtol=1e-12)
    assert min(float(s) for s in jax.tree.leaves(state.scale)) < 1.0 == max(float(s) for s in jax.tree.leaves(state.scale))


def test_wenzel_epoch_hook_through_the_algorithm():
    algorithm = sgrld(WenzelPreconditioner(), 1e-3, 100)
    state = algorithm.init({"w": jnp.zeros((3, 2)), "b": jnp.zeros(2)})
    for g in _gradients(4):
        state, _ = algorithm.step(jax.random.key(1), state, g)
    before = state.preconditioner_state.scale
    state = algorithm.end_epoch(state)
    assert all(float(s) == 1.0 for s in jax.tree.leaves(before))
    assert not all(float(s) == 1.0 for s in jax.tree.leaves(state.preconditioner_state.scale))
