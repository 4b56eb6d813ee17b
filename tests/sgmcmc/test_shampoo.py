"""Shampoo metric (Yu et al. 2023, Sec. 3.2, A.9): Kronecker contractions, blocks, vectors, roots."""

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.sgmcmc import ShampooPreconditioner
from geobayes.sgmcmc.matrix_roots import inverse_root_eigh, inverse_root_newton
from geobayes.sgmcmc.shampoo import block_slices, merge_small_dims

EPS = 1e-3
LAM = 0.8


def _numpy_root(h, p, eps):
    """(H + eps lambda_max I)^(-1/p) in NumPy, independently of the library."""
    if h.shape[0] == 1:
        return np.ones((1, 1))
    ridged = h + eps * np.linalg.eigvalsh(h)[-1] * np.eye(h.shape[0])
    w, v = np.linalg.eigh(ridged)
    return (v * w ** (-1.0 / p)) @ v.T


def _contractions(g):
    return [np.tensordot(g, g, axes=(tuple(j for j in range(g.ndim) if j != i),) * 2) for i in range(g.ndim)]


def _run(preconditioner, gradients):
    """Statistics after one update per gradient (steps 1, 2, ...), compiled as one scan."""

    def body(state, step_and_gradient):
        step, g = step_and_gradient
        return preconditioner.update(state, {"p": g}, step), None

    steps = jnp.arange(1, len(gradients) + 1)
    scan = jax.jit(lambda state, gs: jax.lax.scan(body, state, (steps, gs))[0])
    return scan(preconditioner.init({"p": gradients[0]}), jnp.stack(gradients))


def _expected_statistics(gradients_merged):
    d = gradients_merged[0].ndim
    stats = [EPS * np.eye(n) for n in gradients_merged[0].shape]
    for g in gradients_merged:
        stats = [LAM * h + (1 - LAM) * c for h, c in zip(stats, _contractions(g))][:d]
    return stats


def test_merge_small_dims_matches_the_code():
    assert merge_small_dims((16, 3, 3, 3), 128) == (48, 9)
    assert merge_small_dims((32, 16, 3, 3), 128) == (32, 48, 3)
    assert merge_small_dims((64, 64, 3, 3), 128) == (64, 64, 9)
    assert merge_small_dims((400, 784), 128) == (400, 784)
    assert merge_small_dims((1, 10), 128) == (10,)
    assert merge_small_dims((), 128) == ()
    assert len(block_slices((400, 784), 128)) == 28


@pytest.mark.parametrize("shape, block_size", [((3, 4), 8), ((2, 3, 5), 6), ((3, 10), 4), ((5, 3, 2), 4)],
                         ids=["matrix", "merged", "blocked", "rank3-blocked"])
