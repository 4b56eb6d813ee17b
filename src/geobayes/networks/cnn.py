"""A small convolutional network evaluated from one flat parameter vector."""

from __future__ import annotations

import math

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.networks.mlp import ACTIVATIONS

#: Convolutions in torch's layout: inputs NCHW, kernels OIHW (``nn.Conv2d.weight``).
_DIMENSIONS = ("NCHW", "OIHW", "NCHW")

#: How :class:`ConvolutionalNetwork` convolves: XLA's convolution, one matrix product over
#: stacked shifted views (im2col), or ``auto`` (:func:`convolution_method`).
CONVOLUTIONS = ("auto", "direct", "im2col")


def convolution_method(dtype, backend: str | None = None) -> str:
    """The faster convolution of :class:`ConvolutionalNetwork` for ``dtype`` on ``backend``.

    im2col for float32 on a CPU, XLA's convolution otherwise. Measured on 2 CPU cores for the
    gradient and Hessian-vector product of a geodesic step on the paper's CNN and 200 images
    (``benchmarks/results/cnn_convolution.json``): in float32 im2col took 16.9 ms against the
    convolution's 35.4 (XLA's float32 convolution gradients are slow there), in float64 44.7 ms
    against 26.2. A forward pass alone on thousands of images is faster by XLA's convolution in
    both dtypes.

    Parameters
    ----------
    dtype
        The floating-point type the network computes in.
    backend : str, optional
        ``"cpu"``, ``"gpu"``, ...; default :func:`jax.default_backend`.

    Returns
    -------
    str
        ``"im2col"`` or ``"direct"``.
    """
    backend = jax.default_backend() if backend is None else backend
    return "im2col" if backend == "cpu" and jnp.dtype(dtype) == jnp.float32 else "direct"


def im2col_convolution(h: jax.Array, weight: jax.Array) -> jax.Array:
    """A stride-1 ``VALID`` convolution (torch's ``nn.Conv2d`` without bias) as one matrix product.

    The ``k x k`` shifted views of ``h`` are stacked after its channels, ``(N, C k k, H' W')``
    ("im2col"), and multiplied by the kernel as a ``(O, C k k)`` matrix: the same sums as
    :func:`jax.lax.conv_general_dilated` in another order (equal to round-off).

    Parameters
    ----------
    h : jax.Array
        Images ``(N, C, H, W)``.
    weight : jax.Array
        Kernels ``(O, C, k, k)`` (torch's layout).

    Returns
    -------
    jax.Array
        ``(N, O, H - k + 1, W - k + 1)``.
    """
    out_channels, channels, k, _ = weight.shape
    n, _, height, width = h.shape
    rows, cols = height - k + 1, width - k + 1
    views = jnp.stack([h[:, :, i:i + rows, j:j + cols] for i in range(k) for j in range(k)], axis=2)
    views = views.reshape(n, channels * k * k, rows * cols)
    out = jnp.einsum("ok,nkp->nop", weight.reshape(out_channels, channels * k * k), views)
    return out.reshape(n, out_channels, rows, cols)


