"""The registry of approximation methods: each name with its display label, in one place.

Adding a method means its module ``geobayes.methods.<name>`` (with ``Config`` and ``fit``) and
one :class:`MethodEntry` here; the config schema's ``$defs`` list the same names (tested).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["GENERAL_METHOD_NAMES", "METHOD_NAMES", "REGISTRY", "MethodEntry"]


class MethodEntry(NamedTuple):
    """One registered method.

    Attributes
    ----------
    name
        Module name under ``geobayes.methods`` and the config's method key.
    label
        Display name in tables and figures, as the papers print it (Yu et al. 2024; Bergamin
        et al. 2023; Hartmann et al. 2026).
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
    MethodEntry("rla_b_batched", "riem-LA (batch)", networks_only=True),
    MethodEntry("lin_rla_b_batched", "lin-riem-LA (batch)", networks_only=True),
)

#: Every registered method, in display order.
METHOD_NAMES = tuple(entry.name for entry in REGISTRY)
#: The methods every experiment may run (the others need a network posterior).
GENERAL_METHOD_NAMES = tuple(entry.name for entry in REGISTRY if not entry.networks_only)