def test_kronecker_contraction_equals_explicit_kron(shape, block_size):
    preconditioner = ShampooPreconditioner(lam=LAM, eps=EPS, block_size=block_size, update_interval=1,
                                           first_preconditioner_step=1, root_method="eigh")
    gradients = [jax.random.normal(k, shape) for k in jax.random.split(jax.random.key(0), 5)]
    state = _run(preconditioner, gradients)
    x = jax.random.normal(jax.random.key(1), shape)
    drift = np.asarray(preconditioner.inverse(state, {"p": x})["p"])
    noise = np.asarray(preconditioner.inverse_sqrt(state, {"p": x})["p"])
    merged = merge_small_dims(shape, block_size)
    blocks = block_slices(merged, block_size)
    assert len(blocks) == len(state.statistics["p"])
    xm, drift_m, noise_m = (np.reshape(a, merged) for a in (x, drift, noise))
    for block in blocks:
        stats = _expected_statistics([np.reshape(g, merged)[block] for g in gradients])
        roots = [_numpy_root(h, 4 * len(merged), EPS) for h in stats]
        root_kron = list(itertools.accumulate(roots, np.kron))[-1]
        squared_kron = list(itertools.accumulate([r @ r for r in roots], np.kron))[-1]
        xb = xm[block].reshape(-1)  # row-major vec, matching kron(Q_1, ..., Q_d)
        np.testing.assert_allclose(drift_m[block].reshape(-1), squared_kron @ xb, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(noise_m[block].reshape(-1), root_kron @ xb, rtol=1e-9, atol=1e-12)


def test_vectors_and_scalars_get_identity_by_default():
    preconditioner = ShampooPreconditioner(lam=LAM, eps=EPS, update_interval=1, first_preconditioner_step=1)
    tree = {"b": jnp.arange(1.0, 6.0), "s": jnp.asarray(2.0), "c": jnp.ones((1, 4))}
    state = preconditioner.init(tree)
    state = preconditioner.update(state, tree, 1)
    for method in (preconditioner.inverse, preconditioner.inverse_sqrt):
        out = method(state, tree)
        for key in tree:
            np.testing.assert_array_equal(out[key], tree[key])


@pytest.mark.parametrize("root_method", ["eigh", "newton"])
def test_vector_with_full_factor_is_full_matrix_rmsprop(root_method):
    preconditioner = ShampooPreconditioner(lam=LAM, eps=EPS, update_interval=1, first_preconditioner_step=1,
                                           root_method=root_method, precondition_vectors=True)
    gradients = [jax.random.normal(k, (4,)) for k in jax.random.split(jax.random.key(2), 6)]
    state = _run(preconditioner, gradients)
    h = EPS * np.eye(4)
    for g in gradients:
        h = LAM * h + (1 - LAM) * np.outer(g, g)
    ridged = h + EPS * np.linalg.eigvalsh(h)[-1] * np.eye(4)
    w, v = np.linalg.eigh(ridged)
    g = np.asarray(gradients[-1])
    expected_drift = (v * w ** -0.5) @ v.T @ g  # G^{-1} g = H^{-1/2} g
    expected_noise = (v * w ** -0.25) @ v.T @ g  # G^{-1/2} = H^{-1/4}
    np.testing.assert_allclose(preconditioner.inverse(state, {"p": g})["p"], expected_drift, rtol=1e-6)
    np.testing.assert_allclose(preconditioner.inverse_sqrt(state, {"p": g})["p"], expected_noise, rtol=1e-6)


def test_roots_are_identity_before_first_preconditioner_step_and_refresh_on_schedule():
    preconditioner = ShampooPreconditioner(lam=LAM, eps=EPS, block_size=8, update_interval=3,
                                           first_preconditioner_step=4, root_method="eigh")
    gradients = [jax.random.normal(k, (3, 4)) for k in jax.random.split(jax.random.key(3), 8)]
    state = preconditioner.init({"p": gradients[0]})
    update = jax.jit(preconditioner.update)
    history = []
    for step, g in enumerate(gradients, start=1):
        state = update(state, {"p": g}, step)
        history.append(state.roots["p"][0][0])
    for step in (1, 2, 3):
        np.testing.assert_array_equal(history[step - 1], np.eye(3))
    assert not np.allclose(history[3], np.eye(3))  # step 4: first real preconditioner
    np.testing.assert_array_equal(history[4], history[3])  # frozen until step 7
    np.testing.assert_array_equal(history[5], history[3])
    assert not np.allclose(history[6], history[3])


@pytest.mark.parametrize("n, p", [(2, 4), (5, 8), (16, 8), (30, 12)])
def test_newton_roots_equal_eigh_roots(n, p):
    a = np.random.default_rng(n).normal(size=(n, n))
    h = jnp.asarray(a @ a.T / n + 1e-3 * np.eye(n))
    newton = jax.jit(inverse_root_newton, static_argnums=(1, 2))(h, p, 1e-6)
    eigh = inverse_root_eigh(h, p, 1e-6)
    np.testing.assert_allclose(newton, eigh, rtol=1e-6, atol=1e-6 * float(jnp.max(jnp.abs(eigh))))
    np.testing.assert_allclose(eigh, _numpy_root(np.asarray(h), p, 1e-6), rtol=1e-10, atol=1e-12)
