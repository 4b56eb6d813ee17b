"""MAP training of a softmax network classifier with Optax, as Bergamin et al.'s torch loops.

Bergamin et al. (2023), Sec. 5.2 and App. D.2-D.5 (notes Secs. 2.3-2.6 and 5.1):

* banana (2-16-16-2) and pinwheel (2-20-20-5): ``torch.optim.SGD(lr=1e-3, weight_decay=1e-2)``,
  full batch, ``CrossEntropyLoss(reduction='sum')``, 2,500 / 5,000 epochs;
* UCI (D-50-C): ``Adam(lr=1e-3, weight_decay=1e-2)``, 10,000 epochs (batch size not stated:
  full batch);
* MNIST / FashionMNIST (the CNN): ``SGD(lr=1e-3, weight_decay=5e-4)``, 100 epochs of mini-batches
  of 128 (the code's loader default) with cosine annealing (``CosineAnnealingLR(T_max=epochs)``,
  stepped once per epoch).

Torch's weight decay is coupled (``wd * theta`` added to the gradient), as in
:mod:`geobayes.optimize.train_network`, whose optimiser table this module shares. A mini-batch
epoch visits a fresh permutation of the training set (``jax.random.fold_in(key, epoch)``) in
``ceil(N / B)`` batches, the last one short, as a torch ``DataLoader(shuffle=True)`` without
``drop_last``; the short batch is padded and masked so one compiled step serves every batch.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
import optax

from geobayes.optimize.train_network import OPTIMIZERS, TrainingResult, _positive_int

__all__ = ["CLASSIFIER_LOSSES", "SCHEDULES", "ClassifierTraining", "train_classifier"]

#: Reductions of the softmax cross-entropy over a batch: torch ``CrossEntropyLoss(reduction=...)``.
CLASSIFIER_LOSSES = ("cross_entropy_sum", "cross_entropy_mean")

#: Learning-rate schedules over epochs: constant, or torch's ``CosineAnnealingLR(T_max=epochs,
#: eta_min=0)`` stepped once per epoch, ``lr_e = lr (1 + cos(pi e / epochs)) / 2``.
SCHEDULES = ("constant", "cosine")


@dataclass(frozen=True)
class ClassifierTraining:
    """The settings of one training run (an experiment's ``training.<network>`` block).

    Attributes
    ----------
    optimizer : {"adam", "sgd"}
    learning_rate : float
        > 0.
    weight_decay : float
        Torch's coupled weight decay, >= 0.
    epochs : int
        >= 1.
    loss : {"cross_entropy_sum", "cross_entropy_mean"}
    batch_size : int or None
        Mini-batch size; None for full-batch steps (one per epoch).
    schedule : {"constant", "cosine"}
    """

    optimizer: str
    learning_rate: float
    weight_decay: float
    epochs: int
    loss: str
    batch_size: int | None = None
    schedule: str = "constant"

    def __post_init__(self):
        where = "training"
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(f"{where}.optimizer: unknown {self.optimizer!r}; known: {', '.join(OPTIMIZERS)}")
        if self.loss not in CLASSIFIER_LOSSES:
            raise ValueError(f"{where}.loss: unknown {self.loss!r}; known: {', '.join(CLASSIFIER_LOSSES)}")
        if self.schedule not in SCHEDULES:
            raise ValueError(f"{where}.schedule: unknown {self.schedule!r}; known: {', '.join(SCHEDULES)}")
        _positive_int(f"{where}.epochs", self.epochs)
        if self.batch_size is not None:
            _positive_int(f"{where}.batch_size", self.batch_size)
        if not (np.isfinite(self.learning_rate) and self.learning_rate > 0):
            raise ValueError(f"{where}.learning_rate must be finite and > 0; got {self.learning_rate!r}")
        if not (np.isfinite(self.weight_decay) and self.weight_decay >= 0):
            raise ValueError(f"{where}.weight_decay must be finite and >= 0; got {self.weight_decay!r}")


def _cross_entropy(logits: jax.Array, y: jax.Array, weights: jax.Array) -> jax.Array:
    """``sum_n w_n (logsumexp(logits_n) - logits_{n, y_n})``."""
    picked = jnp.take_along_axis(logits, y[:, None], axis=1)[:, 0]
    return jnp.sum(weights * (jax.nn.logsumexp(logits, axis=1) - picked))


def _check_data(network, X, y, theta0) -> tuple[jax.Array, jax.Array, jax.Array]:
    X = jnp.asarray(X, dtype=jnp.float64)
    theta0 = jnp.asarray(theta0, dtype=jnp.float64)
    labels = np.asarray(y)
    if X.ndim != 2 or theta0.ndim != 1 or labels.ndim != 1:
        raise ValueError(f"X must be (N, d_in), y (N,) and theta0 (D,); got X {X.shape}, y {labels.shape}, "
                         f"theta0 {theta0.shape}")
    if labels.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {labels.shape[0]} labels")
    n_classes = jax.eval_shape(network, theta0, X[:1]).shape[1]
    if not np.all(np.isfinite(labels)) or np.any(labels != np.round(labels)) or labels.min() < 0 \
            or labels.max() >= n_classes:
        raise ValueError(f"labels must be integers in [0, {n_classes}) (the network's {n_classes} outputs); "
                         f"got values in [{labels.min()}, {labels.max()}]")
    return X, jnp.asarray(labels.astype(np.int64)), theta0


def train_classifier(network: Callable[[jax.Array, jax.Array], jax.Array], X, y, theta0,
                     settings: ClassifierTraining, key: jax.Array, *, record_every: int = 100) -> TrainingResult:
    """Train ``network``'s softmax cross-entropy plus coupled weight decay, as the paper's loops.

    Parameters
    ----------
    network : callable
        ``network(theta, X) -> logits (N, C)``: a
        :class:`~geobayes.networks.mlp.MultilayerPerceptron` with C outputs or a
        :class:`~geobayes.networks.cnn.ConvolutionalNetwork`.
    X : array_like, shape (N, d_in)
    y : array_like, shape (N,)
        Class indices in ``[0, C)``.
    theta0 : array_like, shape (D,)
        Initial parameters (``network.initial_parameters(key)``: torch's default init).
    settings : ClassifierTraining
    key : jax.Array
        Key of the mini-batch permutations (unused for full-batch training).
    record_every : int, optional
        Record the full-data loss every this many epochs.

    Returns
    -------
    TrainingResult
        Final parameters, the final full-data loss (the configured reduction, without weight
        decay) and its trace at epochs ``0, record_every, ...``.

    Raises
    ------
    ValueError
        Shapes that disagree, labels outside the network's classes (one line each).
    """
    X, y, theta0 = _check_data(network, X, y, theta0)
    record_every = _positive_int("record_every", record_every)
    n = X.shape[0]
    batch = n if settings.batch_size is None else min(int(settings.batch_size), n)
    n_batches = math.ceil(n / batch)
    mean = settings.loss == "cross_entropy_mean"
    base = OPTIMIZERS[settings.optimizer](float(settings.learning_rate), float(settings.weight_decay))
    if settings.schedule == "cosine":
        epochs = float(settings.epochs)
        factor = optax.scale_by_schedule(lambda count: 0.5 * (1.0 + jnp.cos(jnp.pi * (count // n_batches) / epochs)))
        transform = optax.chain(base, factor)
    else:
        transform = base

    def full_loss(theta):
        value = _cross_entropy(network(theta, X), y, jnp.ones(n))
        return value / n if mean else value

    def batch_step(carry, rows):
        theta, state = carry
        index, weights = rows

        def objective(t):
            value = _cross_entropy(network(t, X[index]), y[index], weights)
            return value / jnp.sum(weights) if mean else value

        updates, state = transform.update(jax.grad(objective)(theta), state, theta)
        return (optax.apply_updates(theta, updates), state), None

    def epoch(e, carry):
        theta, state = carry
        if n_batches == 1 and batch == n:
            order = jnp.arange(n)
        else:
            order = jax.random.permutation(jax.random.fold_in(key, e), n)
        padded = jnp.concatenate([order, jnp.zeros(n_batches * batch - n, dtype=order.dtype)])
        weights = (jnp.arange(n_batches * batch) < n).astype(jnp.float64)
        rows = (padded.reshape(n_batches, batch), weights.reshape(n_batches, batch))
        (theta, state), _ = jax.lax.scan(batch_step, (theta, state), rows)
        return theta, state

    @jax.jit
    def advance(theta, state, first, n_epochs):
        value = full_loss(theta)
        theta, state = jax.lax.fori_loop(first, first + n_epochs, epoch, (theta, state))
        return theta, state, value

    theta, state = theta0, transform.init(theta0)
    trace_epochs = np.arange(0, settings.epochs, record_every)
    trace = []
    for start in trace_epochs:
        n_epochs = min(record_every, settings.epochs - int(start))
        theta, state, value = advance(theta, state, jnp.asarray(int(start), jnp.int32), jnp.asarray(n_epochs, jnp.int32))
        trace.append(value)
    return TrainingResult(theta=np.asarray(theta), loss=float(jax.jit(full_loss)(theta)),
                          loss_trace=np.asarray(jnp.stack(trace)), trace_epochs=trace_epochs, epochs=settings.epochs)
