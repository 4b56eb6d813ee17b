"""The 784-N-N-10 ReLU classifier of Yu et al. (2023), Sec. 4.3, as a list of tensors."""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.special import log_softmax as scipy_log_softmax

from geobayes.networks.dense_relu_classifier import (
    check_parameters,
    init_parameters,
    log_likelihoods,
    log_softmax,
    logits,
    mnist_widths,
    num_parameters,
)

SMALL = (6, 5, 4, 3)


@pytest.mark.parametrize("width, count", [(400, 478_410), (800, 1_276_810), (1200, 2_395_210)])
def test_parameter_counts_match_notes(width, count):
    # notes Sec. 3.4 [D]; no forward pass needed.
    assert num_parameters(mnist_widths(width)) == count
    shapes = [(width, 784), (width,), (width, width), (width,), (10, width), (10,)]
    assert sum(math.prod(s) for s in shapes) == count


def test_init_shapes_layout_and_dtype():
    params = init_parameters(jax.random.key(0), SMALL)
    assert [p.shape for p in params] == [(5, 6), (5,), (4, 5), (4,), (3, 4), (3,)]
    assert all(p.dtype == jnp.float64 for p in params)
    assert sum(p.size for p in params) == num_parameters(SMALL)
    again = init_parameters(jax.random.key(0), SMALL)
    assert all(np.array_equal(a, b) for a, b in zip(params, again))


def test_init_is_he_normal_weights_and_uniform_n_out_biases():
    # Sampling only (no forward pass): the N = 400 network has enough entries for tight checks.
    W1, b1, W2, b2, W3, b3 = (np.asarray(p) for p in init_parameters(jax.random.key(1), mnist_widths(400)))
    for W, fan_in in ((W1, 784), (W2, 400), (W3, 400)):
        rel_error = 4.0 / math.sqrt(2 * W.size)  # 4 standard errors of a sample std
        assert abs(W.std() / math.sqrt(2.0 / fan_in) - 1.0) < rel_error
        assert abs(W.mean()) < 4 * math.sqrt(2.0 / fan_in / W.size)
    # Bias bound 1/sqrt(n_out), not torch's default 1/sqrt(fan_in): b1 exceeds 1/sqrt(784),
    # b3 exceeds 1/sqrt(400) (both would be impossible with the fan-in bound).
    for b, n_out, fan_in in ((b1, 400, 784), (b2, 400, 400), (b3, 10, 400)):
        bound = 1.0 / math.sqrt(n_out)
        assert np.all(np.abs(b) <= bound)
    assert np.abs(b1).max() > 1.0 / math.sqrt(784)
    assert np.abs(b3).max() > 1.0 / math.sqrt(400)
    assert abs(b1.std() / (0.05 / math.sqrt(3.0)) - 1.0) < 0.15


def _numpy_forward(params, x):
    h = np.asarray(x)
    params = [np.asarray(p) for p in params]
    for layer in range(len(params) // 2):
        h = h @ params[2 * layer].T + params[2 * layer + 1]
        if layer < len(params) // 2 - 1:
            h = np.maximum(h, 0.0)
    return h


def test_logits_and_log_likelihoods_match_numpy():
    params = init_parameters(jax.random.key(2), SMALL)
    x = np.random.default_rng(0).normal(size=(7, 6))
    y = np.array([0, 1, 2, 2, 1, 0, 1])
    f = _numpy_forward(params, x)
    np.testing.assert_allclose(logits(params, x), f, rtol=1e-13, atol=1e-13)
    expected = scipy_log_softmax(f, axis=1)
    np.testing.assert_allclose(log_softmax(params, x), expected, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(log_likelihoods(params, x, y), expected[np.arange(7), y], rtol=1e-13, atol=1e-13)
    jitted = jax.jit(log_likelihoods)(params, jnp.asarray(x), jnp.asarray(y))
    np.testing.assert_allclose(jitted, expected[np.arange(7), y], rtol=1e-13, atol=1e-13)


def test_relu_is_applied_between_layers_only():
    # With zero hidden biases and a negative first layer, the hidden units are all zero.
    params = [-jnp.ones((5, 6)), jnp.zeros(5), jnp.ones((4, 5)), jnp.zeros(4), jnp.ones((3, 4)), jnp.arange(3.0)]
    out = logits(params, jnp.ones((2, 6)))
    np.testing.assert_array_equal(out, np.tile(np.arange(3.0), (2, 1)))
    params[-2] = -jnp.ones((3, 4))  # output layer is linear: negative outputs pass through
    params[1] = jnp.ones(5) * 10.0
    assert float(logits(params, jnp.ones((1, 6)))[0, 0]) == pytest.approx(-4 * 5 * 4.0)


@pytest.mark.parametrize("widths, match", [
    ((784,), "at least the input and output"),
    ((784, 0, 10), "integers >= 1"),
    ((784, 2.5, 10), "integers >= 1"),
    (784, "sequence of layer widths"),
])
def test_bad_widths(widths, match):
    with pytest.raises(ValueError, match=match):
        init_parameters(jax.random.key(0), widths)


def test_bad_inputs_name_the_argument():
    params = init_parameters(jax.random.key(0), SMALL)
    with pytest.raises(ValueError, match=r"x must have shape \(n, 6\)"):
        logits(params, jnp.ones((2, 5)))
    with pytest.raises(ValueError, match=r"y must lie in \[0, 3\); y\[1\] = 3"):
        log_likelihoods(params, jnp.ones((2, 6)), jnp.array([0, 3]))
    with pytest.raises(ValueError, match="y must be"):
        log_likelihoods(params, jnp.ones((2, 6)), jnp.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="even number"):
        logits(params[:-1], jnp.ones((2, 6)))
    with pytest.raises(ValueError, match="do not chain|takes 4 inputs"):
        check_parameters([params[0], params[1], params[4], params[5]])
    with pytest.raises(ValueError, match="network"):
        check_parameters(params, (6, 5, 5, 3))
