"""Per-example categorical log likelihoods from log-softmax outputs, with the label checks."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["label_log_likelihoods"]


def label_log_likelihoods(log_probs: jax.Array, y) -> jax.Array:
    """``log p(y_i | x_i) = log_probs[i, y_i]`` (Yu et al. 2023's categorical likelihood, notes Sec. 3.4).

    Parameters
    ----------
    log_probs
        Log-softmax outputs, shape (n, C).
    y
        Integer labels, shape (n,).

    Raises
    ------
    ValueError
        If ``y`` is not ``(n,)`` integers, or (when ``y`` is concrete, not traced) a label lies outside
        ``[0, C)``, naming the first.
    """
    y = jnp.asarray(y)
    n, n_classes = log_probs.shape
    if y.shape != (n,) or not jnp.issubdtype(y.dtype, jnp.integer):
        raise ValueError(f"y must be ({n},) integer labels, got {y.dtype} {y.shape}")
    if not isinstance(y, jax.core.Tracer):
        bad = np.flatnonzero((np.asarray(y) < 0) | (np.asarray(y) >= n_classes))
        if bad.size:
            raise ValueError(f"y must lie in [0, {n_classes}); y[{bad[0]}] = {int(y[bad[0]])}")
    return jnp.take_along_axis(log_probs, y[:, None], axis=1)[:, 0]
