"""Preconditioners by name, built from config mappings (Yu et al. 2023, Sec. 2-3: the five samplers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from geobayes.settings import SettingsError, from_mapping
from geobayes.sgmcmc.identity import IdentityPreconditioner
from geobayes.sgmcmc.monge import MongePreconditioner
from geobayes.sgmcmc.preconditioner import Preconditioner
from geobayes.sgmcmc.rmsprop import RMSpropPreconditioner
from geobayes.sgmcmc.shampoo import ShampooPreconditioner
from geobayes.sgmcmc.wenzel import WenzelPreconditioner

__all__ = ["PRECONDITIONERS", "build_preconditioner"]

#: Registry name -> preconditioner class: SGLD (Eq. 4), pSGLD, Wenzel, Monge (Eq. 5), Shampoo (Sec. 3.2).
PRECONDITIONERS: dict[str, type[Preconditioner]] = {
    "identity": IdentityPreconditioner,
    "rmsprop": RMSpropPreconditioner,
    "wenzel": WenzelPreconditioner,
    "monge": MongePreconditioner,
    "shampoo": ShampooPreconditioner,
}


def build_preconditioner(name: str, mapping: Mapping[str, Any] | None = None, path: str | None = None) -> Preconditioner:
    """The preconditioner ``name`` with the settings in ``mapping`` (defaults: the NN-experiment values).

    Parameters
    ----------
    name
        A key of :data:`PRECONDITIONERS`.
    mapping
        Its settings, e.g. ``{"alpha2": 0.5}``; ``None`` for the defaults.
    path
        Dotted config path for messages (default ``name``).

    Raises
    ------
    geobayes.settings.SettingsError
        (a ``ValueError``) one line naming the key: an unknown name or key, a wrong type, a
        non-integral integer, or an out-of-range value.
    """
    if name not in PRECONDITIONERS:
        raise SettingsError(f"{path or 'preconditioner'}: unknown preconditioner {name!r}; "
                            f"known: {', '.join(PRECONDITIONERS)}")
    return from_mapping(PRECONDITIONERS[name], mapping, path or name)
