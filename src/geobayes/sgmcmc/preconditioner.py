"""The preconditioner interface shared by every SGRLD sampler, and pytree helpers.

A preconditioner represents the metric ``G`` of stochastic-gradient Riemannian Langevin
dynamics (Yu et al. 2023, Sec. 2, Eq. 2-3) through the two products the Euler-Maruyama
step needs, ``G^{-1} x`` and ``G^{-1/2} x``, together with the running statistics the
metric is built from (EMAs of gradients, squared gradients or Kronecker factors). Settings
are static fields of an immutable Equinox module, validated at construction; the running
statistics live in a separate NamedTuple state, so that one module serves every chain.

Positions, gradients and noises are pytrees (one array per parameter tensor), because the
layer-wise (Wenzel) and Kronecker-factored (Shampoo) metrics act per tensor.
"""

from __future__ import annotations

import abc
import functools
from typing import Any, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp

__all__ = ["EmptyState", "Preconditioner", "check_eps", "check_lam", "tree_normal", "tree_norm", "tree_vdot"]

PyTree = Any


class EmptyState(NamedTuple):
    """State of a preconditioner without running statistics (the identity)."""


def tree_vdot(left: PyTree, right: PyTree) -> jax.Array:
    """Global inner product ``sum_l <left_l, right_l>`` over all leaves."""
    products = jax.tree.leaves(jax.tree.map(lambda a, b: jnp.sum(a * b), left, right))
    return functools.reduce(jnp.add, products) if products else jnp.zeros(())


def tree_norm(tree: PyTree) -> jax.Array:
    """Global Euclidean norm ``sqrt(sum_l ||tree_l||^2)``."""
    return jnp.sqrt(tree_vdot(tree, tree))


def tree_normal(rng_key: jax.Array, like: PyTree) -> PyTree:
    """Standard normal noise shaped like ``like``, one key per leaf from ``jax.random.split``.

    The leaves are drawn in ``jax.tree.leaves`` order, so the draw is a deterministic
    function of ``rng_key`` and of the structure of ``like``.
    """
    leaves, treedef = jax.tree.flatten(like)
    keys = jax.random.split(rng_key, max(len(leaves), 1))
    noise = [jax.random.normal(k, jnp.shape(x), jnp.result_type(x)) for k, x in zip(keys, leaves)]
    return jax.tree.unflatten(treedef, noise)


def check_lam(owner: str, lam: float) -> None:
    """Raise a one-line ``ValueError`` unless the EMA factor ``lam`` lies in ``[0, 1)``.

    ``lam = 0`` keeps no memory (the metric of the current gradient only, e.g. the exact
    Monge metric of Hartmann et al. 2022 with exact gradients); ``lam = 1`` would never
    update the statistics and is rejected.
    """
    if not 0.0 <= lam < 1.0:
        raise ValueError(f"{owner}.lam must lie in [0, 1); got {lam!r}")


def check_eps(owner: str, eps: float) -> None:
    """Raise a one-line ``ValueError`` unless the damping ``eps`` is non-negative and finite."""
    if not (eps >= 0.0 and eps < float("inf")):
        raise ValueError(f"{owner}.eps must be >= 0 and finite; got {eps!r}")


class Preconditioner(eqx.Module):
    """Abstract SGRLD metric: running statistics plus the products ``G^{-1} x``, ``G^{-1/2} x``.

    Yu et al. (2023), Sec. 2, Eq. 3: every sampler of the paper is the same Euler-Maruyama
    step and differs only in these products. The shared step
    (:func:`geobayes.sgmcmc.sgrld.build_kernel`) calls, each step,
    :meth:`update` (with the current gradient ``g_hat``, before the step is applied) and then
    :meth:`precondition`; the driver calls :meth:`end_epoch` after the last step of an epoch.
    """

    @abc.abstractmethod
    def init(self, position: PyTree) -> NamedTuple:
        """Initial running statistics for a chain at ``position``."""

    @abc.abstractmethod
    def update(self, state: NamedTuple, gradient: PyTree, step: jax.Array) -> NamedTuple:
        """Statistics after seeing ``gradient`` (``g_hat``) at ``step`` (1-based: the first step is 1)."""

    @abc.abstractmethod
    def inverse(self, state: NamedTuple, tree: PyTree) -> PyTree:
        """``G^{-1} tree``."""

    @abc.abstractmethod
    def inverse_sqrt(self, state: NamedTuple, tree: PyTree) -> PyTree:
        """``G^{-1/2} tree`` (the symmetric square root, so ``G^{-1/2} G^{-1/2} = G^{-1}``)."""

    def end_epoch(self, state: NamedTuple) -> NamedTuple:
        """Statistics after an epoch ends; the identity except for layer-wise (Wenzel) scaling."""
        return state

    def precondition(self, state: NamedTuple, gradient: PyTree, noise: PyTree) -> tuple[PyTree, PyTree, jax.Array]:
        """``(G^{-1} gradient, G^{-1/2} noise, fallback_fired)``: the two vectors the step applies.

        The default applies :meth:`inverse` and :meth:`inverse_sqrt`, and never falls back;
        the Monge metric overrides it to switch to a scaled identity when the drift explodes
        (Yu et al. 2023, Sec. 4.2 / A.4).
        """
        return self.inverse(state, gradient), self.inverse_sqrt(state, noise), jnp.asarray(False)
