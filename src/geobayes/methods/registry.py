"""The registry of approximation methods.

Adding a method means its module ``geobayes.methods.<name>`` (with ``Config`` and ``fit``), one
:class:`MethodEntry` here and its display label in :mod:`geobayes.methods.labels`; the config
schema's ``$defs`` list the same names (both tested). The labels live apart so that editing
one does not change the code every approximation job depends on (``library_closure``).
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
    networks_only
        True for Bergamin et al.'s (2023) variants that need a network posterior (linearised
        or mini-batched); the schema allows them on the network experiments only.
    """

    name: str
    networks_only: bool = False


REGISTRY = (
    MethodEntry("map"),
    MethodEntry("ela"),
    MethodEntry("rla_b"),
    MethodEntry("rla_blog"),
    MethodEntry("rla_f"),
    MethodEntry("rla_ef"),
    MethodEntry("wg"),
    # Liu & Zhu (2018): particle approximations (geobayes.svgd), the empirical measure of N particles
    MethodEntry("svgd"),
    MethodEntry("rsvgd"),
    # Bergamin et al. (2023) on networks: linearised and mini-batched variants.
    MethodEntry("lin_ela", networks_only=True),
    MethodEntry("lin_rla_b", networks_only=True),
    MethodEntry("rla_b_batched", networks_only=True),
    MethodEntry("lin_rla_b_batched", networks_only=True),
)

#: Every registered method, in display order.
METHOD_NAMES = tuple(entry.name for entry in REGISTRY)
#: The methods every experiment may run (the others need a network posterior).
GENERAL_METHOD_NAMES = tuple(entry.name for entry in REGISTRY if not entry.networks_only)
