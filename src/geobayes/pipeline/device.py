"""Device selection from config (``device: cpu | gpu``)."""

from __future__ import annotations

import jax

_PLATFORMS = {"cpu": "cpu", "gpu": "cuda"}


def use_device(name: str) -> str:
    """Make JAX run on ``name`` and return the backend it actually uses.

    Must be called before the first JAX computation of the process. Asking for ``gpu`` on a
    machine without one is an error that says so, rather than a silent fall-back to the CPU.

    Parameters
    ----------
    name
        Config key ``device``: ``cpu`` or ``gpu``.
    """
    if name not in _PLATFORMS:
        raise ValueError(f"device: {name!r} is not one of {sorted(_PLATFORMS)}")
    jax.config.update("jax_platforms", _PLATFORMS[name])
    try:
        backend = jax.default_backend()
    except RuntimeError as error:
        raise RuntimeError(f"device: {name!r} was requested but JAX cannot use it: {error}") from error
    return backend
