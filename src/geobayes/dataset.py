"""Design matrix and responses of one prepared data set."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class Dataset(eqx.Module):
    """Arrays a model conditions on: inputs ``X`` (N, D) and responses ``y`` (N,).

    Being a pytree, a data set travels through ``jit`` and Diffrax's ``args`` so one compiled
    solve serves every data set of the same shape.
    """

    X: jax.Array
    y: jax.Array

    def __init__(self, X, y):
        X = jnp.asarray(np.asarray(X, dtype=np.float64))
        y = jnp.asarray(np.asarray(y, dtype=np.float64))
        if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
            raise ValueError(
                f"Dataset needs X of shape (N, D) and y of shape (N,), got {X.shape} and {y.shape}"
            )
        self.X = X
        self.y = y
