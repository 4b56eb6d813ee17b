"""ConvolutionalNetwork: Bergamin et al.'s (2023, App. D.5) MNIST CNN against torch's nn.Sequential
loaded with the same flat vector, parameter counts, input layouts, errors, initialisation."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import torch

import geobayes  # noqa: F401  (float64)
from geobayes.networks import ConvolutionalNetwork
from geobayes.networks.cnn import convolution_method, im2col_convolution

#: The paper's network and two configurable variants: a 3-channel input with one conv layer,
#: and maps that the pools do not divide (13 -> 11 -> 5 -> 3 -> 1: torch drops the remainder).
VARIANTS = [
    ConvolutionalNetwork(),
    ConvolutionalNetwork(image_shape=(3, 11, 11), conv_channels=(2,), kernel_size=4, pool_size=2, hidden=(5,),
                         num_classes=3),
    ConvolutionalNetwork(image_shape=(1, 13, 13), conv_channels=(2, 3), kernel_size=3, pool_size=2, hidden=(),
                         num_classes=4),
]


def _torch_network(net: ConvolutionalNetwork) -> torch.nn.Sequential:
    """The same architecture as a torch ``nn.Sequential``, float64."""
    layers, channels = [], (net.image_shape[0], *net.conv_channels)
    for c_in, c_out in zip(channels[:-1], channels[1:]):
        layers += [torch.nn.Conv2d(c_in, c_out, net.kernel_size), torch.nn.Tanh(), torch.nn.AvgPool2d(net.pool_size)]
    layers.append(torch.nn.Flatten())
    widths = (net.num_features, *net.hidden, net.num_classes)
    for fan_in, fan_out in zip(widths[:-1], widths[1:]):
        layers += [torch.nn.Linear(fan_in, fan_out), torch.nn.Tanh()]
    return torch.nn.Sequential(*layers[:-1]).double()  # no tanh after the logits


def test_paper_network_has_1828_parameters_and_64_features():
    net = ConvolutionalNetwork()
    assert net.num_parameters == 104 + 404 + 1040 + 170 + 110 == 1828
    assert net.feature_map_sizes == ((28, 28), (12, 12), (4, 4)) and net.num_features == 64
    assert net.num_outputs == 10
    model = _torch_network(net)
    assert sum(p.numel() for p in model.parameters()) == 1828
    assert len(model) == 12 and isinstance(model[-1], torch.nn.Linear)  # the logits are linear


@pytest.mark.parametrize("convolution", ["direct", "im2col"])
@pytest.mark.parametrize("net", VARIANTS, ids=["paper", "rgb-one-conv", "odd-maps"])
def test_outputs_equal_torch_with_vector_to_parameters(net, convolution):
    net = dataclasses.replace(net, convolution=convolution)
    model = _torch_network(net)
    assert sum(p.numel() for p in model.parameters()) == net.num_parameters
    rng = np.random.default_rng(0)
    theta = rng.normal(scale=0.5, size=net.num_parameters)
    X = rng.uniform(0.0, 1.0, size=(6, *net.image_shape))
    torch.nn.utils.vector_to_parameters(torch.from_numpy(theta.copy()), model.parameters())
    with torch.no_grad():
        expected = model(torch.from_numpy(X)).numpy()
    got = np.asarray(net(jnp.asarray(theta), jnp.asarray(X)))
    assert got.shape == (6, net.num_classes) and got.dtype == np.float64
    assert np.max(np.abs(expected)) > 0.1  # non-trivial outputs
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    # torch's own parameters_to_vector gives back the flat layout
    np.testing.assert_array_equal(torch.nn.utils.parameters_to_vector(model.parameters()).detach().numpy(), theta)


def test_flattened_and_image_inputs_agree():
    net = ConvolutionalNetwork()
    theta = net.initial_parameters(jax.random.PRNGKey(0))
    images = jnp.asarray(np.random.default_rng(1).uniform(size=(4, 1, 28, 28)))
    flat = images.reshape(4, 784)
    np.testing.assert_array_equal(net(theta, flat), net(theta, images))
    np.testing.assert_array_equal(net.images(flat), images)


@pytest.mark.parametrize("shape", [(4, 783), (4, 28, 28), (4, 3, 28, 28), (784,)])
def test_wrong_input_shape_raises(shape):
    net = ConvolutionalNetwork()
    with pytest.raises(ValueError, match=r"inputs \(N, 784\) or \(N, 1, 28, 28\)"):
        net(jnp.zeros(net.num_parameters), jnp.zeros(shape))


@pytest.mark.parametrize("length", [1827, 1829, 0])
def test_wrong_length_theta_raises(length):
    net = ConvolutionalNetwork()
    with pytest.raises(ValueError, match=r"1828 parameters.*\(%d,\)" % length):
        net(jnp.zeros(length), jnp.zeros((2, 784)))
    with pytest.raises(ValueError, match="1828 parameters"):
        net.unflatten(jnp.zeros((1, 1828)))


def test_unflatten_shapes_in_torch_order():
    net = ConvolutionalNetwork()
    layers = net.unflatten(jnp.arange(1828, dtype=jnp.float64))
    assert [(w.shape, b.shape) for w, b in layers] == [
        ((4, 1, 5, 5), (4,)), ((4, 4, 5, 5), (4,)), ((16, 64), (16,)), ((10, 16), (10,)), ((10, 10), (10,))]
    np.testing.assert_array_equal(layers[0][0].ravel(), np.arange(100))
    np.testing.assert_array_equal(layers[0][1], [100, 101, 102, 103])
    np.testing.assert_array_equal(layers[-1][1], np.arange(1818, 1828))


@pytest.mark.parametrize("kwargs, match", [
    ({"conv_channels": ()}, "at least one conv layer"),
    ({"kernel_size": 0}, "sizes >= 1"),
    ({"image_shape": (28, 28)}, r"image_shape \(C, H, W\)"),
    ({"image_shape": (1, 8, 8)}, "shrinks to nothing"),
    ({"activation": "relu"}, "unknown activation 'relu'"),
    ({"convolution": "fft"}, "unknown convolution 'fft'; known: auto, direct, im2col"),
])
def test_bad_configuration_raises(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ConvolutionalNetwork(**kwargs)


def test_initial_parameters_within_torch_bounds_and_deterministic():
    net = ConvolutionalNetwork()
    key = jax.random.PRNGKey(3)
    theta = net.initial_parameters(key)
    assert theta.shape == (1828,) and theta.dtype == jnp.float64
    np.testing.assert_array_equal(theta, net.initial_parameters(key))
    assert not np.array_equal(theta, net.initial_parameters(jax.random.PRNGKey(4)))
    # fan_in: in_channels k^2 for a convolution (25, 100), in_features for a dense layer
    for (weight, bias), fan_in in zip(net.unflatten(theta), (25, 100, 64, 16, 10)):
        bound = 1.0 / np.sqrt(fan_in)
        block = np.concatenate([np.ravel(weight), np.ravel(bias)])
        assert np.all(np.abs(block) <= bound) and np.max(np.abs(block)) > 0.8 * bound
    # torch's own default initialisation has the same bounds
    torch.manual_seed(0)
    for layer in _torch_network(net):
        if hasattr(layer, "weight"):
            fan_in = layer.weight[0].numel()
            for p in (layer.weight, layer.bias):
                assert float(p.detach().abs().max()) <= 1.0 / np.sqrt(fan_in)


def test_im2col_convolution_equals_xla_convolution_on_every_channel_layout():
    rng = np.random.default_rng(5)
    h = jnp.asarray(rng.normal(size=(3, 2, 9, 7)))
    weight = jnp.asarray(rng.normal(size=(4, 2, 3, 3)))
    expected = jax.lax.conv_general_dilated(h, weight, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))
    got = im2col_convolution(h, weight)
    assert got.shape == (3, 4, 7, 5)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-13)


def test_auto_convolution_is_im2col_for_float32_on_a_cpu_only():
    assert convolution_method(jnp.float32, "cpu") == "im2col"
    assert convolution_method(jnp.float64, "cpu") == "direct"
    assert convolution_method(jnp.float32, "gpu") == "direct"


def test_float32_gradients_and_curvature_agree_between_convolutions():
    """The geodesic ODE's ingredients (gradient and Hessian-vector product of the loss) in float32, the
    quick scale's dtype for the CNN: auto (im2col on a CPU) against XLA's convolution."""
    rng = np.random.default_rng(2)
    nets = {c: ConvolutionalNetwork(convolution=c) for c in ("auto", "direct")}
    theta = nets["auto"].initial_parameters(jax.random.PRNGKey(1)).astype(jnp.float32)
    X = jnp.asarray(rng.uniform(size=(16, 784)), jnp.float32)
    y = jnp.asarray(rng.integers(0, 10, size=16))
    v = jnp.asarray(rng.normal(size=theta.shape), jnp.float32)
    out = {}
    for name, net in nets.items():
        def loss(t, net=net):
            return -jnp.sum(jax.nn.log_softmax(net(t, X))[jnp.arange(16), y])
        grad, hvp = jax.jvp(jax.grad(loss), (theta,), (v,))
        assert grad.dtype == hvp.dtype == jnp.float32
        out[name] = (np.asarray(grad), np.asarray(hvp))
    for a, b in zip(out["auto"], out["direct"]):
        assert np.max(np.abs(b)) > 1e-2
        np.testing.assert_allclose(a, b, rtol=0, atol=2e-5 * np.max(np.abs(b)))
