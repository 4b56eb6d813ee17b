"""RSVGD on (products of) spheres: the closed form of Prop. 9 / Eq. (12) against autodiff of
Eq. (8) / Eq. (12), the Stein identity on exact vMF draws, convergence to vMF moments, the sign
of the score, the bandwidth choices and the step-size schedules (Liu & Zhu 2018)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.spheres import (
    median_bandwidth,
    normalize_columns,
    rsvgd_direction,
    rsvgd_field,
    rsvgd_step,
    rsvgd_update,
    run_rsvgd,
    step_size,
    tangent_project,
)
from geobayes.spheres import von_mises_fisher as vmf

MU = jnp.array([0.0, 0.0, 1.0])
KAPPA_TARGET = 10.0
E_T = float(vmf.mean_resultant_length_s2(KAPPA_TARGET))  # E[mu^T y] = 0.900
E_T2 = 1.0 - 2.0 * E_T / KAPPA_TARGET  # E[(mu^T y)^2] = 1 - 2 A(k)/k on S^2 = 0.820
SD_T = np.sqrt(E_T2 - E_T**2)  # 0.1
SD_T2 = 0.2  # bound on sd((mu^T y)^2) under vMF(10) (it is 0.17)


def vmf_score(y):
    return KAPPA_TARGET * jnp.broadcast_to(MU[:, None], y.shape)


def uniform_particles(key, num, n=3, columns=1):
    return normalize_columns(jax.random.normal(key, (num, n, columns)))


# --- closed form == autodiff of the paper's f_hat -------------------------------------------

def f_hat_eq8(y_prime, particles, scores, kappa):
    """Eq. (8) for one sphere with K(y, y') = exp(kappa (y^T y' - 1)), derivatives by autodiff."""
    n = particles.shape[1]

    def one(y, g):
        kern = lambda a: jnp.exp(kappa * (a @ y_prime - 1.0))  # noqa: E731
        grad_k = jax.grad(kern)(y)
        hess_k = jax.hessian(kern)(y)
        return (g @ grad_k + jnp.trace(hess_k) - y @ hess_k @ y
                - (y @ g + n - 1.0) * (y @ grad_k))

    return jnp.mean(jax.vmap(one)(particles, scores))


def f_hat_eq12(y_prime, particles, scores, kappas):
    """Eq. (12) (Hessian of log K_k, the corrected typo) with autodiff of log K_k."""
    n = particles.shape[1]

    def one(y, g):
        total, log_kern = 0.0, 0.0
        for k, kappa in enumerate(kappas):
            log_k = lambda a, k=k, kappa=kappa: kappa * (a @ y_prime[:, k] - 1.0)  # noqa: E731
            yk, gk = y[:, k], g[:, k]
            d = jax.grad(log_k)(yk)
            h = jax.hessian(log_k)(yk)
            total += (gk @ d + jnp.trace(h) - yk @ h @ yk + d @ d - (yk @ d) ** 2
                      - (yk @ gk + n - 1.0) * (yk @ d))
            log_kern += log_k(yk)
        return jnp.exp(log_kern) * total

    return jnp.mean(jax.vmap(one)(particles, scores))


def test_closed_form_matches_autodiff_of_eq8():
    key = jax.random.key(0)
    particles = uniform_particles(key, 7, n=4)
    scores = jax.random.normal(jax.random.key(1), particles.shape) * 3.0  # any scores
    points = uniform_particles(jax.random.key(2), 5, n=4)
    kappa = 1.7
    closed = rsvgd_field(points, particles, scores, jnp.array([kappa]))
    grad_fn = jax.jit(jax.vmap(jax.grad(f_hat_eq8), in_axes=(0, None, None, None)))
    y_prime = points[:, :, 0]
    grad = grad_fn(y_prime, particles[:, :, 0], scores[:, :, 0], kappa)
    expected = grad - y_prime * jnp.sum(y_prime * grad, 1, keepdims=True)  # (I - y'y'^T) grad'
    np.testing.assert_allclose(closed[:, :, 0], expected, rtol=1e-11, atol=1e-12)


def test_closed_form_matches_autodiff_of_eq12_for_two_spheres():
    particles = uniform_particles(jax.random.key(3), 6, n=3, columns=2)
    scores = jax.random.normal(jax.random.key(4), particles.shape) * 2.0
    points = uniform_particles(jax.random.key(5), 4, n=3, columns=2)
    kappas = (0.8, 2.5)
    closed = rsvgd_field(points, particles, scores, jnp.array(kappas))
    grad_fn = jax.jit(jax.vmap(jax.grad(lambda p, y, g: f_hat_eq12(p, y, g, kappas)),
                               in_axes=(0, None, None)))
    grad = grad_fn(points, particles, scores)
    np.testing.assert_allclose(closed, tangent_project(points, grad), rtol=1e-11, atol=1e-12)


# --- Stein identity (notes Sec. 1.6, "Checks I ran") ------------------------------------------

def stein_z_scores(kappa_q, num=20_000):
    """|mean| / standard error of the field's per-particle terms at 8 fixed points."""
    draws = vmf.sample(jax.random.key(6), MU, kappa_q, num)[:, :, None]
    scores = vmf_score(draws)
    points = uniform_particles(jax.random.key(7), 8)
    terms = jax.jit(jax.vmap(lambda y, g: rsvgd_field(points, y[None], g[None], jnp.ones(1))))(
        draws, scores)  # (num, 8, 3, 1): the field is their mean
    mean, se = np.asarray(terms.mean(0)), np.asarray(terms.std(0)) / np.sqrt(num)
    mask = se > 1e-12  # components killed by the projection are exactly 0
    return np.abs(mean[mask]) / se[mask], np.linalg.norm(mean, axis=1).mean()


