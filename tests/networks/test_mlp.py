"""MultilayerPerceptron: torch nn.Sequential parameter layout, counts, errors, initialisation."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import geobayes  # noqa: F401  (float64)
from geobayes.networks import MultilayerPerceptron
from geobayes.networks.mlp import ACTIVATIONS


@pytest.mark.parametrize("sizes, expected", [
    ((1, 10, 1), 31),
    ((1, 10, 10, 1), 141),
    ((2, 15, 15, 1), 301),
    ((3, 1), 4),
])
def test_num_parameters(sizes, expected):
    net = MultilayerPerceptron(sizes)
    assert net.num_parameters == expected
    assert net.initial_parameters(jax.random.PRNGKey(0)).shape == (expected,)


def test_unflatten_shapes_and_row_major_layout():
    net = MultilayerPerceptron((2, 3, 4, 1))
    theta = jnp.arange(net.num_parameters, dtype=jnp.float64)
    layers = net.unflatten(theta)
    assert [(w.shape, b.shape) for w, b in layers] == [((3, 2), (3,)), ((4, 3), (4,)), ((1, 4), (1,))]
    # torch order: W_1 row-major, b_1, W_2 row-major, b_2, ...
    np.testing.assert_array_equal(layers[0][0], np.arange(6).reshape(3, 2))
    np.testing.assert_array_equal(layers[0][1], [6, 7, 8])
    np.testing.assert_array_equal(layers[1][0], np.arange(9, 21).reshape(4, 3))
    np.testing.assert_array_equal(layers[1][1], [21, 22, 23, 24])
    np.testing.assert_array_equal(layers[2][0], [[25, 26, 27, 28]])
    np.testing.assert_array_equal(layers[2][1], [29])
    assert net.num_parameters == 30


@pytest.mark.parametrize("activation, phi", [("tanh", np.tanh), ("silu", lambda z: z / (1.0 + np.exp(-z)))])
def test_call_matches_a_manual_numpy_forward_pass(activation, phi):
    rng = np.random.default_rng(0)
    W1, b1 = rng.normal(size=(3, 2)), rng.normal(size=3)
    W2, b2 = rng.normal(size=(4, 3)), rng.normal(size=4)
    W3, b3 = rng.normal(size=(1, 4)), rng.normal(size=1)
    theta = np.concatenate([W1.ravel(), b1, W2.ravel(), b2, W3.ravel(), b3])
    X = rng.normal(size=(7, 2))
    expected = phi(phi(X @ W1.T + b1) @ W2.T + b2) @ W3.T + b3
    net = MultilayerPerceptron((2, 3, 4, 1), activation)
    out = net(jnp.asarray(theta), jnp.asarray(X))
    assert out.shape == (7, 1) and out.dtype == jnp.float64
    np.testing.assert_allclose(out, expected, rtol=1e-13, atol=1e-13)


def test_silu_is_used_when_asked():
    theta = MultilayerPerceptron((1, 5, 1)).initial_parameters(jax.random.PRNGKey(1)) * 3.0
    X = jnp.linspace(-2.0, 2.0, 9)[:, None]
    tanh_out = MultilayerPerceptron((1, 5, 1), "tanh")(theta, X)
    silu_out = MultilayerPerceptron((1, 5, 1), "silu")(theta, X)
    assert float(jnp.max(jnp.abs(tanh_out - silu_out))) > 1e-2
    (W1, b1), (W2, b2) = MultilayerPerceptron((1, 5, 1)).unflatten(theta)
    np.testing.assert_allclose(silu_out, jax.nn.silu(X @ W1.T + b1) @ W2.T + b2, rtol=1e-13)
    assert ACTIVATIONS["silu"] is jax.nn.silu


@pytest.mark.parametrize("length", [30, 32, 0])
def test_wrong_length_theta_raises(length):
    net = MultilayerPerceptron((1, 10, 1))
    with pytest.raises(ValueError, match=r"31 parameters.*\(%d,\)" % length):
        net(jnp.zeros(length), jnp.zeros((3, 1)))
    with pytest.raises(ValueError, match="31 parameters"):
        net.unflatten(jnp.zeros(length))


def test_two_dimensional_theta_raises():
    with pytest.raises(ValueError, match="31 parameters"):
        MultilayerPerceptron((1, 10, 1)).unflatten(jnp.zeros((1, 31)))


@pytest.mark.parametrize("sizes", [(3,), (), (1, 0, 1), (0, 4, 1), (1, 4, -1)])
def test_bad_layer_sizes_raise(sizes):
    with pytest.raises(ValueError, match="layer_sizes"):
        MultilayerPerceptron(sizes)


def test_unknown_activation_raises_naming_it_and_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown activation 'relu'.*tanh.*silu"):
        MultilayerPerceptron((1, 4, 1), "relu")


def test_initial_parameters_within_torch_bounds_and_deterministic():
    net = MultilayerPerceptron((2, 15, 15, 1))
    key = jax.random.PRNGKey(3)
    theta = net.initial_parameters(key)
    assert theta.dtype == jnp.float64
    np.testing.assert_array_equal(theta, net.initial_parameters(key))
    assert not np.array_equal(theta, net.initial_parameters(jax.random.PRNGKey(4)))
    layers = net.unflatten(theta)
    for (weight, bias), fan_in in zip(layers, net.layer_sizes[:-1]):
        bound = 1.0 / np.sqrt(fan_in)
        block = np.concatenate([np.ravel(weight), np.ravel(bias)])
        assert np.all(np.abs(block) <= bound)
        # uses the range: not squeezed into a smaller interval
        assert np.max(np.abs(block)) > 0.5 * bound
    # the first layer (fan_in 2) reaches beyond the later layers' bound 1/sqrt(15)
    first = np.concatenate([np.ravel(layers[0][0]), layers[0][1]])
    assert np.max(np.abs(first)) > 1.0 / np.sqrt(15)
