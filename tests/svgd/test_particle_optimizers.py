"""Particle optimizers: the SVGD code's GD and "AdaGrad with momentum" recurrences, name errors."""

import jax
import numpy as np
import pytest

from geobayes.svgd import OPTIMIZERS, build_optimizer


def test_gd_step():
    opt = build_optimizer("gd", 0.1)
    x = np.ones((3, 2))
    phi = np.arange(6.0).reshape(3, 2)
    new, state = opt.update(opt.init(x), x, phi)
    np.testing.assert_allclose(new, x + 0.1 * phi)
    assert int(state.step) == 1


def test_adagrad_momentum_matches_svgd_code():
    """svgd.py: H_0 = phi_0^2, H_t = 0.9 H + 0.1 phi^2, x += eps phi / (1e-6 + sqrt(H))."""
    opt = build_optimizer("adagrad_momentum", 0.05)
    phis = np.asarray(jax.random.normal(jax.random.PRNGKey(0), (4, 5, 2)))
    x = np.zeros((5, 2))
    ref, hist = x.copy(), None
    state = opt.init(x)
    step = jax.jit(opt.update)
    for t, phi in enumerate(phis):
        hist = phi**2 if t == 0 else 0.9 * hist + 0.1 * phi**2
        ref = ref + 0.05 * phi / (1e-6 + np.sqrt(hist))
        x, state = step(state, x, phi)
    np.testing.assert_allclose(x, ref, rtol=1e-12)


def test_unknown_optimizer_lists_known_names():
    with pytest.raises(ValueError) as info:
        build_optimizer("adam", 0.1)
    message = str(info.value)
    assert "\n" not in message and "'adam'" in message
    assert all(name in message for name in OPTIMIZERS)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
@pytest.mark.parametrize("step_size", [0.0, -1.0, float("nan"), "big"])
def test_bad_step_size(name, step_size):
    with pytest.raises(ValueError) as info:
        build_optimizer(name, step_size)
    assert "\n" not in str(info.value) and "step_size" in str(info.value)
