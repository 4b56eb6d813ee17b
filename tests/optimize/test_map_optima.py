"""Several local optima, one per random start: every run kept, each at its own maximum."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.optimize.map_optima import LocalOptimum, find_local_optima, optimum_starts


def double_well(theta, _args):
    """Log density with two maxima per coordinate, at -1 and +1 (the one at +1 higher)."""
    return -jnp.sum((theta**2 - 1.0) ** 2) + 0.1 * jnp.sum(theta)


def test_every_start_keeps_its_own_optimum():
    starts = np.array([[-0.5, 0.4], [0.6, 0.7], [-0.8, -0.3]])
    optima = find_local_optima(double_well, None, starts)
    assert len(optima) == 3 and all(isinstance(o, LocalOptimum) for o in optima)
    # Each run climbs to the maximum of its own basin (sign of each start coordinate); the
    # maxima solve 4 t (t^2 - 1) = 0.1.
    roots = np.roots([4.0, 0.0, -4.0, -0.1])
    plus, minus = roots.real.max(), roots.real.min()
    for optimum, start in zip(optima, starts, strict=True):
        expected = np.where(start > 0, plus, minus)
        np.testing.assert_allclose(optimum.position, expected, atol=1e-7)
        np.testing.assert_array_equal(optimum.start, start)
        assert optimum.converged and optimum.grad_norm < 1e-6 and optimum.result_code == 0
        assert optimum.objective == pytest.approx(float(double_well(jnp.asarray(expected), None)), abs=1e-12)
    assert optima[1].objective > optima[0].objective > optima[2].objective
    record = optima[0].summary()
    assert record["converged"] and len(record["position"]) == 2 and record["num_steps"] > 0


def test_optimum_k_does_not_depend_on_how_many_are_found():
    starts = np.array([[-0.5, 0.4], [0.6, 0.7], [-0.8, -0.3]])
    three, two = find_local_optima(double_well, None, starts), find_local_optima(double_well, None, starts[:2])
    for a, b in zip(three[:2], two, strict=True):
        np.testing.assert_array_equal(a.position, b.position)
        assert a.num_steps == b.num_steps


def test_a_run_stopped_early_is_marked_not_converged():
    optima = find_local_optima(double_well, None, np.array([[0.3, -0.2]]), max_steps=2)
    assert not optima[0].converged and optima[0].result_code != 0


def test_starts_are_seeded_per_optimum_and_scaled():
    five = optimum_starts(1, "drop23-mlp2x10var", 5, 142, 1.0)
    assert five.shape == (5, 142) and five.dtype == np.float64
    # Start k does not depend on how many are drawn, nor on the scale other than by the factor.
    np.testing.assert_array_equal(optimum_starts(1, "drop23-mlp2x10var", 3, 142, 1.0), five[:3])
    np.testing.assert_allclose(optimum_starts(1, "drop23-mlp2x10var", 2, 142, 0.5), 0.5 * five[:2], rtol=1e-15)
    assert not np.allclose(optimum_starts(2, "drop23-mlp2x10var", 1, 142, 1.0), five[:1])
    assert np.min(np.linalg.norm(five[:, None] - five[None], axis=-1) + np.eye(5) * 1e9) > 1.0
    # N(0, 1) coordinates: the 710 values have mean ~0 and std ~1.
    assert abs(five.mean()) < 0.15 and abs(five.std() - 1.0) < 0.1


@pytest.mark.parametrize(("count", "dim", "std", "message"), [
    (0, 3, 1.0, "at least one start"),
    (2, 0, 1.0, "at least one start"),
    (2, 3, 0.0, "init_std must be a finite number > 0"),
    (2, 3, float("nan"), "init_std must be a finite number > 0"),
])
def test_bad_start_settings_are_errors(count, dim, std, message):
    with pytest.raises(ValueError, match=message):
        optimum_starts(1, "p", count, dim, std)
