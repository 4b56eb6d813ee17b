"""Approximation methods; registry name = config key = module name.

Every module exposes ``Config`` (its typed settings, :mod:`geobayes.methods.config`) and
``fit(posterior, config, key, *, mode) -> FitResult`` whose ``approximation.sample(key, n)``
returns :class:`~geobayes.methods.base.ApproximateDraws`. Adding a method means its module
and one entry of :data:`REGISTRY`; the config schema's ``$defs`` list the same names (tested).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any, NamedTuple

from geobayes.methods.base import ApproximateDraws, FitResult, checked_mode, sample_count, summarise_draws


class MethodEntry(NamedTuple):
    """One registered method.

    Attributes
    ----------
    name
        Module name under ``geobayes.methods`` and the config's method key.
    label
        Display name in tables and figures (the papers' names).
    networks_only
        True for Bergamin et al.'s (2023) variants that need a network posterior (linearised
        or mini-batched); the schema allows them on the network experiments only.
    """

    name: str
    label: str
    networks_only: bool = False


REGISTRY = (
    MethodEntry("ela", "ELA"),
    MethodEntry("rla_b", "RLA-B"),
    MethodEntry("rla_blog", "RLA-BLog"),
    MethodEntry("rla_f", "RLA-F"),
    MethodEntry("rla_ef", "RLA-EF"),
    MethodEntry("wg", "WG"),
    # Bergamin et al. (2023) on networks: linearised and mini-batched variants, their names.
    MethodEntry("lin_ela", "lin-LA", networks_only=True),
    MethodEntry("lin_rla_b", "lin-riem-LA", networks_only=True),
    MethodEntry("rla_b_batched", "riem-LA (batches)", networks_only=True),
    MethodEntry("lin_rla_b_batched", "lin-riem-LA (batches)", networks_only=True),
)

#: Every registered method, in display order.
METHOD_NAMES = tuple(entry.name for entry in REGISTRY)
#: The methods every experiment may run (the others need a network posterior).
GENERAL_METHOD_NAMES = tuple(entry.name for entry in REGISTRY if not entry.networks_only)
#: Method name -> display label.
METHOD_LABELS = {entry.name: entry.label for entry in REGISTRY}


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


def method_label(name: str) -> str:
    """Display label of method ``name`` (``rla_blog`` -> ``RLA-BLog``); KeyError if unknown."""
    _check(name)
    return METHOD_LABELS[name]


def method_config(name: str, mapping: Mapping[str, Any] | None = None, *, path: str = "approximation"):
    """Method ``name``'s typed ``Config`` from a config slice (``None`` = the defaults).

    Raises
    ------
    geobayes.settings.SettingsError
        One line naming the bad key (see :meth:`geobayes.methods.config.MethodConfig.from_mapping`).
    """
    return get_method(name).Config.from_mapping(mapping, path)


__all__ = [
    "GENERAL_METHOD_NAMES", "METHOD_LABELS", "METHOD_NAMES", "REGISTRY", "ApproximateDraws", "FitResult",
    "MethodEntry", "checked_mode", "get_method", "method_config", "method_label", "sample_count",
    "summarise_draws",
]
