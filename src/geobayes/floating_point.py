"""The floating-point precision of a computation: float64 (the default) or float32.

geobayes runs in float64 (``jax_enable_x64``, set when the package is imported; see
docs/conventions.md). The papers' own code ran in float32 (JAX's and PyTorch's default: Yu et
al. 2024's RLA code, Bergamin et al. 2023's torch code), so the approximation stage can be run in
float32 as an explicit option (config ``approximation.dtype``; issue 20, item 3):
:func:`floating_point` switches JAX's default dtypes for the computations inside it.

Inside ``floating_point("float32")`` every array JAX creates is float32, including those the
library asks for as float64 explicitly (``jnp.asarray(x, dtype=jnp.float64)``): JAX truncates them
and warns each time; that truncation is what this mode is for, so the warning is silenced here.
JAX's normal draws from one key differ between the two precisions (they use 32 or 64 random
bits), so float32 and float64 draws are not the same samples: compare them through common tangent
velocities (tests/test_floating_point.py) or as distributions.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator

import jax

#: The precisions of config ``approximation.dtype``.
FLOAT_DTYPES = ("float64", "float32")

#: JAX's warning when float64 is requested with x64 disabled (the start of its message).
_TRUNCATION_WARNING = r"Explicitly requested dtype float64"


@contextlib.contextmanager
def floating_point(dtype: str) -> Iterator[None]:
    """Compute in ``dtype`` (``"float64"`` or ``"float32"``) inside the block.

    Parameters
    ----------
    dtype : {"float64", "float32"}
        The precision of every array JAX creates in the block (``jax.enable_x64``).

    Raises
    ------
    ValueError
        One line naming the value and the allowed ones, if ``dtype`` is neither.
    """
    if dtype not in FLOAT_DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(FLOAT_DTYPES)}; got {dtype!r}")
    with jax.enable_x64(dtype == "float64"), warnings.catch_warnings():
        if dtype == "float32":
            warnings.filterwarnings("ignore", message=_TRUNCATION_WARNING, category=UserWarning)
        yield


__all__ = ["FLOAT_DTYPES", "floating_point"]
