"""Approximation methods; registry name = config key = module name.

Every module exposes ``fit(posterior, config, key, *, mode) -> FitResult`` whose
``approximation.sample(key, n)`` returns :class:`~geobayes.methods.base.ApproximateDraws`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from geobayes.methods.base import ApproximateDraws, FitResult, summarise_draws

METHOD_NAMES = (
    "ela", "rla_b", "rla_blog", "rla_f", "rla_ef", "wg",
    # Bergamin et al. (2023) on networks: linearised and mini-batched variants.
    "lin_ela", "lin_rla_b", "rla_b_batched", "lin_rla_b_batched",
)


def get_method(name: str) -> ModuleType:
    """The module implementing method ``name`` (``geobayes.methods.<name>``).

    Raises
    ------
    KeyError
        Naming the unknown method and the registered ones.
    """
    if name not in METHOD_NAMES:
        raise KeyError(f"unknown approximation method {name!r}; known: {', '.join(METHOD_NAMES)}")
    return importlib.import_module(f"geobayes.methods.{name}")


__all__ = ["METHOD_NAMES", "ApproximateDraws", "FitResult", "get_method", "summarise_draws"]
