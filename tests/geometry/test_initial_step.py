"""The geodesic solve's first step (approximation.ode.initial_step): fewer steps, same draws.

Real data (standardised Ripley logistic regression, the pinned file) and a curved target (the
squiggle), real Diffrax solves. A first step of the whole interval must give the automatic
choice's draws to the ODE tolerance, in fewer solver steps where the geodesics are nearly
straight, and still succeed where the controller has to shrink it.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.data.logreg import load_logreg_raw, prepare_logreg
from geobayes.dataset import Dataset
from geobayes.geometry import OdeSettings
from geobayes.methods import get_method, method_config
from geobayes.models import LogisticRegression
from geobayes.optimize import find_map
from geobayes.posterior import Posterior
from geobayes.settings import SettingsError, from_mapping
from geobayes.targets.squiggle import Squiggle

N = 16


def _draws(posterior, mode, initial_step):
    options = {"ode": {"initial_step": initial_step}}
    fitted = get_method("rla_f").fit(posterior, method_config("rla_f", options), jax.random.PRNGKey(5), mode=mode)
    return fitted.approximation.sample(jax.random.PRNGKey(6), N)


@pytest.fixture(scope="module")
def ripley():
    features, labels = load_logreg_raw(mirror_file("logreg/ripley.npy"))
    prepared = prepare_logreg(features, labels, standardise=True)
    posterior = Posterior("ripley-logreg", LogisticRegression(), Dataset(prepared.X, prepared.y))
    estimate = find_map(lambda th, p: p.logdensity(th), posterior, posterior.dim, jax.random.PRNGKey(0), restarts=2)
    return posterior, jnp.asarray(estimate.position)


def test_a_whole_interval_first_step_gives_the_same_draws_in_fewer_steps(ripley):
    posterior, mode = ripley
    automatic = _draws(posterior, mode, None)
    whole = _draws(posterior, mode, 1.0)
    assert np.asarray(automatic.successful).all() and np.asarray(whole.successful).all()
    # rtol 1e-3 of the solve, on parameters of order 1-10
    np.testing.assert_allclose(np.asarray(whole.theta), np.asarray(automatic.theta), rtol=0, atol=1e-3)
    steps_automatic, steps_whole = np.asarray(automatic.num_steps), np.asarray(whole.num_steps)
    assert (steps_whole <= steps_automatic).all() and steps_whole.mean() <= steps_automatic.mean() - 1, (
        steps_automatic, steps_whole)


def test_the_controller_shrinks_a_first_step_that_is_too_long_on_a_curved_target():
    target = Squiggle(name="easy-squiggle", a=1.5, variances=(5.0, 0.05))
    mode = jnp.zeros(2)
    automatic = _draws(target, mode, None)
    whole = _draws(target, mode, 1.0)
    assert np.asarray(whole.successful).all()
    scale = float(np.max(np.abs(np.asarray(automatic.theta))))
    np.testing.assert_allclose(np.asarray(whole.theta), np.asarray(automatic.theta), rtol=0, atol=1e-2 * scale)


@pytest.mark.parametrize("value", [0.0, -0.5, 1.5])
def test_an_initial_step_outside_the_unit_interval_names_the_key(value):
    with pytest.raises(SettingsError, match=r"approximation\.ode.*initial_step.*\(0, 1\]"):
        from_mapping(OdeSettings, {"initial_step": value}, "approximation.ode")


def test_an_integer_initial_step_is_read_as_a_number():
    assert from_mapping(OdeSettings, {"initial_step": 1}, "approximation.ode").initial_step == 1.0
