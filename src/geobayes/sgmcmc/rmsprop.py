"""The RMSprop metric: pSGLD (Li et al. 2016; Yu et al. 2023, Sec. 2.1)."""

from __future__ import annotations

from typing import Any, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.sgmcmc.preconditioner import Preconditioner, check_eps, check_lam

__all__ = ["RMSpropPreconditioner", "RMSpropState"]


class RMSpropState(NamedTuple):
    """``square_average``: the EMA ``V`` of squared gradients, one array per tensor (``V_0 = 0``)."""

    square_average: Any


class RMSpropPreconditioner(Preconditioner):
    """Diagonal RMSprop metric of pSGLD, Yu et al. (2023), Sec. 2.1 ("pSGLD").

    ``V_t = lam V_{t-1} + (1 - lam) g_hat_t^2`` with ``V_0 = 0``, updated with the current
    gradient *before* it is applied (as the official code); ``G = diag(v)``,
    ``v = sqrt(V) + eps``, so ``G^{-1} x = x / v`` and ``G^{-1/2} x = x / sqrt(v)``.
    The prior gradient is part of ``g_hat`` (Yu et al. 2023, A.5). The Gamma term is dropped.

    Parameters
    ----------
    lam : float, default 0.99
        EMA factor in ``[0, 1)`` (0.99 in the NN experiments, 0.995 on the funnel).
    eps : float, default 1e-8
        Added to ``sqrt(V)``; ``>= 0`` (1e-8 in the NN experiments, 0.0 on the funnel).
    """

    lam: float = eqx.field(static=True, default=0.99)
    eps: float = eqx.field(static=True, default=1e-8)

    def __check_init__(self):
        check_lam("rmsprop", self.lam)
        check_eps("rmsprop", self.eps)

    def init(self, position: Any) -> RMSpropState:
        """``V_0 = 0``."""
        return RMSpropState(jax.tree.map(jnp.zeros_like, position))

    def update(self, state: RMSpropState, gradient: Any, step: Any) -> RMSpropState:
        """``V <- lam V + (1 - lam) g^2``."""
        return RMSpropState(jax.tree.map(lambda v, g: self.lam * v + (1.0 - self.lam) * g * g,
                                         state.square_average, gradient))

    def _diagonal(self, state: RMSpropState) -> Any:
        return jax.tree.map(lambda v: jnp.sqrt(v) + self.eps, state.square_average)

    def inverse(self, state: RMSpropState, tree: Any) -> Any:
        """``x / (sqrt(V) + eps)``."""
        return jax.tree.map(lambda x, v: x / v, tree, self._diagonal(state))

    def inverse_sqrt(self, state: RMSpropState, tree: Any) -> Any:
        """``x / sqrt(sqrt(V) + eps)``."""
        return jax.tree.map(lambda x, v: x / jnp.sqrt(v), tree, self._diagonal(state))
