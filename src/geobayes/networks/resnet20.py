"""The "Google ResNet-20" of Yu et al. (2023), Sec. 4.4, as a list of tensors plus BatchNorm state.

Yu et al. (2023), Sec. 4.4 (notes Secs. 3.5, 8.3, 8.4 item 16) sample the weights of the ResNet-20
of the cold-posterior paper as bnn_priors implements it (``models.google_resnet.ResNet``,
``depth=20``, ``bn=True``):

* stem: conv3x3(3 -> 16, stride 1, padding 1, no bias) + BN + ReLU;
* 3 stacks x ``n`` BasicBlocks (``n = (depth - 2) / 6 = 3``) with 16 / 32 / 64 filters; the first
  block of stacks 2 and 3 has stride 2. A block is ``relu(main(x) + shortcut(x))`` with
  ``main = conv3x3(stride s) - BN - ReLU - conv3x3 - BN`` and ``shortcut = conv1x1(stride s) - BN``
  when ``s = 2`` (the only blocks whose channels change), the identity otherwise;
* AvgPool(8) (on the final 8 x 8 maps: a global average), flatten, Linear(64 -> 10).

Inputs are NCHW ``(n, 3, 32, 32)``; conv weights have torch's layout ``(out, in, kh, kw)``.

Parameters (what a sampler moves, BN affine parameters included: notes Sec. 3.5) are a **list of
arrays** in the order of torch's ``model.parameters()`` for that ``nn.Sequential``:

* stem: ``conv (16, 3, 3, 3)``, ``bn scale (16,)``, ``bn bias (16,)``;
* per block, stack by stack: ``conv1 (c, c_in, 3, 3)``, ``bn1 scale``, ``bn1 bias``,
  ``conv2 (c, c, 3, 3)``, ``bn2 scale``, ``bn2 bias``, and for a stride-2 block then
  ``shortcut conv (c, c_in, 1, 1)``, ``shortcut bn scale``, ``shortcut bn bias``;
* ``dense weight (10, 64)``, ``dense bias (10,)``.

That is ``18 n + 11`` tensors (65 for ResNet-20) and 272,474 numbers for ResNet-20
(:func:`num_parameters`). :func:`parameter_names` and :func:`parameter_kinds` name each tensor.

BatchNorm running statistics are a SEPARATE list (not sampled; notes Sec. 8.4 item 16):
``[mean_0, var_0, mean_1, var_1, ...]``, one pair per BN layer in the same order (``6 n + 3``
layers, 42 arrays for ResNet-20), starting at mean 0 and variance 1 as in PyTorch. Train mode
normalises with the batch mean and biased batch variance and returns the running statistics
updated with PyTorch's momentum 0.1 and the *unbiased* batch variance; eval mode normalises with
the running statistics (``eps = 1e-5`` in both; torch's ``num_batches_tracked`` is unused with a
fixed momentum and is not kept).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.networks.label_log_likelihoods import label_log_likelihoods

__all__ = [
    "BN_EPS",
    "BN_MOMENTUM",
    "apply",
    "architecture",
    "check_batch_norm_state",
    "check_parameters",
    "init_batch_norm_state",
    "init_parameters",
    "log_likelihoods",
    "log_softmax",
    "num_parameters",
    "parameter_kinds",
    "parameter_names",
    "parameter_shapes",
]

#: PyTorch's BatchNorm2d defaults (notes Sec. 8.4 item 16: momentum as PyTorch).
BN_EPS, BN_MOMENTUM = 1e-5, 0.1
#: Input images: 3 channels of 32 x 32 pixels (CIFAR-10), NCHW.
IMAGE_SHAPE = (3, 32, 32)
_STEM_FILTERS = 16


def _check_depth(depth: int) -> int:
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 8 or (depth - 2) % 6:
        raise ValueError(f"depth must be an integer 6n + 2 >= 8 (e.g. 20), got {depth!r}")
    return int(depth)


def _check_classes(num_classes: int) -> int:
    if isinstance(num_classes, bool) or not isinstance(num_classes, (int, np.integer)) or num_classes < 2:
        raise ValueError(f"num_classes must be an integer >= 2, got {num_classes!r}")
    return int(num_classes)


def architecture(depth: int = 20) -> tuple[tuple[int, int, int], ...]:
    """The blocks ``(in_channels, out_channels, stride)``, stack by stack (bnn_priors' loop).

    ``((16, 16, 1), (16, 16, 1), (16, 16, 1), (16, 32, 2), (32, 32, 1), ...)`` for ``depth=20``.
    """
    n = (_check_depth(depth) - 2) // 6
    blocks, filters = [], _STEM_FILTERS
    for stack in range(3):
        stride = 1 if stack == 0 else 2
        blocks.append((filters, filters * stride, stride))
        filters *= stride
        blocks += [(filters, filters, 1)] * (n - 1)
    return tuple(blocks)


def _layout(depth: int, num_classes: int) -> list[tuple[str, str, tuple[int, ...]]]:
    """``(name, kind, shape)`` per tensor, in parameter order."""
    def conv_bn(prefix, c_out, c_in, k):
        return [(f"{prefix}.conv", "conv", (c_out, c_in, k, k)), (f"{prefix}.bn.scale", "bn_scale", (c_out,)),
                (f"{prefix}.bn.bias", "bn_bias", (c_out,))]

    layout = conv_bn("stem", _STEM_FILTERS, IMAGE_SHAPE[0], 3)
    for b, (c_in, c_out, stride) in enumerate(architecture(depth)):
        layout += conv_bn(f"block{b}.main1", c_out, c_in, 3) + conv_bn(f"block{b}.main2", c_out, c_out, 3)
        if stride != 1:
            layout += conv_bn(f"block{b}.shortcut", c_out, c_in, 1)
    c_last = architecture(depth)[-1][1]
    layout += [("dense.weight", "dense_weight", (_check_classes(num_classes), c_last)),
               ("dense.bias", "dense_bias", (num_classes,))]
    return layout


def parameter_names(depth: int = 20, num_classes: int = 10) -> list[str]:
    """A name per tensor (``stem.conv``, ``block3.shortcut.bn.scale``, ``dense.bias``, ...)."""
    return [name for name, _, _ in _layout(depth, num_classes)]


def parameter_kinds(depth: int = 20, num_classes: int = 10) -> list[str]:
    """The kind of each tensor: ``conv``, ``bn_scale``, ``bn_bias``, ``dense_weight`` or ``dense_bias``
    (what the priors of :mod:`geobayes.networks.resnet_priors` dispatch on)."""
    return [kind for _, kind, _ in _layout(depth, num_classes)]


def parameter_shapes(depth: int = 20, num_classes: int = 10) -> list[tuple[int, ...]]:
    """The shape of each tensor, in parameter order."""
    return [shape for _, _, shape in _layout(depth, num_classes)]


def num_parameters(depth: int = 20, num_classes: int = 10) -> int:
    """Total number of sampled numbers; 272,474 for ResNet-20 with 10 classes."""
    return sum(math.prod(shape) for shape in parameter_shapes(depth, num_classes))


def _depth_of(n_tensors: int) -> int:
    if (n_tensors - 11) % 18 or n_tensors < 29:
        raise ValueError(f"params must hold 18 n + 11 tensors (65 for ResNet-20), got {n_tensors}")
    return 6 * ((n_tensors - 11) // 18) + 2


def check_parameters(params: Sequence[jax.Array]) -> tuple[list[jax.Array], int, int]:
    """Validate a parameter list; return ``(list, depth, num_classes)`` inferred from it.

    Raises
    ------
    ValueError
        If ``params`` is not a list / tuple of ``18 n + 11`` arrays or a tensor's shape differs
        from the layout (naming its index, name and both shapes).
    """
    if not isinstance(params, (list, tuple)):
        raise ValueError(f"params must be a list of arrays (see parameter_names), got {type(params).__name__}")
    depth = _depth_of(len(params))
    last = np.shape(params[-1])
    if len(last) != 1:
        raise ValueError(f"params[-1] (dense.bias) must be 1-D, got shape {last}")
    num_classes = _check_classes(last[0])
    for t, (name, _, shape) in enumerate(_layout(depth, num_classes)):
        if tuple(np.shape(params[t])) != shape:
            raise ValueError(f"params[{t}] ({name}) must have shape {shape}, got {tuple(np.shape(params[t]))}")
    return list(params), depth, num_classes


def check_batch_norm_state(bn_state: Sequence[jax.Array], depth: int = 20) -> list[jax.Array]:
    """Validate a BN state ``[mean_0, var_0, ...]`` for a network of ``depth``; return it as a list.

    Raises
    ------
    ValueError
        If ``bn_state`` is not a list of ``2 (6 n + 3)`` arrays of the BN layers' channel counts.
    """
    channels = [shape[0] for shape, kind in zip(parameter_shapes(depth), parameter_kinds(depth))
                if kind == "bn_scale"]
    if not isinstance(bn_state, (list, tuple)) or len(bn_state) != 2 * len(channels):
        length = len(bn_state) if hasattr(bn_state, "__len__") else "?"
        raise ValueError(f"bn_state must be a list of {2 * len(channels)} arrays [mean_0, var_0, ...], "
                         f"got {type(bn_state).__name__} of length {length}")
    for i, array in enumerate(bn_state):
        if tuple(np.shape(array)) != (channels[i // 2],):
            raise ValueError(f"bn_state[{i}] must have shape ({channels[i // 2]},), got {tuple(np.shape(array))}")
    return list(bn_state)


def init_parameters(key: jax.Array, depth: int = 20, num_classes: int = 10) -> list[jax.Array]:
    """bnn_priors' ``he_initialize`` (``init_method=he``; notes Secs. 3.1, 8.3), float64.

    * conv and dense weights: ``kaiming_normal_(mode='fan_in', nonlinearity='relu')``, i.e.
      ``N(0, 2 / fan_in)`` with torch's ``fan_in = in * kh * kw`` (``in`` for the dense weight);
    * dense bias: ``U(-1/sqrt(n_out), 1/sqrt(n_out))`` (``n_out = num_classes``; notes Sec. 3.1);
    * BN scale 1, BN bias 0 (torch's defaults; ``he_initialize`` only touches ``*_prior.p``).

    Randomness: one standard-normal draw ``jax.random.normal(fold_in(key, 0), (m,))`` over all
    ``m`` weight numbers, cut in list order and reshaped (row-major) per weight tensor, and the
    dense bias from ``fold_in(key, 1)`` (two random calls: cheap to compile).
    """
    layout = _layout(_check_depth(depth), _check_classes(num_classes))
    weight_sizes = [math.prod(shape) for _, kind, shape in layout if kind in ("conv", "dense_weight")]
    normals = jax.random.normal(jax.random.fold_in(key, 0), (sum(weight_sizes),), jnp.float64)
    pieces = iter(jnp.split(normals, np.cumsum(weight_sizes)[:-1]))
    params = []
    for _, kind, shape in layout:
        if kind in ("conv", "dense_weight"):
            params.append(math.sqrt(2.0 / math.prod(shape[1:])) * next(pieces).reshape(shape))
        elif kind == "dense_bias":
            bound = 1.0 / math.sqrt(shape[0])
            params.append(jax.random.uniform(jax.random.fold_in(key, 1), shape, jnp.float64, -bound, bound))
        else:
            params.append(jnp.full(shape, 1.0 if kind == "bn_scale" else 0.0, jnp.float64))
    return params


def init_batch_norm_state(depth: int = 20) -> list[jax.Array]:
    """Running means 0 and variances 1 per BN layer (PyTorch's initial state), float64."""
    state = []
    for shape, kind in zip(parameter_shapes(depth), parameter_kinds(depth)):
        if kind == "bn_scale":
            state += [jnp.zeros(shape, jnp.float64), jnp.ones(shape, jnp.float64)]
    return state


def _conv(x: jax.Array, weight: jax.Array, stride: int) -> jax.Array:
    pad = (weight.shape[-1] - 1) // 2  # 1 for 3x3, 0 for 1x1 (torch padding)
    return jax.lax.conv_general_dilated(x, weight, (stride, stride), ((pad, pad), (pad, pad)),
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"))


def _batch_norm(x, scale, bias, mean, var, train):
    """One BatchNorm2d; returns ``(y, new_mean, new_var)``."""
    if train:
        batch_mean = jnp.mean(x, axis=(0, 2, 3))
        batch_var = jnp.var(x, axis=(0, 2, 3))
        count = x.shape[0] * x.shape[2] * x.shape[3]
        unbiased = batch_var * count / max(count - 1, 1)
        new_mean = jax.lax.stop_gradient((1 - BN_MOMENTUM) * mean + BN_MOMENTUM * batch_mean)
        new_var = jax.lax.stop_gradient((1 - BN_MOMENTUM) * var + BN_MOMENTUM * unbiased)
        use_mean, use_var = batch_mean, batch_var
    else:
        new_mean, new_var, use_mean, use_var = mean, var, mean, var
    inv = scale / jnp.sqrt(use_var + BN_EPS)
    y = (x - use_mean[None, :, None, None]) * inv[None, :, None, None] + bias[None, :, None, None]
    return y, new_mean, new_var


def _check_inputs(x: jax.Array) -> jax.Array:
    x = jnp.asarray(x)
    if x.ndim != 4 or x.shape[1:] != IMAGE_SHAPE or x.shape[0] < 1:
        raise ValueError(f"x must be NCHW images of shape (n, 3, 32, 32), got {x.shape}")
    return x


def apply(params: Sequence[jax.Array], bn_state: Sequence[jax.Array], x: jax.Array,
          train: bool) -> tuple[jax.Array, list[jax.Array]]:
    """The logits of ResNet-20 and the new BN state.

    Parameters
    ----------
    params
        The tensor list (module docstring; :func:`init_parameters`).
    bn_state
        ``[mean_0, var_0, ...]`` (:func:`init_batch_norm_state`).
    x
        Images, NCHW ``(n, 3, 32, 32)``.
    train
        Python bool: ``True`` normalises with batch statistics and updates the running ones
        (torch's ``model.train()``; needs ``n * H * W > 1`` per BN layer); ``False`` uses the running
        statistics and returns ``bn_state`` unchanged (``model.eval()``).

    Returns
    -------
    logits : jax.Array, shape (n, num_classes)
    new_bn_state : list of jax.Array
        Updated running statistics (no gradient flows into them).

    Raises
    ------
    ValueError
        If ``params`` / ``bn_state`` are malformed, ``x`` is not ``(n, 3, 32, 32)`` or ``train`` is
        not a bool.
    """
    params, depth, _ = check_parameters(params)
    bn_state = check_batch_norm_state(bn_state, depth)
    x = _check_inputs(x)
    if not isinstance(train, (bool, np.bool_)):
        raise ValueError(f"train must be a Python bool, got {type(train).__name__}")
    tensors, stats, new_state = iter(params), iter(bn_state), []

    def conv_bn(h, stride):
        weight, scale, bias = next(tensors), next(tensors), next(tensors)
        y, mean, var = _batch_norm(_conv(h, weight, stride), scale, bias, next(stats), next(stats), bool(train))
        new_state.extend([mean, var])
        return y

    h = jax.nn.relu(conv_bn(x, 1))
    for _, _, stride in architecture(depth):
        y = conv_bn(jax.nn.relu(conv_bn(h, stride)), 1)
        h = jax.nn.relu(y + (conv_bn(h, stride) if stride != 1 else h))
    n, c, height, width = h.shape
    h = h.reshape(n, c, height // 8, 8, width // 8, 8).mean(axis=(3, 5)).reshape(n, -1)  # AvgPool2d(8), flatten
    weight, bias = next(tensors), next(tensors)
    return h @ weight.T + bias, new_state


def log_softmax(params: Sequence[jax.Array], bn_state: Sequence[jax.Array], x: jax.Array) -> jax.Array:
    """Eval-mode ``log softmax(f(x))``, shape ``(n, C)``: what a saved sample predicts with its
    running statistics (notes Sec. 3.5: "running statistics are used at evaluation")."""
    out, _ = apply(params, bn_state, x, train=False)
    return jax.nn.log_softmax(out, axis=-1)


def log_likelihoods(params: Sequence[jax.Array], bn_state: Sequence[jax.Array], x: jax.Array, y: jax.Array,
                    train: bool) -> tuple[jax.Array, list[jax.Array]]:
    """Per-example ``log p(y_n | x_n, theta)`` (softmax at temperature 1) and the new BN state.

    bnn_priors' ``ClassificationModel`` with ``softmax_temp=1``. In train mode the whole batch
    shares its batch statistics, so the terms are not independent across examples (as in torch).

    Returns
    -------
    log_likelihoods : jax.Array, shape (n,)
    new_bn_state : list of jax.Array
        As :func:`apply`.

    Raises
    ------
    ValueError
        From :func:`apply`; if ``y`` is not ``(n,)`` integers or (when concrete) a label lies outside
        ``[0, C)``.
    """
    out, new_state = apply(params, bn_state, x, train)
    lp = jax.nn.log_softmax(out, axis=-1)
    return label_log_likelihoods(lp, y), new_state