def test_stein_identity_on_exact_target_draws():
    z, norm = stein_z_scores(KAPPA_TARGET)
    # 16 tangent components; |z| < 4.5 for all of them fails with probability ~1e-4.
    assert z.max() < 4.5, (z.max(), norm)


@pytest.mark.parametrize("kappa_q", [5.0, 20.0])
def test_field_is_non_zero_off_target(kappa_q):
    z, norm = stein_z_scores(kappa_q)
    assert z.max() > 20.0 and norm > 0.1, (z.max(), norm)


# --- convergence and sign ---------------------------------------------------------------------

N = 200


def moment_errors(particles):
    t = np.asarray(particles[:, :, 0] @ MU)
    return abs(t.mean() - E_T), abs((t**2).mean() - E_T2)


def test_rsvgd_fixed_kappa_reaches_vmf_moments():
    """Notes: N=200, kappa=5, eps=0.01, 3000 iterations gave E[mu^T y] = 0.905 (exact 0.900).

    Here eps=0.02 for 1000 iterations from uniform particles; the tolerance is 3 standard
    errors of an i.i.d. sample of size N (the deterministic particles do at least as well)."""
    out = run_rsvgd(uniform_particles(jax.random.key(8), N), vmf_score, 1000, eps0=0.02,
                    bandwidth=5.0)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-12, rtol=0)
    err_t, err_t2 = moment_errors(out)
    assert err_t < 3 * SD_T / np.sqrt(N), err_t
    assert err_t2 < 3 * SD_T2 / np.sqrt(N), err_t2


def test_rsvgd_concentrates_on_mu_and_the_sign_matters():
    """+grad log p pulls the particles to mu; feeding grad U (the sign slip of the SAM code
    snapshot, notes Sec. 5.4 F) sends them to -mu."""
    init = uniform_particles(jax.random.key(9), 100)
    right = run_rsvgd(init, vmf_score, 300, eps0=0.02, bandwidth=5.0)
    wrong = run_rsvgd(init, lambda y: -vmf_score(y), 300, eps0=0.02, bandwidth=5.0)
    direction = lambda p: normalize_columns(p.mean(0))[:, 0]  # noqa: E731
    assert float(direction(right) @ MU) > 0.999
    assert float(direction(wrong) @ MU) < -0.999
    assert float(jnp.mean(right[:, :, 0] @ MU)) > 0.85


