"""The Monge metric with a gradient EMA (Yu et al. 2023, Sec. 3.1, Eq. 5)."""

from __future__ import annotations

from typing import Any, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.sgmcmc.preconditioner import Preconditioner, check_lam, tree_norm, tree_vdot

__all__ = ["MongePreconditioner", "MongeState", "SMALL_NORM2"]

#: Below this squared EMA norm, ``f_{-1/2}`` takes its limit ``-alpha2 / 2`` (README of the code).
SMALL_NORM2 = 1e-12


class MongeState(NamedTuple):
    """``gradient_average``: the EMA ``m = grad l_t`` of ``g_hat``, one array per tensor (``m_0 = 0``)."""

    gradient_average: Any


class MongePreconditioner(Preconditioner):
    """Rank-one Monge metric ``G = I + alpha2 m m^T``; Yu et al. (2023), Sec. 3.1, Eq. 5.

    ``m_t = lam m_{t-1} + (1 - lam) g_hat_t`` (``m_0 = 0``), updated before the step. With
    the *global* inner products over all tensors (as the official code, notes 8.4 item 6)
    and ``s = <m, m>``::

        G^{-1} x   = x + f_{-1}   m <m, x>,  f_{-1}   = -alpha2 / (1 + alpha2 s)
        G^{-1/2} x = x + f_{-1/2} m <m, x>,  f_{-1/2} = (1 / sqrt(1 + alpha2 s) - 1) / s

    and ``f_{-1/2} = -alpha2 / 2`` (its limit) when ``s < 1e-12``, where the ratio is 0/0.
    ``alpha2 = 0`` is exactly the identity (SGLD), draw for draw: the zero rank-one term is
    then skipped, because adding ``-0.0 * m <m, x>`` can change how the compiler fuses the
    step (fused multiply-adds) and so the last bit. Cost O(D).

    Parameters
    ----------
    alpha2 : float, default 1.0
        ``alpha^2 >= 0``, tuned jointly with the learning rate (1.25, 0.5, 0.075 ... in the
        paper's MNIST runs; 0.1 on the funnel). The default 1.0 is the first value the
        paper's grid tries.
    lam : float, default 0.9
        EMA factor in ``[0, 1)`` (0.9 in the NN experiments, 0.7 on the funnel).
    fallback_norm : float or None, default None
        The funnel's numerical fallback (Yu et al. 2023, A.4; notes Sec. 3.3): if
        ``||G^{-1} g_hat|| > fallback_norm``, the step uses the identity metric scaled by
        ``f = ||g_hat|| / fallback_norm``, i.e. drift ``g_hat / f`` and noise
        ``xi / sqrt(f)``. ``None`` (the NN experiments) disables it; 1000 on the funnel.
    """

    alpha2: float = eqx.field(static=True, default=1.0)
    lam: float = eqx.field(static=True, default=0.9)
    fallback_norm: float | None = eqx.field(static=True, default=None)

    def __check_init__(self):
        if not (self.alpha2 >= 0.0 and self.alpha2 < float("inf")):
            raise ValueError(f"monge.alpha2 must be >= 0 and finite; got {self.alpha2!r}")
        check_lam("monge", self.lam)
        if self.fallback_norm is not None and not self.fallback_norm > 0.0:
            raise ValueError(f"monge.fallback_norm must be > 0 or None; got {self.fallback_norm!r}")

    def init(self, position: Any) -> MongeState:
        """``m_0 = 0``."""
        return MongeState(jax.tree.map(jnp.zeros_like, position))

    def update(self, state: MongeState, gradient: Any, step: Any) -> MongeState:
        """``m <- lam m + (1 - lam) g_hat`` (Yu et al. 2023, Eq. 5)."""
        return MongeState(jax.tree.map(lambda m, g: self.lam * m + (1.0 - self.lam) * g,
                                       state.gradient_average, gradient))

    def coefficients(self, state: MongeState) -> tuple[jax.Array, jax.Array]:
        """``(f_{-1}, f_{-1/2})`` at ``s = <m, m>`` (Yu et al. 2023, Sec. 3.1)."""
        s = tree_vdot(state.gradient_average, state.gradient_average)
        f_inverse = -self.alpha2 / (1.0 + self.alpha2 * s)
        small = s < SMALL_NORM2
        safe_s = jnp.where(small, 1.0, s)
        f_inverse_sqrt = jnp.where(small, -self.alpha2 / 2.0,
                                   (1.0 / jnp.sqrt(1.0 + self.alpha2 * safe_s) - 1.0) / safe_s)
        return f_inverse, f_inverse_sqrt

    def _rank_one(self, state: MongeState, coefficient: jax.Array, tree: Any) -> Any:
        if self.alpha2 == 0.0:  # exactly SGLD; skipping the zero term keeps the compiled step identical
            return tree
        m = state.gradient_average
        weight = coefficient * tree_vdot(m, tree)
        return jax.tree.map(lambda x, u: x + weight * u, tree, m)

    def inverse(self, state: MongeState, tree: Any) -> Any:
        """``x + f_{-1} m <m, x>`` (Yu et al. 2023, Eq. 5, element-wise form)."""
        return self._rank_one(state, self.coefficients(state)[0], tree)

    def inverse_sqrt(self, state: MongeState, tree: Any) -> Any:
        """``x + f_{-1/2} m <m, x>`` (Yu et al. 2023, Eq. 5, element-wise form)."""
        return self._rank_one(state, self.coefficients(state)[1], tree)

    def precondition(self, state: MongeState, gradient: Any, noise: Any) -> tuple[Any, Any, jax.Array]:
        """``(G^{-1} g_hat, G^{-1/2} xi, fired)``, with the optional funnel fallback.

        When ``fallback_norm`` is set and ``||G^{-1} g_hat|| > fallback_norm``, returns
        ``(g_hat / f, xi / sqrt(f), True)`` with ``f = ||g_hat|| / fallback_norm``
        (Yu et al. 2023, A.4).
        """
        f_inverse, f_inverse_sqrt = self.coefficients(state)
        drift = self._rank_one(state, f_inverse, gradient)
        applied_noise = self._rank_one(state, f_inverse_sqrt, noise)
        if self.fallback_norm is None:
            return drift, applied_noise, jnp.asarray(False)
        fired = tree_norm(drift) > self.fallback_norm
        factor = jnp.where(fired, tree_norm(gradient) / self.fallback_norm, 1.0)
        drift = jax.tree.map(lambda d, g: jnp.where(fired, g / factor, d), drift, gradient)
        applied_noise = jax.tree.map(lambda n, x: jnp.where(fired, x / jnp.sqrt(factor), n), applied_noise, noise)
        return drift, applied_noise, fired