class ConvolutionalNetwork(eqx.Module):
    """``[conv k x k -> phi -> avg-pool p] x L -> flatten -> [dense -> phi] x M -> dense`` (logits).

    Bergamin et al. (2023), Sec. 5.2 and App. D.5: on MNIST / FashionMNIST, Conv(1 -> 4, 5 x 5),
    tanh, average pooling; Conv(4 -> 4, 5 x 5), tanh, average pooling; fully connected layers of
    16, 10 and 10 units. The paper states neither the pool size nor the padding, nor whether
    tanh follows the last layer. We take 2 x 2 pooling (stride 2) and no padding, so the feature
    maps are 28 -> 24 -> 12 -> 8 -> 4 and 4 x 4 x 4 = 64 features reach the dense layers, and
    the last layer is linear (logits): 104 + 404 + 1040 + 170 + 110 = 1,828 parameters, the
    paper's "~1,828" (notes Sec. 2.6). A pool that does not divide the map drops the last
    rows and columns, as torch's ``AvgPool2d`` does.

    The parameters are one flat vector ``theta`` in the order of torch's
    ``nn.Sequential(Conv2d(1, 4, 5), Tanh(), AvgPool2d(2), Conv2d(4, 4, 5), Tanh(), AvgPool2d(2),
    Flatten(), Linear(64, 16), Tanh(), Linear(16, 10), Tanh(), Linear(10, 10))``: per layer the
    weight (``(out, in, k, k)`` or ``(out, in)``, row-major), then the bias; so
    ``torch.nn.utils.vector_to_parameters(theta, model.parameters())`` loads the same network.

    Parameters
    ----------
    image_shape
        ``(channels, height, width)`` of one input image; ``(1, 28, 28)`` for MNIST.
    conv_channels
        Output channels of the convolutional layers, ``(4, 4)`` in the paper.
    kernel_size
        Side of the square kernels (stride 1, no padding), 5 in the paper.
    pool_size
        Side and stride of the square average pools, 2 here (1 = no pooling).
    hidden
        Widths of the hidden dense layers, ``(16, 10)`` in the paper.
    num_classes
        Width of the linear output layer (the logits), 10 in the paper.
    activation
        A key of :data:`~geobayes.networks.mlp.ACTIVATIONS` (tanh: the geodesic ODE needs a
        smooth loss, Bergamin et al. 2023, App. B).
    convolution
        ``direct`` (XLA's convolution), ``im2col`` (:func:`im2col_convolution`) or ``auto``
        (:func:`convolution_method` of the parameters' dtype): the same network either way.
    """

    image_shape: tuple[int, int, int] = eqx.field(static=True, default=(1, 28, 28))
    conv_channels: tuple[int, ...] = eqx.field(static=True, default=(4, 4))
    kernel_size: int = eqx.field(static=True, default=5)
    pool_size: int = eqx.field(static=True, default=2)
    hidden: tuple[int, ...] = eqx.field(static=True, default=(16, 10))
    num_classes: int = eqx.field(static=True, default=10)
    activation: str = eqx.field(static=True, default="tanh")
    convolution: str = eqx.field(static=True, default="auto")

    def __check_init__(self):
        positive = (*self.image_shape, *self.conv_channels, self.kernel_size, self.pool_size, *self.hidden,
                    self.num_classes)
        if len(self.image_shape) != 3 or not self.conv_channels or any(int(k) < 1 for k in positive):
            raise ValueError(f"convolutional network needs image_shape (C, H, W), at least one conv layer and "
                             f"sizes >= 1, got image_shape={self.image_shape}, conv_channels={self.conv_channels}, "
                             f"kernel_size={self.kernel_size}, pool_size={self.pool_size}, hidden={self.hidden}, "
                             f"num_classes={self.num_classes}")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {self.activation!r}; known: {', '.join(ACTIVATIONS)}")
        if self.convolution not in CONVOLUTIONS:
            raise ValueError(f"convolutional network: unknown convolution {self.convolution!r}; known: "
                             f"{', '.join(CONVOLUTIONS)}")
        if min(min(size) for size in self.feature_map_sizes) < 1:
            raise ValueError(f"image {self.image_shape[1:]} shrinks to nothing through {len(self.conv_channels)} "
                             f"conv {self.kernel_size}x{self.kernel_size} + pool {self.pool_size} layers "
                             f"(feature maps {self.feature_map_sizes})")

    @property
    def feature_map_sizes(self) -> tuple[tuple[int, int], ...]:
        """``(height, width)`` after the input and after each conv + pool block (28, 12, 4 here)."""
        h, w = self.image_shape[1:]
        sizes = [(h, w)]
        for _ in self.conv_channels:
            h = (h - self.kernel_size + 1) // self.pool_size
            w = (w - self.kernel_size + 1) // self.pool_size
            sizes.append((h, w))
        return tuple(sizes)

    @property
    def num_features(self) -> int:
        """Flattened features entering the first dense layer (64 here)."""
        h, w = self.feature_map_sizes[-1]
        return self.conv_channels[-1] * h * w

    @property
    def num_outputs(self) -> int:
        """Width of the output layer (the number of classes)."""
        return self.num_classes

    @property
    def layer_shapes(self) -> tuple[tuple[tuple[int, ...], int], ...]:
        """``(weight shape, fan_in)`` of every layer in parameter order; the bias has ``weight
        shape[0]`` entries."""
        k = self.kernel_size
        shapes = []
        channels = (self.image_shape[0], *self.conv_channels)
        for c_in, c_out in zip(channels[:-1], channels[1:]):
            shapes.append(((c_out, c_in, k, k), c_in * k * k))
        widths = (self.num_features, *self.hidden, self.num_classes)
        for fan_in, fan_out in zip(widths[:-1], widths[1:]):
            shapes.append(((fan_out, fan_in), fan_in))
        return tuple(shapes)

    @property
    def num_parameters(self) -> int:
        """Weights and biases of every layer (1,828 for the paper's network)."""
        return sum(math.prod(shape) + shape[0] for shape, _ in self.layer_shapes)

    def unflatten(self, theta: jax.Array) -> list[tuple[jax.Array, jax.Array]]:
        """``[(W, b), ...]`` per layer, convolutions first (``W`` of shape ``(out, in, k, k)``),
        then the dense layers (``(out, in)``).

        Raises
        ------
        ValueError
            If ``theta`` does not have :attr:`num_parameters` entries.
        """
        if theta.shape != (self.num_parameters,):
            raise ValueError(f"convolutional network has {self.num_parameters} parameters, "
                             f"got a vector of shape {theta.shape}")
        layers, start = [], 0
        for shape, _ in self.layer_shapes:
            size = math.prod(shape)
            weight = theta[start:start + size].reshape(shape)
            start += size
            layers.append((weight, theta[start:start + shape[0]]))
            start += shape[0]
        return layers

    def images(self, X: jax.Array) -> jax.Array:
        """``X`` as a batch of images (N, C, H, W): flattened rows (N, C*H*W) in torch's
        ``Flatten`` order are reshaped, image batches pass unchanged.

        Raises
        ------
        ValueError
            If ``X`` is neither.
        """
        c, h, w = self.image_shape
        if X.ndim == 2 and X.shape[1] == c * h * w:
            return X.reshape(X.shape[0], c, h, w)
        if X.ndim == 4 and X.shape[1:] == (c, h, w):
            return X
        raise ValueError(f"convolutional network needs inputs (N, {c * h * w}) or (N, {c}, {h}, {w}), "
                         f"got {X.shape}")

    def _pool(self, h: jax.Array) -> jax.Array:
        """Average over non-overlapping ``p x p`` windows, the remainder dropped (``AvgPool2d(p)``)."""
        p = self.pool_size
        n, c, height, width = h.shape
        rows, cols = height // p, width // p
        h = h[:, :, :rows * p, :cols * p]
        return h.reshape(n, c, rows, p, cols, p).mean(axis=(3, 5))

    def __call__(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """Logits at inputs ``X`` ((N, C*H*W) or (N, C, H, W)), shape (N, num_classes)."""
        phi = ACTIVATIONS[self.activation]
        layers = self.unflatten(theta)
        convs, dense = layers[:len(self.conv_channels)], layers[len(self.conv_channels):]
        h = self.images(X)
        method = self.convolution
        if method == "auto":
            method = convolution_method(jnp.result_type(theta, h))
        for weight, bias in convs:
            if method == "im2col":
                h = im2col_convolution(h, weight)
            else:
                h = jax.lax.conv_general_dilated(h, weight, window_strides=(1, 1), padding="VALID",
                                                 dimension_numbers=_DIMENSIONS)
            h = self._pool(phi(h + bias[None, :, None, None]))
        h = h.reshape(h.shape[0], -1)
        for weight, bias in dense[:-1]:
            h = phi(h @ weight.T + bias)
        weight, bias = dense[-1]
        return h @ weight.T + bias

    def initial_parameters(self, key: jax.Array) -> jax.Array:
        """torch's default ``nn.Conv2d`` / ``nn.Linear`` initialisation, flat, float64.

        Weights and biases ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))`` with ``fan_in = in_channels k^2``
        for a convolution (``kaiming_uniform_(a=sqrt(5))`` reduces to this bound); layer ``i``
        draws from ``fold_in(key, i)``, as :meth:`MultilayerPerceptron.initial_parameters`.
        """
        parts = []
        for i, (shape, fan_in) in enumerate(self.layer_shapes):
            bound = 1.0 / jnp.sqrt(fan_in)
            k = jax.random.fold_in(key, i)
            parts.append(jax.random.uniform(k, (math.prod(shape) + shape[0],), jnp.float64, -bound, bound))
        return jnp.concatenate(parts)
