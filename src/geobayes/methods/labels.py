"""Display labels of the approximation methods, next to their registry names.

The methods' labels are those of :data:`geobayes.methods.registry.REGISTRY`; the reference
rows of tables and figures (``nuts``, ``floor``) are added here.
"""

from __future__ import annotations

from geobayes.methods.registry import REGISTRY

__all__ = ["METHOD_LABELS", "method_label"]

#: Name -> label as the papers print it (Yu et al. 2024; Bergamin et al. 2023; Hartmann et al.
#: 2026): every registered method, then NUTS and ``floor``, the Monte Carlo floor of a reference
#: against itself.
METHOD_LABELS = {**{entry.name: entry.label for entry in REGISTRY}, "nuts": "NUTS", "floor": "MC floor"}


def method_label(method: str) -> str:
    """Display label of a method (``rla_blog`` -> ``RLA-BLog``); unknown names upper-cased."""
    return METHOD_LABELS.get(method, method.upper().replace("_", "-"))
