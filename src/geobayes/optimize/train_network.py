"""Full-batch MAP training of a network with Optax, as the papers' torch training loops.

Yu et al. (2024), Sec. 5.4 (notes Sec. 2.6): ``torch.optim.Adam(lr=1e-2, weight_decay=1e-5)``
on ``torch.nn.MSELoss()`` for 20,000 epochs (``weight_decay=1e-4`` for standardised data;
Supp. 16.5.3: ``lr=1e-3``, ``weight_decay=1e-4``, 50,000 epochs). Bergamin et al. (2023),
Sec. 5.1 (notes Sec. 2.2 and 5.1): ``torch.optim.SGD(lr=1e-3, weight_decay=wd)`` on
``0.5 * sum((f - y)**2)`` for 700,000 (1-15-1, ``wd=1e-3``) or 35,000 (1-10-10-1,
``wd=1e-2``) epochs. Torch's ``weight_decay`` is *coupled*: it adds ``wd * theta`` to the
gradient before the optimiser sees it, which is ``optax.add_decayed_weights(wd)`` chained
before ``optax.adam`` / ``optax.sgd``. Each epoch is one full-batch step.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
import optax

__all__ = ["OPTIMIZERS", "LOSSES", "TrainingResult", "train_network"]

#: ``name -> (learning_rate, weight_decay) -> optax transformation``, torch semantics.
OPTIMIZERS: dict[str, Callable[[float, float], optax.GradientTransformation]] = {
    "adam": lambda lr, wd: optax.chain(optax.add_decayed_weights(wd), optax.adam(lr, b1=0.9, b2=0.999, eps=1e-8)),
    "sgd": lambda lr, wd: optax.chain(optax.add_decayed_weights(wd), optax.sgd(lr)),
}

#: ``name -> (prediction, target) -> loss``: torch ``MSELoss`` (mean over all entries; Yu
#: et al.) and half the sum of squared errors (Bergamin et al.).
LOSSES: dict[str, Callable[[jax.Array, jax.Array], jax.Array]] = {
    "mse_mean": lambda f, y: jnp.mean((f - y) ** 2),
    "half_sse": lambda f, y: 0.5 * jnp.sum((f - y) ** 2),
}


@dataclass(frozen=True)
class TrainingResult:
    """Result of :func:`train_network`.

    Attributes
    ----------
    theta : numpy.ndarray, shape (D,)
        Parameters after the last epoch.
    loss : float
        Data loss (without the weight decay) at ``theta``.
    loss_trace : numpy.ndarray, shape (ceil(epochs / record_every),)
        Data loss at the start of epochs ``0, record_every, 2 record_every, ...``, i.e. the
        loss the torch loop computes in that epoch before its update.
    trace_epochs : numpy.ndarray, shape like ``loss_trace``
        The epochs of ``loss_trace``.
    epochs : int
        Number of epochs (= full-batch steps) run.
    """

    theta: np.ndarray
    loss: float
    loss_trace: np.ndarray
    trace_epochs: np.ndarray
    epochs: int


def _positive_int(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1; got {value!r}")
    return int(value)


def train_network(
    network: Callable[[jax.Array, jax.Array], jax.Array],
    X,
    y,
    theta0,
    *,
    optimizer: str,
    learning_rate: float,
    weight_decay: float,
    epochs: int,
    loss: str,
    record_every: int = 1000,
) -> TrainingResult:
    """Train ``network`` by full-batch ``optimizer`` steps on ``loss + weight decay``.

    Reproduces the MAP training loops of Yu et al. (2024), Sec. 5.4 (Adam, ``mse_mean``) and
    Bergamin et al. (2023), Sec. 5.1 (SGD, ``half_sse``); see the module docstring. Each epoch
    is one step on all of ``X``. The epochs run inside one jitted ``lax.fori_loop`` with a
    dynamic length (compiled once per call), called once per ``record_every`` epochs, so
    700,000 epochs of a small network take seconds.

    Parameters
    ----------
    network : callable
        ``network(theta, X) -> (N, d_out)``, e.g. a
        :class:`geobayes.networks.mlp.MultilayerPerceptron`.
    X : array_like, shape (N, d_in)
        Training inputs.
    y : array_like, shape (N,) or (N, d_out)
        Training targets; (N,) is read as (N, 1).
    theta0 : array_like, shape (D,)
        Initial parameters (e.g. ``network.initial_parameters(key)``).
    optimizer : {"adam", "sgd"}
        ``torch.optim.Adam`` (betas 0.9, 0.999, eps 1e-8) or plain ``torch.optim.SGD``, both
        with coupled weight decay.
    learning_rate : float
        Step size, > 0.
    weight_decay : float
        Torch's ``weight_decay`` (``wd * theta`` added to the gradient), >= 0.
    epochs : int
        Number of full-batch steps, >= 1.
    loss : {"mse_mean", "half_sse"}
        ``mean((f - y)**2)`` (torch ``MSELoss``) or ``0.5 * sum((f - y)**2)``.
    record_every : int, optional
        Record the loss every this many epochs (default 1000), >= 1.

    Returns
    -------
    TrainingResult
        Final parameters, final loss and the loss trace.

    Raises
    ------
    ValueError
        If ``optimizer`` or ``loss`` is unknown (the message lists the known ones), a count is
        not a positive integer, ``learning_rate``/``weight_decay`` is out of range, or the
        shapes of ``X``, ``y``, ``theta0`` and the network output disagree.
    """
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"unknown optimizer {optimizer!r}; known: {', '.join(OPTIMIZERS)}")
    if loss not in LOSSES:
        raise ValueError(f"unknown loss {loss!r}; known: {', '.join(LOSSES)}")
    epochs = _positive_int("epochs", epochs)
    record_every = _positive_int("record_every", record_every)
    if not (np.isfinite(learning_rate) and learning_rate > 0):
        raise ValueError(f"learning_rate must be finite and > 0; got {learning_rate!r}")
    if not (np.isfinite(weight_decay) and weight_decay >= 0):
        raise ValueError(f"weight_decay must be finite and >= 0; got {weight_decay!r}")
    X = jnp.asarray(X, dtype=jnp.float64)
    y = jnp.asarray(y, dtype=jnp.float64)
    theta0 = jnp.asarray(theta0, dtype=jnp.float64)
    if X.ndim != 2 or theta0.ndim != 1:
        raise ValueError(f"X must be (N, d_in) and theta0 (D,); got X {X.shape}, theta0 {theta0.shape}")
    y = y[:, None] if y.ndim == 1 else y
    out_shape = jax.eval_shape(network, theta0, X).shape
    if y.shape != out_shape:
        raise ValueError(f"targets of shape {y.shape} do not match the network output {out_shape}")

    data_loss = LOSSES[loss]
    transform = OPTIMIZERS[optimizer](float(learning_rate), float(weight_decay))

    def objective(theta):
        return data_loss(network(theta, X), y)

    def step(_, carry):
        theta, state = carry
        grad = jax.grad(objective)(theta)
        updates, state = transform.update(grad, state, theta)
        return optax.apply_updates(theta, updates), state

    @jax.jit
    def advance(theta, state, n_steps):
        """Loss at ``theta``, then ``n_steps`` epochs."""
        value = objective(theta)
        theta, state = jax.lax.fori_loop(0, n_steps, step, (theta, state))
        return theta, state, value

    theta, state = theta0, transform.init(theta0)
    trace_epochs = np.arange(0, epochs, record_every)
    trace = []
    for start in trace_epochs:
        n_steps = min(record_every, epochs - int(start))
        theta, state, value = advance(theta, state, jnp.asarray(n_steps, dtype=jnp.int32))
        trace.append(value)
    final = float(jax.jit(objective)(theta))
    return TrainingResult(
        theta=np.asarray(theta),
        loss=final,
        loss_trace=np.asarray(jnp.stack(trace)),
        trace_epochs=trace_epochs,
        epochs=epochs,
    )
