"""ResNet-20 of Yu et al. (2023), Sec. 4.4 (notes Secs. 3.5, 8.3, 8.4 item 16) against PyTorch."""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import torch
from torch import nn

from geobayes.networks import resnet20
from geobayes.networks.resnet20 import (
    apply,
    architecture,
    init_batch_norm_state,
    init_parameters,
    log_likelihoods,
    log_softmax,
    num_parameters,
    parameter_kinds,
    parameter_names,
    parameter_shapes,
)


@pytest.fixture(scope="module")
def network():
    return init_parameters(jax.random.key(0))


@pytest.fixture(scope="module")
def images():
    return jax.random.normal(jax.random.key(1), (3, 3, 32, 32), jnp.float64)


def test_parameter_count_by_hand():
    stem = 3 * 16 * 9 + 2 * 16
    stack1 = 3 * (2 * 16 * 16 * 9 + 4 * 16)
    stack2 = (16 * 32 * 9 + 32 * 32 * 9 + 4 * 32 + 16 * 32 + 2 * 32) + 2 * (2 * 32 * 32 * 9 + 4 * 32)
    stack3 = (32 * 64 * 9 + 64 * 64 * 9 + 4 * 64 + 32 * 64 + 2 * 64) + 2 * (2 * 64 * 64 * 9 + 4 * 64)
    dense = 64 * 10 + 10
    assert num_parameters() == stem + stack1 + stack2 + stack3 + dense == 272474
    shapes = parameter_shapes()
    assert len(shapes) == len(parameter_names()) == len(parameter_kinds()) == 65
    assert shapes[0] == (16, 3, 3, 3) and shapes[-2:] == [(10, 64), (10,)]
    assert parameter_kinds().count("conv") == 21 and len(init_batch_norm_state()) == 42
    assert [b[2] for b in architecture()] == [1, 1, 1, 2, 1, 1, 2, 1, 1]
    assert parameter_names()[27:30] == ["block3.shortcut.conv", "block3.shortcut.bn.scale", "block3.shortcut.bn.bias"]


def test_init_follows_he_initialize(network):
    kinds = parameter_kinds()
    big = network[parameter_shapes().index((64, 64, 3, 3))]
    assert big.dtype == jnp.float64
    assert float(jnp.std(big)) == pytest.approx(math.sqrt(2 / (64 * 9)), rel=0.03)
    assert np.all(np.abs(network[-1]) <= 1 / math.sqrt(10))
    for p, kind in zip(network, kinds):
        if kind == "bn_scale":
            assert np.all(np.asarray(p) == 1.0)
        if kind == "bn_bias":
            assert np.all(np.asarray(p) == 0.0)


def test_output_shape_and_finite_gradients(network, images):
    state = init_batch_norm_state()
    out, new_state = apply(network, state, images, train=True)
    assert out.shape == (3, 10) and len(new_state) == 42
    y = jnp.array([0, 3, 9])

    def loss(params):
        ll, st = log_likelihoods(params, state, images, y, True)
        return jnp.sum(ll), st

    grads, _ = jax.jit(jax.grad(loss, has_aux=True))(network)
    assert all(g.shape == p.shape and bool(jnp.all(jnp.isfinite(g))) for g, p in zip(grads, network))
    assert float(jnp.max(jnp.abs(grads[0]))) > 0
    assert log_softmax(network, state, images).shape == (3, 10)


def test_batch_norm_matches_torch():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 4, 5, 5)) * 2 + 1
    bn = nn.BatchNorm2d(4).double()  # momentum 0.1, eps 1e-5
    scale, bias = 1 + 0.1 * rng.normal(size=4), 0.1 * rng.normal(size=4)
    bn.weight.data, bn.bias.data = torch.tensor(scale), torch.tensor(bias)
    mean, var = jnp.zeros(4), jnp.ones(4)
    for step in range(2):  # two train steps: batch statistics, running stats with unbiased variance
        xs = x + step
        y, mean, var = resnet20._batch_norm(jnp.asarray(xs), jnp.asarray(scale), jnp.asarray(bias), mean, var, True)
        np.testing.assert_allclose(y, bn.train()(torch.tensor(xs)).detach().numpy(), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(mean, bn.running_mean.numpy(), rtol=1e-13)
        np.testing.assert_allclose(var, bn.running_var.numpy(), rtol=1e-13)
    y, _, _ = resnet20._batch_norm(jnp.asarray(x), jnp.asarray(scale), jnp.asarray(bias), mean, var, False)
    np.testing.assert_allclose(y, bn.eval()(torch.tensor(x)).detach().numpy(), rtol=1e-12, atol=1e-12)


class _TorchBlock(nn.Module):  # bnn_priors' google_resnet.BasicBlock with plain torch layers
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.main = nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(),
                                  nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False), nn.BatchNorm2d(c_out))
        self.shortcut = nn.Identity() if stride == 1 else nn.Sequential(
            nn.Conv2d(c_in, c_out, 1, stride, 0, bias=False), nn.BatchNorm2d(c_out))

    def forward(self, x):
        return torch.relu(self.main(x) + self.shortcut(x))


def _torch_resnet(params, bn_state):
    layers = [nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU()]
    layers += [_TorchBlock(*block) for block in architecture()]
    net = nn.Sequential(*layers, nn.AvgPool2d(8), nn.Flatten(), nn.Linear(64, 10)).double()
    for p, value in zip(net.parameters(), params, strict=True):  # same order as the list
        p.data = torch.tensor(np.asarray(value))
    buffers = [b for name, b in net.named_buffers() if not name.endswith("num_batches_tracked")]
    for b, value in zip(buffers, bn_state, strict=True):
        b.data = torch.tensor(np.asarray(value))
    return net, buffers


@pytest.mark.parametrize("train", [False, True])
def test_whole_network_matches_torch(network, images, train):
    rng = np.random.default_rng(1)
    params = [p if k not in ("bn_scale", "bn_bias") else p + 0.1 * rng.normal(size=p.shape)
              for p, k in zip(network, parameter_kinds())]
    state = [0.1 * rng.normal(size=s.shape) if i % 2 == 0 else rng.uniform(0.5, 2.0, s.shape)
             for i, s in enumerate(init_batch_norm_state())]
    net, buffers = _torch_resnet(params, state)
    net.train(train)
    with torch.no_grad():
        expected = net(torch.tensor(np.asarray(images))).numpy()
    out, new_state = apply(params, state, images, train=train)
    np.testing.assert_allclose(out, expected, rtol=1e-9, atol=1e-10)
    for new, b in zip(new_state, buffers, strict=True):
        np.testing.assert_allclose(new, b.numpy(), rtol=1e-10, atol=1e-12)


def test_bad_inputs(network, images):
    state = init_batch_norm_state()
    with pytest.raises(ValueError, match=r"x must be NCHW"):
        apply(network, state, images[:, :, :16], False)
    with pytest.raises(ValueError, match=r"params must hold"):
        apply(network[:-1], state, images, False)
    with pytest.raises(ValueError, match=r"params\[0\] \(stem.conv\)"):
        apply([network[0][:8]] + network[1:], state, images, False)
    with pytest.raises(ValueError, match="bn_state must be a list of 42"):
        apply(network, state[:-1], images, False)
    with pytest.raises(ValueError, match="train must be a Python bool"):
        apply(network, state, images, jnp.array(True))
    with pytest.raises(ValueError, match=r"y must lie in \[0, 10\)"):
        log_likelihoods(network, state, images, jnp.array([0, 1, 10]), False)
    with pytest.raises(ValueError, match="depth must be"):
        init_parameters(jax.random.key(0), depth=21)
