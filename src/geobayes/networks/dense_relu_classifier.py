"""The fully connected ReLU classifier of Yu et al. (2023), Sec. 4.3, as a pytree of tensors.

Yu et al. (2023), Sec. 4.3 (notes Secs. 3.1, 3.4, 8.3) sample the weights of the MNIST
network ``784-N-N-10`` (``N`` in {400, 800, 1200}, ReLU, softmax likelihood at temperature 1),
bnn_priors' ``ClassificationDenseNet`` (``depth=3``) without BatchNorm. Unlike
:class:`~geobayes.networks.mlp.MultilayerPerceptron` (one flat vector), the parameters are a
**list of per-tensor arrays** ``[W_1, b_1, W_2, b_2, ..., W_L, b_L]`` in torch ``nn.Linear``
layout (``W_l`` of shape ``(out, in)``, ``b_l`` of shape ``(out,)``, the order of
``model.parameters()``): the Shampoo and Wenzel samplers precondition each tensor by its own
shape, so the tensors keep their shapes.

Parameter count ``sum_l (k_{l-1} + 1) k_l``: 478,410 for ``N = 400``, 1,276,810 for 800 and
2,395,210 for 1200 (notes Sec. 3.4).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.networks.label_log_likelihoods import label_log_likelihoods

__all__ = [
    "check_parameters",
    "check_widths",
    "init_parameters",
    "log_likelihoods",
    "log_softmax",
    "logits",
    "mnist_widths",
    "num_parameters",
]

#: Input and output widths of the MNIST network (28 x 28 pixels, 10 digits).
MNIST_IN, MNIST_OUT = 784, 10


def mnist_widths(width: int) -> tuple[int, int, int, int]:
    """``(784, width, width, 10)``: the network ``784-N-N-10`` of Yu et al. (2023), Sec. 4.3."""
    return check_widths((MNIST_IN, width, width, MNIST_OUT))


def check_widths(widths: Sequence[int]) -> tuple[int, ...]:
    """Validate layer widths ``(d_in, k_1, ..., d_out)``; return them as a tuple of ints.

    Raises
    ------
    ValueError
        If there are fewer than two widths or one is not an integer >= 1 (naming ``widths``).
    """
    try:
        values = tuple(widths)
    except TypeError:
        raise ValueError(f"widths must be a sequence of layer widths (d_in, ..., d_out), got {widths!r}") from None
    if len(values) < 2:
        raise ValueError(f"widths needs at least the input and output widths, got {values!r}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"widths must be integers >= 1, got {values!r}")
    return tuple(int(v) for v in values)


def num_parameters(widths: Sequence[int]) -> int:
    """``sum_l (k_{l-1} + 1) k_l``; 478,410 for ``(784, 400, 400, 10)`` (notes Sec. 3.4)."""
    w = check_widths(widths)
    return sum((w[i] + 1) * w[i + 1] for i in range(len(w) - 1))


def _shapes(widths: tuple[int, ...]) -> list[tuple[int, ...]]:
    shapes: list[tuple[int, ...]] = []
    for fan_in, fan_out in zip(widths[:-1], widths[1:]):
        shapes += [(fan_out, fan_in), (fan_out,)]
    return shapes


def check_parameters(params: Sequence[jax.Array], widths: Sequence[int] | None = None) -> list[jax.Array]:
    """Validate a parameter list ``[W_1, b_1, ..., W_L, b_L]``; return it as a list.

    Without ``widths`` the layers only have to chain (``W_{l+1}`` takes ``W_l``'s outputs).

    Raises
    ------
    ValueError
        If ``params`` is not a list of an even number of arrays, a weight is not 2-D, a bias does
        not match its weight's rows, consecutive layers do not chain, or the shapes differ from
        ``widths`` (naming the tensor's index and both shapes).
    """
    if not isinstance(params, (list, tuple)) or len(params) == 0 or len(params) % 2:
        length = len(params) if hasattr(params, "__len__") else "?"
        raise ValueError("params must be a list [W_1, b_1, ..., W_L, b_L] of an even number of arrays, "
                         f"got {type(params).__name__} of length {length}")
    shapes = [tuple(np.shape(p)) for p in params]
    if widths is not None:
        expected = _shapes(check_widths(widths))
        if shapes != expected:
            raise ValueError(f"params have shapes {shapes}, network {tuple(widths)} needs {expected}")
    for i in range(0, len(shapes), 2):
        weight, bias = shapes[i], shapes[i + 1]
        if len(weight) != 2 or bias != weight[:1]:
            raise ValueError(f"params[{i}] (weight) must be (out, in) and params[{i + 1}] (bias) (out,), "
                             f"got {weight} and {bias}")
        if i >= 2 and weight[1] != shapes[i - 2][0]:
            raise ValueError(f"params[{i}] takes {weight[1]} inputs but params[{i - 2}] has "
                             f"{shapes[i - 2][0]} outputs")
    return list(params)


def init_parameters(key: jax.Array, widths: Sequence[int]) -> list[jax.Array]:
    """bnn_priors' ``he_initialize`` (``init_method=he``; notes Secs. 3.1, 8.3), float64.

    * weights: ``torch.nn.init.kaiming_normal_(W, mode='fan_in', nonlinearity='relu')``, i.e.
      ``N(0, 2 / fan_in)`` with ``fan_in = in`` = ``W.shape[1]``;
    * biases: ``U(-1/sqrt(n_out), 1/sqrt(n_out))`` where the code's bound is
      ``1 / sqrt(param.size(0))`` of the bias vector, i.e. ``n_out`` = the layer's number of
      outputs (notes Sec. 3.1: "U(+-1/sqrt(n_out))"). This is NOT torch's default ``nn.Linear``
      bias bound ``1/sqrt(fan_in)``.

    The key of tensor ``t`` (0-based, list order) is ``jax.random.fold_in(key, t)``.

    Returns
    -------
    list of jax.Array
        ``[W_1, b_1, ..., W_L, b_L]``.
    """
    params = []
    for t, shape in enumerate(_shapes(check_widths(widths))):
        k = jax.random.fold_in(key, t)
        if len(shape) == 2:
            params.append(math.sqrt(2.0 / shape[1]) * jax.random.normal(k, shape, jnp.float64))
        else:
            bound = 1.0 / math.sqrt(shape[0])
            params.append(jax.random.uniform(k, shape, jnp.float64, -bound, bound))
    return params


def _check_inputs(params: Sequence[jax.Array], x: jax.Array) -> jax.Array:
    check_parameters(params)
    x = jnp.asarray(x)
    d_in = np.shape(params[0])[1]
    if x.ndim != 2 or x.shape[1] != d_in:
        raise ValueError(f"x must have shape (n, {d_in}), got {x.shape}")
    return x


def logits(params: Sequence[jax.Array], x: jax.Array) -> jax.Array:
    """``f(x) = W_L relu(... relu(W_1 x + b_1) ...) + b_L``, shape ``(n, C)`` for ``x`` ``(n, d_in)``.

    Raises
    ------
    ValueError
        If ``params`` is malformed (:func:`check_parameters`) or ``x`` is not ``(n, d_in)``.
    """
    h = _check_inputs(params, x)
    n_layers = len(params) // 2
    for layer in range(n_layers):
        weight, bias = params[2 * layer], params[2 * layer + 1]
        h = h @ weight.T + bias
        if layer < n_layers - 1:
            h = jax.nn.relu(h)
    return h


def log_softmax(params: Sequence[jax.Array], x: jax.Array) -> jax.Array:
    """``log softmax(f(x))``, shape ``(n, C)``: the per-sample log probabilities that the
    ensemble metrics take (:mod:`geobayes.metrics.ensemble`; temperature 1)."""
    return jax.nn.log_softmax(logits(params, x), axis=-1)


def log_likelihoods(params: Sequence[jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
    """Per-example ``log p(y_n | x_n, theta) = log softmax(f(x_n))[y_n]``, shape ``(n,)``.

    bnn_priors' ``ClassificationModel`` with ``softmax_temp=1`` (Categorical over the logits).

    Raises
    ------
    ValueError
        If ``y`` is not ``(n,)`` of integers, or (when ``y`` is concrete) a label lies outside
        ``[0, C)``.
    """
    lp = log_softmax(params, x)
    return label_log_likelihoods(lp, y)
