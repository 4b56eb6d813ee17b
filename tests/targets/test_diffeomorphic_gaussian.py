"""Properties every closed-form target shares (Yu et al. 2024, Theorem 3).

``theta = phi(psi)``, ``psi ~ N(0, diag S)``: the density is the change-of-variables density,
the Fisher metric the pullback ``J^T S^{-1} J`` of ``S^{-1}`` by ``psi = phi^{-1}``, and at the
Hausdorff MAP ``phi(0)`` the negative Hessian equals the Fisher metric. Every closed form is
checked against an independent computation (autodiff of the maps, scipy densities).
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.stats

from geobayes.geometry import christoffel_contraction
from geobayes.targets import Funnel, IsotropicGaussian, Squiggle

TARGETS = {
    "gaussian_3d": IsotropicGaussian("gaussian_3d", 3),
    "squiggle": Squiggle("squiggle"),
    "squiggle_difficult": Squiggle("squiggle_difficult", variances=(10.0, 0.001)),
    "funnel": Funnel("funnel"),
}


def _points(target, seed: int, count: int = 4) -> np.ndarray:
    """Test points spread over the bulk of the target (exact draws, so the funnel's neck too)."""
    return np.asarray(target.sample_exact(jax.random.PRNGKey(seed), count))


@eqx.filter_jit
def _derived(target, theta, v):
    """Every quantity under test and its independent counterpart, in one compiled call."""
    jac_autodiff = jax.jacfwd(target.to_gaussian)(theta)
    fisher_from_jac = jac_autodiff.T @ jnp.diag(1.0 / target.gaussian_variances) @ jac_autodiff
    return {
        "jac": (target.to_gaussian_jacobian(theta), jac_autodiff),
        "logdet": (
            target.log_abs_det_jacobian(theta),
            jnp.linalg.slogdet(jac_autodiff)[1],
        ),
        "fisher": (target.fisher(theta), fisher_from_jac),
        "christoffel": (
            target.fisher_christoffel(theta, v),
            christoffel_contraction(target.fisher, theta, v),
        ),
    }


@pytest.mark.parametrize("name", TARGETS)
def test_closed_forms_equal_autodiff(name):
    target = TARGETS[name]
    rng = np.random.default_rng(1)
    for theta in _points(target, 2):
        v = rng.normal(size=target.dim)
        for quantity, (closed, reference) in _derived(target, jnp.asarray(theta), v).items():
            scale = max(1.0, float(jnp.max(jnp.abs(reference))))
            np.testing.assert_allclose(
                closed, reference, rtol=1e-10, atol=1e-10 * scale, err_msg=quantity
            )


@pytest.mark.parametrize("name", TARGETS)
def test_logdensity_is_change_of_variables_density(name):
    """``log pi(phi(psi)) + log |det D phi(psi)| = log N(psi; 0, S)`` at random ``psi``.

    The right side is scipy's; ``D phi`` is autodiff of :meth:`from_gaussian`, independent of
    the closed-form ``d psi / d theta`` that :meth:`logdensity` uses.
    """
    target = TARGETS[name]
    variances = np.asarray(target.gaussian_variances)
    psis = np.random.default_rng(3).normal(size=(5, target.dim)) * np.sqrt(variances)

    @jax.jit
    def pushed_forward(psi):
        theta = target.from_gaussian(psi)
        log_det_dphi = jnp.linalg.slogdet(jax.jacfwd(target.from_gaussian)(psi))[1]
        return target.logdensity(theta) + log_det_dphi

    for psi in psis:
        gaussian = scipy.stats.multivariate_normal(np.zeros(target.dim), np.diag(variances))
        expected = gaussian.logpdf(psi)
        np.testing.assert_allclose(pushed_forward(jnp.asarray(psi)), expected, rtol=1e-12)
        # phi and psi are inverse to each other.
        np.testing.assert_allclose(
            target.to_gaussian(target.from_gaussian(jnp.asarray(psi))), psi, rtol=1e-12, atol=1e-12
        )


def _hausdorff_objective(target, theta):
    """``log pi - 1/2 log det G`` (Yu et al. 2024, Sec. 4.3.1)."""
    return target.logdensity(theta) - 0.5 * jnp.linalg.slogdet(target.fisher(theta))[1]


@eqx.filter_jit
def _at_hausdorff_map(target):
    mode = target.hausdorff_map()
    return {
        "mode": mode,
        "fisher": target.fisher(mode),
        "hessian": target.hessian(mode),
        "objective_grad": jax.grad(_hausdorff_objective, argnums=1)(target, mode),
        "objective_hessian": jax.hessian(_hausdorff_objective, argnums=1)(target, mode),
    }


@pytest.mark.parametrize("name", TARGETS)
def test_fisher_equals_negative_hessian_at_hausdorff_map(name):
    """Theorem 3 of Yu et al. (2024): at the Hausdorff MAP ``-nabla^2 log pi = G``."""
    target = TARGETS[name]
    at_mode = _at_hausdorff_map(target)
    np.testing.assert_array_equal(at_mode["mode"], np.zeros(target.dim))
    fisher = np.asarray(at_mode["fisher"])
    np.testing.assert_allclose(-np.asarray(at_mode["hessian"]), fisher, rtol=1e-12, atol=1e-12)
    assert np.min(np.linalg.eigvalsh(fisher)) > 0


@pytest.mark.parametrize("name", TARGETS)
def test_hausdorff_map_maximises_hausdorff_objective(name):
    """``log pi - 1/2 log det G`` has zero gradient and a negative definite Hessian at
    :meth:`hausdorff_map`."""
    at_mode = _at_hausdorff_map(TARGETS[name])
    np.testing.assert_allclose(at_mode["objective_grad"], 0.0, atol=1e-12)
    assert np.max(np.linalg.eigvalsh(at_mode["objective_hessian"])) < 0


def test_metric_is_not_the_negative_hessian_away_from_the_mode():
    """The equality above is special to the Hausdorff MAP (so the test above can fail)."""
    target = TARGETS["funnel"]
    theta = jnp.array([1.0, 0.5])
    difference = jax.jit(lambda t, x: t.fisher(x) + t.hessian(x))(target, theta)
    assert np.max(np.abs(np.asarray(difference))) > 0.1


@pytest.mark.parametrize("name", TARGETS)
def test_targets_travel_through_jit(name):
    target = TARGETS[name]
    theta = jnp.asarray(_points(target, 4, 1)[0])
    eager = target.logdensity(theta)
    filter_jitted = eqx.filter_jit(lambda t, x: t.logdensity(x))(target, theta)
    np.testing.assert_allclose(filter_jitted, eager, rtol=1e-14)
    jitted = jax.jit(lambda t, x: t.fisher(x))(target, theta)
    np.testing.assert_allclose(jitted, target.fisher(theta), rtol=1e-14)


def test_squiggles_differing_in_their_parameters_share_one_program():
    """The squiggle's ``a`` and variances are array leaves, not static fields: under
    ``eqx.filter_jit`` (the methods' jit) two settings lower to the same program, which the
    persistent cache then shares, and each computes its own density. As static floats they were
    constants of the program: the lowered texts differed."""
    theta = jnp.array([0.7, -0.2])
    f = eqx.filter_jit(lambda t, x: t.logdensity(x))
    a = Squiggle("easy-squiggle", a=1.5, variances=(5.0, 0.05))
    b = Squiggle("difficult-squiggle", a=1.0, variances=(10.0, 0.001))
    assert f.lower(a, theta).as_text() == f.lower(b, theta).as_text()
    assert float(f(a, theta)) != float(f(b, theta))
    np.testing.assert_allclose(f(b, theta), b.logdensity(theta), rtol=1e-14)
    psi = np.array([0.7, -0.2 + np.sin(0.7)])
    np.testing.assert_allclose(f(b, theta), scipy.stats.multivariate_normal([0.0, 0.0], np.diag([10.0, 0.001])).logpdf(psi),
                               rtol=1e-13)


def test_bad_settings_raise_clear_errors():
    with pytest.raises(ValueError, match="variances"):
        Squiggle("sq", variances=(1.0, -1.0))
    with pytest.raises(ValueError, match="variances"):
        Squiggle("sq", variances=(1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="variances"):
        Squiggle("sq", variances="ab")
    with pytest.raises(ValueError, match="sq: a must be finite"):
        Squiggle("sq", a=float("nan"))
    with pytest.raises(ValueError, match="sigma"):
        Funnel("fn", sigma=0.0)
    with pytest.raises(ValueError, match="dim"):
        IsotropicGaussian("g", 0)
    with pytest.raises(ValueError, match="dim"):
        IsotropicGaussian("g", 2.5)
    with pytest.raises(ValueError, match=r"fn: theta must have shape \(2,\)"):
        Funnel("fn").logdensity(jnp.zeros(3))
    with pytest.raises(ValueError, match="number of exact samples"):
        Funnel("fn").sample_exact(jax.random.PRNGKey(0), 0)