def test_rsvgd_step_matches_update_and_schedule():
    init = uniform_particles(jax.random.key(10), 20)
    scores = jax.vmap(vmf_score)(init)
    stepped = rsvgd_step(init, vmf_score, 3, eps0=0.1, schedule="decay", bandwidth=2.0)
    eps = 0.1 / (3 + 1 + 1) ** 0.7
    np.testing.assert_allclose(stepped, rsvgd_update(init, scores, eps, bandwidth=2.0),
                               atol=1e-14)
    assert np.isclose(float(step_size("decay", 1.0, 0)), 2.0**-0.7)  # t starts at 2
    assert float(step_size("fixed", 0.3, 17)) == 0.3


def test_decaying_schedule_run_moves_towards_target():
    init = uniform_particles(jax.random.key(11), 100)
    out = run_rsvgd(init, vmf_score, 200, eps0=0.1, schedule="decay", bandwidth=5.0)
    assert float(jnp.mean(out[:, :, 0] @ MU)) > float(jnp.mean(init[:, :, 0] @ MU)) + 0.5


# --- bandwidths -----------------------------------------------------------------------------

def test_summed_kernels_sum_the_directions():
    init = uniform_particles(jax.random.key(12), 15, columns=2)
    scores = jax.random.normal(jax.random.key(13), init.shape)
    summed = rsvgd_direction(init, scores, [1.0, jnp.array([2.0, 3.0])])
    parts = (rsvgd_field(init, init, scores, jnp.array([1.0, 1.0]))
             + rsvgd_field(init, init, scores, jnp.array([2.0, 3.0])))
    np.testing.assert_allclose(summed, parts, atol=1e-12)


def test_median_bandwidth_matches_its_formula():
    init = uniform_particles(jax.random.key(14), 11, n=5, columns=3)
    y = np.asarray(init)
    expected = []
    for k in range(3):
        c = [y[i, :, k] @ y[j, :, k] for i in range(11) for j in range(i + 1, 11)]
        expected.append(np.log(10) / (1 - np.median(c)))
    np.testing.assert_allclose(median_bandwidth(init), expected, rtol=1e-12)
    scores = jax.random.normal(jax.random.key(15), init.shape)
    np.testing.assert_allclose(
        rsvgd_direction(init, scores, "median"),
        rsvgd_field(init, init, scores, jnp.asarray(expected)), atol=1e-10)


def test_median_bandwidth_run_reaches_vmf_moments():
    """Median-adaptive kappa with a small fixed step (the notes' fixed-eps run diverged with a
    larger step); N=100, same 3-standard-error tolerance as above."""
    out = run_rsvgd(uniform_particles(jax.random.key(16), 100), vmf_score, 800, eps0=0.005,
                    bandwidth="median")
    assert np.all(np.isfinite(out))
    err_t, _ = moment_errors(out)
    assert err_t < 3 * SD_T / np.sqrt(100), err_t


# --- product of spheres -----------------------------------------------------------------------

def test_product_of_two_spheres_with_different_targets():
    mus = jnp.stack([MU, jnp.array([1.0, 0.0, 0.0])], axis=1)
    kappas = jnp.array([10.0, 3.0])
    out = run_rsvgd(uniform_particles(jax.random.key(17), N, columns=2),
                    lambda y: vmf.score(y, mus, kappas), 1000, eps0=0.03, bandwidth=3.0)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-12, rtol=0)
    for k, kappa in enumerate([10.0, 3.0]):
        t = np.asarray(out[:, :, k] @ mus[:, k])
        exact = float(vmf.mean_resultant_length_s2(kappa))
        sd = np.sqrt(1.0 - 2.0 * exact / kappa - exact**2)
        assert abs(t.mean() - exact) < 3 * sd / np.sqrt(N), (k, t.mean(), exact)
