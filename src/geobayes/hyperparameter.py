"""Scalar hyperparameters of a model as array leaves, not compile-time constants.

``eqx.filter_jit`` traces a module's array leaves and treats every other leaf (a Python float)
as static: part of the program. A prior or noise variance stored as a float is therefore baked
into each compiled program as a constant, and two posteriors that differ only in it (Bergamin et
al.'s optimised and fixed priors, one optimised prior per seed) compile separately, even through
the persistent compilation cache, whose key is the program. Stored as a 0-d JAX array, the value
is an argument of the program instead: posteriors of equal shapes share one executable.

The array is weakly typed (as a Python float is), so it takes the precision of the arrays it meets:
a float32 computation (``approximation.dtype: float32``) stays float32.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["finite_values", "positive_scalar", "scalar_leaf", "vector_leaf"]


def scalar_leaf(what: str) -> Callable[[object], jax.Array]:
    """Field converter: a number -> a weakly typed 0-d JAX array (a tracer passes through).

    Parameters
    ----------
    what : str
        The field's name in error messages (e.g. ``"prior variance"``).

    Raises
    ------
    ValueError
        One line naming ``what`` and the value, if it is not a single real number.
    """

    def convert(value: object) -> jax.Array:
        if isinstance(value, jax.core.Tracer):
            return value
        array = np.asarray(value)
        if array.shape != () or not np.issubdtype(array.dtype, np.number) or np.iscomplexobj(array):
            raise ValueError(f"{what} must be a real number, got {value!r}")
        return jnp.asarray(float(array))  # from a Python float: weakly typed

    return convert


def vector_leaf(what: str, size: int) -> Callable[[object], jax.Array]:
    """Field converter: ``size`` numbers -> a float64 JAX array of shape ``(size,)`` (a tracer passes through).

    For a target's parameter vector (the squiggle's variances), so targets that differ only in it
    share their compiled programs, as :func:`scalar_leaf` does for a scalar.

    Raises
    ------
    ValueError
        One line naming ``what``, the expected count and the value, if it is not ``size`` real numbers.
    """

    def convert(value: object) -> jax.Array:
        if isinstance(value, jax.core.Tracer):
            return value
        try:
            array = np.asarray(value)
        except (TypeError, ValueError):
            array = np.asarray(None)
        if array.shape != (size,) or not np.issubdtype(array.dtype, np.number) or np.iscomplexobj(array):
            raise ValueError(f"{what} must be {size} real numbers, got {value!r}")
        return jnp.asarray(array, dtype=jnp.float64)

    return convert


def finite_values(value: jax.Array, what: str, *, positive: bool = False) -> None:
    """Raise ``ValueError`` (one line naming ``what``) unless every entry of a concrete ``value`` is
    finite (and > 0 with ``positive``). A traced value cannot be inspected and is let through."""
    if isinstance(value, jax.core.Tracer):
        return
    numbers = np.asarray(value, dtype=np.float64)
    if not (np.all(np.isfinite(numbers)) and (not positive or np.all(numbers > 0))):
        condition = "finite and > 0" if positive else "finite"
        raise ValueError(f"{what} must be {condition}, got {numbers.tolist()!r}")


def positive_scalar(value: jax.Array, what: str) -> None:
    """Raise ``ValueError`` (one line naming ``what``) unless a concrete ``value`` is finite and > 0.

    A traced value (inside ``jit`` or ``grad``) cannot be inspected and is let through.
    """
    if isinstance(value, jax.core.Tracer):
        return
    number = float(value)
    if not (np.isfinite(number) and number > 0):
        raise ValueError(f"{what} must be a finite number > 0, got {number!r}")
