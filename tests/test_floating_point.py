"""float32 as an explicit option of the approximation stage (geobayes.floating_point, config
``approximation.dtype``): float32 geodesics agree with float64 ones to the ODE tolerance.

JAX's normal draws from one key differ between the precisions (32 or 64 random bits), so the two are
compared through common tangent velocities: the float32 fit's velocities, cast, go through the float64
Exp map. A real posterior: the standardised Pima logistic regression (the pinned data file; Ripley agrees alike).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from data_mirror import mirror_file

from geobayes.data.logreg import load_logreg_raw, prepare_logreg
from geobayes.dataset import Dataset
from geobayes.floating_point import FLOAT_DTYPES, floating_point
from geobayes.geometry.exponential_map import exponential_map
from geobayes.methods import get_method, method_config
from geobayes.models import LogisticRegression
from geobayes.optimize import find_map
from geobayes.posterior import Posterior

RTOL = 1e-3  # approximation.ode.rtol of every shipped config
#: Largest difference float32 - float64 of an end point, relative to its distance from the MAP:
#: RLA-F's 3-step solves agree to float32 round-off (measured 1.5e-6); RLA-B's take 5-8 steps, each
#: within the controller's relative tolerance, and differ by up to 7.2e-3 (measured).
BOUNDS = {"rla_f": 1e-4, "rla_b": 20 * RTOL}


@pytest.fixture(scope="module")
def posterior() -> tuple[Posterior, np.ndarray]:
    """The standardised Pima posterior and its MAP."""
    prepared = prepare_logreg(*load_logreg_raw(mirror_file("logreg/pima.npy")), standardise=True)
    posterior = Posterior("pima-logreg", LogisticRegression(), Dataset(prepared.X, prepared.y))
    estimate = find_map(lambda theta, p: p.logdensity(theta), posterior, posterior.dim, jax.random.PRNGKey(0),
                        restarts=2)
    return posterior, np.asarray(estimate.position)


def fitted(method: str, posterior: Posterior, mode: np.ndarray):
    """The method fitted on a fresh copy of the posterior's data, in the current precision."""
    copy = Posterior(posterior.name, posterior.model, Dataset(np.asarray(posterior.data.X), np.asarray(posterior.data.y)))
    return get_method(method).fit(copy, method_config(method, {"precision": "hessian"}), None,
                                  mode=jnp.asarray(mode)).approximation


@pytest.mark.parametrize("method", ["rla_f", "rla_b"])
def test_float32_geodesics_agree_with_float64_to_the_ode_tolerance(method, posterior):
    posterior, mode = posterior
    with floating_point("float32"):
        approximation = fitted(method, posterior, mode)
        velocities = approximation.tangent.sample_velocities(jax.random.PRNGKey(3), 20)
        single = exponential_map(approximation.metric, approximation.posterior, approximation.tangent.mode,
                                 velocities, approximation.ode)
    assert single.points.dtype == velocities.dtype == jnp.float32 and bool(jnp.all(single.successful))
    approximation = fitted(method, posterior, mode)
    double = exponential_map(approximation.metric, approximation.posterior, approximation.tangent.mode,
                             jnp.asarray(np.asarray(velocities), jnp.float64), approximation.ode)
    assert double.points.dtype == jnp.float64 and bool(jnp.all(double.successful))
    ends32, ends64 = np.asarray(single.points, np.float64), np.asarray(double.points)
    relative = np.abs(ends32 - ends64).max(axis=1) / np.abs(ends64 - mode).max(axis=1)
    assert relative.max() < BOUNDS[method], relative.max()
    # the two precisions are not the same computation
    assert not np.array_equal(ends32, ends64)


def test_an_unknown_precision_is_one_line_naming_the_allowed_ones():
    assert FLOAT_DTYPES == ("float64", "float32")
    with pytest.raises(ValueError, match=r"^dtype must be one of float64, float32; got 'float16'$"):
        with floating_point("float16"):
            pass


def test_the_precision_is_restored_after_the_block():
    with floating_point("float32"):
        assert jnp.zeros(2).dtype == jnp.float32
    assert jnp.zeros(2).dtype == jnp.float64
