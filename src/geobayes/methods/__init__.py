"""Approximation methods; registry name = config key = module name.

Every module exposes ``Config`` (its typed settings, :mod:`geobayes.methods.config`) and
``fit(posterior, config, key, *, mode) -> FitResult`` whose ``approximation.sample(key, n)``
returns :class:`~geobayes.methods.base.ApproximateDraws`. Adding a method means its module,
one entry of :data:`~geobayes.methods.registry.REGISTRY` and its display label in
:mod:`geobayes.methods.labels` (``METHOD_LABELS``, ``method_label``); the config schema's
``$defs`` list the same names (tested).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from geobayes.methods.registry import GENERAL_METHOD_NAMES, METHOD_NAMES, REGISTRY, MethodEntry

if TYPE_CHECKING:  # also the workflow's static import walk (code digests) sees the dependency
    from geobayes.methods.base import (
        ApproximateDraws, FitResult, checked_mode, evaluations_per_step, sample_count, summarise_draws,
    )

#: Names re-exported from :mod:`geobayes.methods.base`, which imports JAX: loaded on first use
#: (PEP 562), so that the labels and the registry (the report jobs' only use of this package)
#: do not import JAX.
_FROM_BASE = ("ApproximateDraws", "FitResult", "checked_mode", "evaluations_per_step", "sample_count",
              "summarise_draws")


def __getattr__(name: str) -> Any:
    if name in _FROM_BASE:
        return getattr(importlib.import_module("geobayes.methods.base"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _check(name: str) -> None:
    if name not in METHOD_NAMES:
        raise KeyError(f"unknown approximation method {name!r}; known: {', '.join(METHOD_NAMES)}")


def get_method(name: str) -> ModuleType:
    """The module implementing method ``name`` (``geobayes.methods.<name>``).

    Raises
    ------
    KeyError
        Naming the unknown method and the registered ones.
    """
    _check(name)
    return importlib.import_module(f"geobayes.methods.{name}")


def method_config(name: str, mapping: Mapping[str, Any] | None = None, *, path: str = "approximation"):
    """Method ``name``'s typed ``Config`` from a config slice (``None`` = the defaults).

    Raises
    ------
    geobayes.settings.SettingsError
        One line naming the bad key (see :meth:`geobayes.methods.config.MethodConfig.from_mapping`).
    """
    return get_method(name).Config.from_mapping(mapping, path)


__all__ = [
    "GENERAL_METHOD_NAMES", "METHOD_NAMES", "REGISTRY", "ApproximateDraws", "FitResult", "MethodEntry",
    "checked_mode", "evaluations_per_step", "get_method", "method_config", "sample_count", "summarise_draws",
]
