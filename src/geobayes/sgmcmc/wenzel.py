"""The layer-wise metric of Wenzel et al. (2020), as bnn_priors implements it (Yu et al. 2023, Sec. 2.1)."""

from __future__ import annotations

from typing import Any, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.sgmcmc.preconditioner import Preconditioner, check_eps, check_lam

__all__ = ["WenzelPreconditioner", "WenzelState"]


class WenzelState(NamedTuple):
    """Running statistics of the layer-wise metric.

    Attributes
    ----------
    square_average
        EMA ``V`` of squared gradients, one array per tensor, initialised to ones.
    scale
        Per-tensor ``G^{-1}`` factor ``precond_l`` (a scalar per leaf), frozen within an
        epoch; 1 until the first epoch ends.
    """

    square_average: Any
    scale: Any


class WenzelPreconditioner(Preconditioner):
    """Per-tensor scalar metric of Wenzel et al. (2020); Yu et al. (2023), Sec. 2.1 ("Wenzel").

    ``G = diag({sigma~_l I_{D_l}})`` with ``sigma_l = sqrt(eps + mean(V_l))`` and
    ``sigma~_l = sigma_l / min_l' sigma_l'``; ``V`` is the EMA of ``g_hat^2`` initialised to
    ones. As in bnn_priors, the factor ``precond_l = 1 / sigma~_l
    = ((mean(V_l) + eps) / min_l'(mean(V_l') + eps))^(-1/2)`` is frozen within an epoch and
    recomputed by :meth:`end_epoch`; it starts at 1. The drift uses ``precond_l`` and the
    noise ``sqrt(precond_l)``.

    The code updates ``V`` *after* each parameter step; :meth:`update` is called before the
    step by the shared kernel, which is equivalent because the step reads only the frozen
    ``scale``, and ``V`` is read only at :meth:`end_epoch`, after the epoch's last update.

    Parameters
    ----------
    lam : float, default 0.99
        EMA factor in ``[0, 1)``.
    eps : float, default 1e-8
        Added to ``mean(V_l)``; ``>= 0``.
    """

    lam: float = eqx.field(static=True, default=0.99)
    eps: float = eqx.field(static=True, default=1e-8)

    def __check_init__(self):
        check_lam("wenzel", self.lam)
        check_eps("wenzel", self.eps)

    def init(self, position: Any) -> WenzelState:
        """``V = 1`` and ``precond_l = 1`` for every tensor."""
        ones = jax.tree.map(jnp.ones_like, position)
        scale = jax.tree.map(lambda x: jnp.ones((), jnp.result_type(x)), position)
        return WenzelState(ones, scale)

    def update(self, state: WenzelState, gradient: Any, step: Any) -> WenzelState:
        """``V <- lam V + (1 - lam) g^2``; the frozen ``scale`` is unchanged."""
        square_average = jax.tree.map(lambda v, g: self.lam * v + (1.0 - self.lam) * g * g,
                                      state.square_average, gradient)
        return state._replace(square_average=square_average)

    def end_epoch(self, state: WenzelState) -> WenzelState:
        """``precond_l = ((mean(V_l) + eps) / min_l'(mean(V_l') + eps))^(-1/2)``."""
        sigma2 = jax.tree.map(lambda v: jnp.mean(v) + self.eps, state.square_average)
        smallest = jnp.min(jnp.stack(jax.tree.leaves(sigma2)))
        scale = jax.tree.map(lambda s: (s / smallest) ** -0.5, sigma2)
        return state._replace(scale=scale)

    def inverse(self, state: WenzelState, tree: Any) -> Any:
        """``precond_l x_l``."""
        return jax.tree.map(lambda x, s: s * x, tree, state.scale)

    def inverse_sqrt(self, state: WenzelState, tree: Any) -> Any:
        """``sqrt(precond_l) x_l``."""
        return jax.tree.map(lambda x, s: jnp.sqrt(s) * x, tree, state.scale)
