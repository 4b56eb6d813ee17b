"""The geodesic solve's first step (approximation.ode.initial_step): fewer steps, same endpoints.

Real data (standardised Ripley logistic regression, the pinned file) and a curved target (the
squiggle), real Diffrax solves of RLA-F's Fisher-metric geodesics. A first step of the whole
interval must give the automatic choice's endpoints to the ODE tolerance, in fewer solver steps
where the geodesics are nearly straight, and still succeed where the controller must shrink it.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.data.logreg import load_logreg_raw, prepare_logreg
from geobayes.dataset import Dataset
from geobayes.geometry import Fisher, OdeSettings, exponential_map
from geobayes.methods import method_config
from geobayes.models import LogisticRegression
from geobayes.posterior import Posterior
from geobayes.settings import SettingsError, from_mapping
from geobayes.targets.squiggle import Squiggle

N = 16


def _endpoints(target, mode, velocities, initial_step):
    return exponential_map(Fisher(), target, mode, velocities, OdeSettings(initial_step=initial_step))


@pytest.fixture(scope="module")
def ripley():
    """The posterior, its MAP (Newton: the log posterior is strictly concave) and N(0, H^-1) velocities."""
    features, labels = load_logreg_raw(mirror_file("logreg/ripley.npy"))
    prepared = prepare_logreg(features, labels, standardise=True)
    posterior = Posterior("ripley-logreg", LogisticRegression(), Dataset(prepared.X, prepared.y))
    step = jax.jit(lambda th: th - jnp.linalg.solve(posterior.hessian(th), posterior.grad(th)))
    mode = jnp.zeros(posterior.dim)
    for _ in range(30):
        mode = step(mode)
    covariance = np.linalg.inv(-np.asarray(posterior.hessian(mode)))
    noise = np.random.default_rng(5).normal(size=(N, posterior.dim))
    return posterior, mode, jnp.asarray(noise @ np.linalg.cholesky(covariance).T)


def test_a_whole_interval_first_step_gives_the_same_endpoints_in_fewer_steps(ripley):
    posterior, mode, velocities = ripley
    automatic = _endpoints(posterior, mode, velocities, None)
    whole = _endpoints(posterior, mode, velocities, 1.0)
    assert np.asarray(automatic.successful).all() and np.asarray(whole.successful).all()
    # rtol 1e-3 of the solve, on parameters of order 1
    np.testing.assert_allclose(np.asarray(whole.points), np.asarray(automatic.points), rtol=0, atol=1e-3)
    steps_automatic, steps_whole = np.asarray(automatic.num_steps), np.asarray(whole.num_steps)
    assert (steps_whole <= steps_automatic).all() and steps_whole.mean() <= steps_automatic.mean() - 1, (
        steps_automatic, steps_whole)


def test_the_controller_shrinks_a_first_step_that_is_too_long_on_a_curved_target():
    target = Squiggle(name="easy-squiggle", a=1.5, variances=(5.0, 0.05))
    velocities = jnp.asarray(np.random.default_rng(6).normal(size=(N, 2)) * np.sqrt([5.0, 0.05]))
    automatic = _endpoints(target, jnp.zeros(2), velocities, None)
    whole = _endpoints(target, jnp.zeros(2), velocities, 1.0)
    assert np.asarray(whole.successful).all()
    assert (np.asarray(whole.num_steps) > 1).any()  # some first steps were rejected and shrunk
    scale = float(np.max(np.abs(np.asarray(automatic.points))))
    np.testing.assert_allclose(np.asarray(whole.points), np.asarray(automatic.points), rtol=0, atol=1e-2 * scale)


def test_the_method_config_carries_the_initial_step_to_the_solver():
    assert method_config("rla_f", {"ode": {"initial_step": 1.0}}).ode.initial_step == 1.0
    assert method_config("rla_f").ode.initial_step is None


@pytest.mark.parametrize("value", [0.0, -0.5, 1.5])
def test_an_initial_step_outside_the_unit_interval_names_the_key(value):
    with pytest.raises(SettingsError, match=r"approximation\.ode.*initial_step.*\(0, 1\]"):
        from_mapping(OdeSettings, {"initial_step": value}, "approximation.ode")


def test_an_integer_initial_step_is_read_as_a_number():
    assert from_mapping(OdeSettings, {"initial_step": 1}, "approximation.ode").initial_step == 1.0
