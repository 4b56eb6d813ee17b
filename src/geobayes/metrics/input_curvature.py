"""Input-space curvature ``C`` of Srinivas et al. (2022) as Yu et al. (2023) measure it.

Yu et al. (2023), Sec. 4.1 report "Curv.", the posterior expectation of the normalised
curvature ``C(theta)`` of Srinivas et al. (2022). The code measures it (notes Secs. 3.2, 8.4
item 9 [C]) with respect to the INPUTS, per saved sample, in eval mode, on the first 1000 test
images in 10 batches of 100, following Srinivas et al.'s ``curvature_hessian_estimator``
(``kylematoba/lcnn``, ``estimate_curvature.py``). For one batch ``x = (x_1, ..., x_B)``:

* ``l(x) = -1/B sum_i log p(y_i | x_i, theta)``, the batch-average potential (the prior's
  ``-log p(theta)/N`` term of the code's ``potential_avg`` does not depend on ``x`` and is left
  out). Its input Hessian is block diagonal (examples do not interact in eval mode; no
  BatchNorm in the MLP), so everything below is PER INPUT, as in Srinivas et al.'s estimator
  (norms over each image's own axes) and as the notes say ("per test input"):
* ``g_i = d l / d x_i`` and ``||g_i||_2``;
* ``u_i``: start from a Gaussian vector normalised per input, then ``num_power_iterations``
  (20) steps ``u_i <- (H u)_i / (||(H u)_i||_2 + 1e-6)`` with ``H u`` the input-space
  Hessian-vector product of ``l`` (the ``+1e-6`` is Srinivas et al.'s, kept);
* ``C_i = |u_i^T (H u)_i| / (||g_i||_2 + 1e-6)``.

Because ``l`` is the batch AVERAGE, ``g_i`` and ``H`` carry a factor ``1/B``; ``C_i`` is scale-free
except through the two ``1e-6`` constants, which therefore act at the scale of ``1/B`` times the
per-example quantities. We reproduce that (it is what the code computes).

The start vector is not specified by the notes; the code draws ``torch.randn_like`` from the global
torch RNG. Here it is ``jax.random.normal(jax.random.fold_in(key, b), x_b.shape)`` for batch ``b``
(a seeded Gaussian, so results are reproducible). The per-sample value is the mean of ``C_i`` over
all inputs (= the mean over batches of the batch means, the batches being of equal size).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp

__all__ = ["CURVATURE_EPS", "InputCurvature", "average_input_curvature", "batch_input_curvature",
           "input_curvatures"]

#: Srinivas et al.'s stabiliser, in the power-iteration normalisation and in ``C``'s denominator.
CURVATURE_EPS = 1e-6


class InputCurvature(NamedTuple):
    """Per-input results: ``curvature`` ``C_i``, ``hessian`` ``|u_i^T (H u)_i|`` and
    ``gradient_norm`` ``||g_i||_2``, each of shape ``(n,)``."""

    curvature: jax.Array
    hessian: jax.Array
    gradient_norm: jax.Array


def _row_norms(v: jax.Array) -> jax.Array:
    return jnp.sqrt(jnp.sum(jnp.square(v.reshape(v.shape[0], -1)), axis=1))


def _per_row(scalars: jax.Array, v: jax.Array) -> jax.Array:
    return scalars.reshape((-1,) + (1,) * (v.ndim - 1))


def batch_input_curvature(loss_fn: Callable[[jax.Array], jax.Array], x: jax.Array, key: jax.Array,
                          num_power_iterations: int = 20) -> InputCurvature:
    """``C_i`` of every input of one batch, for a scalar loss ``loss_fn(x)`` of the batch ``x``.

    Parameters
    ----------
    loss_fn : callable
        ``x -> scalar``; in Yu et al.'s use the batch-average potential (module docstring). Its
        Hessian must be block diagonal over the first axis (inputs do not interact).
    x : jax.Array, shape (B, ...)
        The batch; the first axis indexes inputs.
    key : jax.Array
        PRNG key of the Gaussian start vector.
    num_power_iterations : int, optional
        Power iterations (20 in the code).

    Returns
    -------
    InputCurvature
        Arrays of shape ``(B,)``.
    """
    grad_fn = jax.grad(loss_fn)
    gradients = grad_fn(x)

    def hvp(v):
        return jax.jvp(grad_fn, (x,), (v,))[1]

    u = jax.random.normal(key, x.shape, x.dtype)
    u = u / _per_row(_row_norms(u), u)

    def step(_, u):
        hu = hvp(u)
        return hu / _per_row(_row_norms(hu) + CURVATURE_EPS, hu)

    u = jax.lax.fori_loop(0, num_power_iterations, step, u)
    hessian = jnp.abs(jnp.sum((hvp(u) * u).reshape(x.shape[0], -1), axis=1))
    gradient_norm = _row_norms(gradients)
    return InputCurvature(hessian / (gradient_norm + CURVATURE_EPS), hessian, gradient_norm)


def _check(x, y, n_inputs, batch_size, num_power_iterations):
    for name, value in (("n_inputs", n_inputs), ("batch_size", batch_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    if isinstance(num_power_iterations, bool) or not isinstance(num_power_iterations, int) or num_power_iterations < 0:
        raise ValueError(f"num_power_iterations must be an integer >= 0, got {num_power_iterations!r}")
    if n_inputs % batch_size:
        raise ValueError(f"n_inputs ({n_inputs}) must be a multiple of batch_size ({batch_size})")
    if jnp.ndim(x) < 2 or jnp.shape(x)[0] < n_inputs:
        raise ValueError(f"x must be (n, ...) with n >= n_inputs = {n_inputs}, got shape {jnp.shape(x)}")
    if jnp.shape(y)[:1] != jnp.shape(x)[:1]:
        raise ValueError(f"y must have one label per row of x ({jnp.shape(x)[0]}), got shape {jnp.shape(y)}")


@partial(jax.jit, static_argnums=(0, 5))
def _batch(log_likelihood_fn, params, x, y, key, num_power_iterations):
    def potential(xb):
        return -jnp.mean(log_likelihood_fn(params, xb, y))

    return batch_input_curvature(potential, x, key, num_power_iterations)


def input_curvatures(log_likelihood_fn: Callable, params, x: jax.Array, y: jax.Array, key: jax.Array, *,
                     n_inputs: int = 1000, batch_size: int = 100, num_power_iterations: int = 20) -> InputCurvature:
    """``C_i`` of the first ``n_inputs`` inputs in batches of ``batch_size`` (Yu et al. 2023, Sec. 4.1).

    Parameters
    ----------
    log_likelihood_fn : callable
        ``(params, x_batch, y_batch) -> (B,)`` per-example log likelihoods, e.g.
        :func:`geobayes.networks.dense_relu_classifier.log_likelihoods`; must be hashable (it is a
        static argument of the compiled batch function).
    params : pytree
        One posterior sample's network parameters.
    x, y : jax.Array
        Test inputs ``(n, ...)`` and labels ``(n,)``; the first ``n_inputs`` are used.
    key : jax.Array
        Batch ``b`` (0-based) starts its power iteration from ``fold_in(key, b)``.
    n_inputs, batch_size, num_power_iterations : int, optional
        1000, 100 and 20 in the code (notes Sec. 3.2); ``n_inputs`` must be a multiple of
        ``batch_size``.

    Returns
    -------
    InputCurvature
        Arrays of shape ``(n_inputs,)``.

    Raises
    ------
    ValueError
        For a non-positive or non-integer size, ``n_inputs`` not a multiple of ``batch_size``,
        fewer than ``n_inputs`` rows in ``x``, or ``y`` not matching ``x`` (naming the argument).
    """
    _check(x, y, n_inputs, batch_size, num_power_iterations)
    parts = []
    for b in range(n_inputs // batch_size):
        rows = slice(b * batch_size, (b + 1) * batch_size)
        parts.append(_batch(log_likelihood_fn, params, jnp.asarray(x[rows]), jnp.asarray(y[rows]),
                            jax.random.fold_in(key, b), num_power_iterations))
    return InputCurvature(*(jnp.concatenate(arrays) for arrays in zip(*parts)))


def average_input_curvature(log_likelihood_fn: Callable, params, x: jax.Array, y: jax.Array, key: jax.Array, *,
                            n_inputs: int = 1000, batch_size: int = 100, num_power_iterations: int = 20) -> float:
    """The mean of :func:`input_curvatures`' ``C_i``: one posterior sample's curvature, whose mean
    over samples (and runs) is the "Curv." of Yu et al. (2023), Tables 2-3 (notes Sec. 3.2)."""
    result = input_curvatures(log_likelihood_fn, params, x, y, key, n_inputs=n_inputs, batch_size=batch_size,
                              num_power_iterations=num_power_iterations)
    return float(jnp.mean(result.curvature))
