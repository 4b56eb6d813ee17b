"""The identity metric: SGLD (Welling & Teh 2011; Yu et al. 2023, Sec. 2.1, Eq. 4)."""

from __future__ import annotations

from typing import Any

from geobayes.sgmcmc.preconditioner import EmptyState, Preconditioner

__all__ = ["IdentityPreconditioner"]


class IdentityPreconditioner(Preconditioner):
    """``G = G^{-1} = G^{-1/2} = I`` (Yu et al. 2023, Eq. 4): plain SGLD.

    The step becomes ``theta <- theta - lr g_hat + sqrt(2 lr tau / N) xi``. No settings.
    """

    def init(self, position: Any) -> EmptyState:
        """No statistics."""
        return EmptyState()

    def update(self, state: EmptyState, gradient: Any, step: Any) -> EmptyState:
        """No statistics to update."""
        return state

    def inverse(self, state: EmptyState, tree: Any) -> Any:
        """``tree`` itself."""
        return tree

    def inverse_sqrt(self, state: EmptyState, tree: Any) -> Any:
        """``tree`` itself."""
        return tree
