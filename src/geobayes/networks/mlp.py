"""A fully connected network evaluated from one flat parameter vector."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

#: Smooth activations (Bergamin et al. 2023, App. B: the geodesic ODE needs a smooth loss, so
#: no ReLU): tanh in Yu et al. (2024) Sec. 5.4 and Bergamin et al.; SiLU in Hartmann et al.
#: (2026) App. D for the classifier.
ACTIVATIONS = {"tanh": jnp.tanh, "silu": jax.nn.silu}


class MultilayerPerceptron(eqx.Module):
    """``f_theta(x) = W_L phi(... phi(W_1 x + b_1) ...) + b_L``, linear output layer.

    Hartmann et al. (2026), Sec. 5.3.2 writes the same network with ``L`` hidden layers of widths
    ``k_1..k_L``. The parameters are one flat vector ``theta`` in torch's ``nn.Sequential``
    order (per layer the weight ``(out, in)`` row-major, then the bias), so that
    ``torch.nn.utils.vector_to_parameters(theta, model.parameters())`` loads the same network.

    Parameters
    ----------
    layer_sizes
        ``(d_in, k_1, ..., k_L, d_out)``; ``(1, 10, 1)`` is Yu et al.'s 1-10-1 network (D = 31).
    activation
        A key of :data:`ACTIVATIONS`.
    """

    layer_sizes: tuple[int, ...] = eqx.field(static=True)
    activation: str = eqx.field(static=True, default="tanh")

    def __check_init__(self):
        if len(self.layer_sizes) < 2 or any(int(k) < 1 for k in self.layer_sizes):
            raise ValueError(f"layer_sizes needs at least input and output widths >= 1, got {self.layer_sizes}")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {self.activation!r}; known: {', '.join(ACTIVATIONS)}")

    @property
    def num_parameters(self) -> int:
        """``sum_l (k_{l-1} + 1) k_l`` (31 for 1-10-1, 141 for 1-10-10-1, 301 for 2-15-15-1)."""
        sizes = self.layer_sizes
        return sum((sizes[i] + 1) * sizes[i + 1] for i in range(len(sizes) - 1))

    @property
    def num_outputs(self) -> int:
        """Width of the output layer ``d_out``."""
        return self.layer_sizes[-1]

    def unflatten(self, theta: jax.Array) -> list[tuple[jax.Array, jax.Array]]:
        """``[(W_1, b_1), ..., (W_L, b_L)]`` with ``W_l`` of shape ``(k_l, k_{l-1})``.

        Raises
        ------
        ValueError
            If ``theta`` does not have :attr:`num_parameters` entries.
        """
        if theta.shape != (self.num_parameters,):
            raise ValueError(f"network {self.layer_sizes} has {self.num_parameters} parameters, "
                             f"got a vector of shape {theta.shape}")
        layers, start = [], 0
        for fan_in, fan_out in zip(self.layer_sizes[:-1], self.layer_sizes[1:]):
            weight = theta[start:start + fan_in * fan_out].reshape(fan_out, fan_in)
            start += fan_in * fan_out
            layers.append((weight, theta[start:start + fan_out]))
            start += fan_out
        return layers

    def __call__(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """Network outputs at inputs ``X`` (N, d_in), shape (N, d_out)."""
        phi = ACTIVATIONS[self.activation]
        layers = self.unflatten(theta)
        h = X
        for weight, bias in layers[:-1]:
            h = phi(h @ weight.T + bias)
        weight, bias = layers[-1]
        return h @ weight.T + bias

    def initial_parameters(self, key: jax.Array) -> jax.Array:
        """torch's default ``nn.Linear`` initialisation: weights and biases
        ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))``, flat, float64."""
        parts = []
        for i, (fan_in, fan_out) in enumerate(zip(self.layer_sizes[:-1], self.layer_sizes[1:])):
            bound = 1.0 / jnp.sqrt(fan_in)
            k = jax.random.fold_in(key, i)
            parts.append(jax.random.uniform(k, ((fan_in + 1) * fan_out,), jnp.float64, -bound, bound))
        return jnp.concatenate(parts)
