"""The Shampoo metric: per-tensor Kronecker-factored full-matrix RMSprop (Yu et al. 2023, Sec. 3.2, A.9).

As the official code (``shampoo_sgld.py``, adapted from google-research
``scalable_shampoo/pytorch``), each parameter tensor is first reshaped by best-effort shape
interpretation (consecutive dimensions merged while their product is at most
``block_size``, size-1 dimensions dropped), and every merged dimension longer than
``block_size`` is split into blocks of ``block_size`` (remainder last). Each block keeps one
statistic per dimension, so the metric is block-diagonal within a tensor. Tensors whose
merged rank is at most 1 (biases, scalars) get the identity unless ``precondition_vectors``.
"""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.settings import enum_converter
from geobayes.sgmcmc.matrix_roots import RootMethod, inverse_root
from geobayes.sgmcmc.preconditioner import Preconditioner, check_eps, check_lam

__all__ = ["ShampooPreconditioner", "ShampooState", "merge_small_dims", "block_slices"]


def merge_small_dims(shape: tuple[int, ...], max_dim: int) -> tuple[int, ...]:
    """Best-effort shape interpretation: merge consecutive dims while the product is <= ``max_dim``.

    ``(32, 16, 3, 3) -> (32, 48, 3)`` and ``(16, 3, 3, 3) -> (48, 9)`` with ``max_dim = 128``;
    size-1 dimensions disappear (``_merge_small_dims`` of the Shampoo code).
    """
    merged, product = [], 1
    for d in shape:
        if product * d <= max_dim:
            product *= d
        else:
            if product > 1:
                merged.append(product)
            product = d
    if product > 1:
        merged.append(product)
    return tuple(merged)


def block_slices(shape: tuple[int, ...], block_size: int) -> list[tuple[slice, ...]]:
    """The blocks of a merged tensor: every dim longer than ``block_size`` cut into pieces of it."""
    per_dim = [[slice(start, min(start + block_size, d)) for start in range(0, d, block_size)] for d in shape]
    return list(itertools.product(*per_dim))


def _contract(tensor: jax.Array, matrices: list[jax.Array]) -> jax.Array:
    """``(kron_i P_i) vec(tensor)`` (row-major vec) for symmetric ``P_i``, never forming the Kronecker product."""
    for matrix in matrices:  # contracts axis 0 each time; after rank steps the axes are back in order
        tensor = jnp.tensordot(tensor, matrix, axes=((0,), (0,)))
    return tensor


class ShampooState(NamedTuple):
    """Per-tensor lists (one entry per block) of per-dimension matrices.

    Attributes
    ----------
    statistics
        ``H_i`` (EMA of the mode-``i`` contractions of ``g_hat``), initialised to ``eps I``.
    roots
        ``R_i = (H_i + ridge)^(-1/(4d))``, the factors of ``G^{-1/2}``; identity until the first
        recomputation.
    squared_roots
        ``Q_i = R_i^2``, the factors of ``G^{-1}``.
    """

    statistics: Any
    roots: Any
    squared_roots: Any


class ShampooPreconditioner(Preconditioner):
    """Kronecker-factored metric; Yu et al. (2023), Sec. 3.2 and A.9.

    Per tensor block of merged rank ``d``: ``H_i <- lam H_i + (1 - lam) g^(i)`` every step with
    ``g^(i)_{jj'} = sum_{alpha_-i} g_{j alpha_-i} g_{j' alpha_-i}``; every ``update_interval``
    steps from ``first_preconditioner_step`` on, ``R_i = (H_i + eps lambda_max(H_i) I)^(-1/(4d))``
    and ``Q_i = R_i^2``; drift ``(kron_i Q_i) g_hat``, noise ``(kron_i R_i) xi``, by tensor
    contractions.

    Parameters
    ----------
    lam : float, default 0.99
        EMA factor in ``[0, 1)`` (0.99 NN, 0.9995 funnel).
    eps : float, default 1e-8
        Initial statistics ``eps I`` and relative ridge ``eps lambda_max`` (1e-8 NN, 1e-6 funnel).
    block_size : int, default 128
        Merge limit and block length, ``>= 1``.
    update_interval : int, default 100
        Roots are recomputed at the 1-based steps ``first_preconditioner_step + k *
        update_interval`` (100 NN, 1 funnel).
    first_preconditioner_step : int, default 100
        First step whose update uses a real preconditioner; the roots are the identity before
        (the code's ``_step_count % 100 == 0`` first fires at step 100). 1 on the funnel.
    root_method : RootMethod, default "newton"
        ``"newton"`` (coupled Newton iteration, as the code) or ``"eigh"``.
    precondition_vectors : bool, default False
        Give tensors of merged rank 1 a full factor (full-matrix RMSprop, ``d = 1``), as the
        funnel does; by default they get the identity, as the NN code does.
    """

    lam: float = eqx.field(static=True, default=0.99)
    eps: float = eqx.field(static=True, default=1e-8)
    block_size: int = eqx.field(static=True, default=128)
    update_interval: int = eqx.field(static=True, default=100)
    first_preconditioner_step: int = eqx.field(static=True, default=100)
    root_method: RootMethod = eqx.field(static=True, default=RootMethod.NEWTON,
                                        converter=enum_converter(RootMethod, "shampoo.root_method"))
    precondition_vectors: bool = eqx.field(static=True, default=False)

    def __check_init__(self):
        check_lam("shampoo", self.lam)
        check_eps("shampoo", self.eps)
        for name in ("block_size", "update_interval", "first_preconditioner_step"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"shampoo.{name} must be an integer >= 1; got {value!r}")

    def _layout(self, shape: tuple[int, ...]) -> tuple[tuple[int, ...], list[tuple[slice, ...]]]:
        """Merged shape and its blocks; no blocks when the tensor gets the identity."""
        merged = merge_small_dims(tuple(shape), self.block_size)
        if len(merged) >= 2 or (len(merged) == 1 and self.precondition_vectors):
            return merged, block_slices(merged, self.block_size)
        return merged, []

    def _per_leaf(self, position: Any, make) -> Any:
        def leaf(x):
            merged, blocks = self._layout(jnp.shape(x))
            return [[make(s.stop - s.start, jnp.result_type(x)) for s in block] for block in blocks]
        return jax.tree.map(leaf, position)

    def init(self, position: Any) -> ShampooState:
        """``H_i = eps I``, ``R_i = Q_i = I``."""
        statistics = self._per_leaf(position, lambda n, dtype: self.eps * jnp.eye(n, dtype=dtype))
        identity = self._per_leaf(position, lambda n, dtype: jnp.eye(n, dtype=dtype))
        return ShampooState(statistics, identity, identity)

    def _statistics(self, statistics: Any, gradient: Any) -> Any:
        def leaf(g, stats):
            merged, blocks = self._layout(jnp.shape(g))
            g = jnp.reshape(g, merged)
            updated = []
            for block, block_stats in zip(blocks, stats):
                gb = g[block]
                axes = list(range(gb.ndim))
                updated.append([self.lam * h + (1.0 - self.lam)
                                * jnp.tensordot(gb, gb, axes=(axes[:i] + axes[i + 1:],) * 2)
                                for i, h in enumerate(block_stats)])
            return updated
        return jax.tree.map(leaf, gradient, statistics)

    def _roots(self, statistics: Any, like: Any) -> tuple[Any, Any]:
        def leaf(_, stats):
            roots = [[inverse_root(h, 4 * len(block), self.eps, self.root_method) for h in block]
                     for block in stats]  # exponent 4 d, d = rank of the merged shape
            return roots, [[r @ r for r in block] for block in roots]
        pairs = jax.tree.map(leaf, like, statistics)
        roots = jax.tree.map(lambda _, pair: pair[0], like, pairs)
        return roots, jax.tree.map(lambda _, pair: pair[1], like, pairs)

    def update(self, state: ShampooState, gradient: Any, step: jax.Array) -> ShampooState:
        """Statistics with the current gradient; roots recomputed when ``step`` is a root step."""
        statistics = self._statistics(state.statistics, gradient)
        step = jnp.asarray(step)
        due = (step >= self.first_preconditioner_step) & \
            ((step - self.first_preconditioner_step) % self.update_interval == 0)
        roots, squared = jax.lax.cond(due, lambda: self._roots(statistics, gradient),
                                      lambda: (state.roots, state.squared_roots))
        return ShampooState(statistics, roots, squared)

    def _apply(self, factors: Any, tree: Any) -> Any:
        def leaf(x, leaf_factors):
            merged, blocks = self._layout(jnp.shape(x))
            if not blocks:
                return x
            y = jnp.reshape(x, merged)
            out = jnp.zeros_like(y)
            for block, matrices in zip(blocks, leaf_factors):
                out = out.at[block].set(_contract(y[block], matrices))
            return jnp.reshape(out, jnp.shape(x))
        return jax.tree.map(leaf, tree, factors)

    def inverse(self, state: ShampooState, tree: Any) -> Any:
        """``(kron_i Q_i) x`` per block (identity on unpreconditioned tensors)."""
        return self._apply(state.squared_roots, tree)

    def inverse_sqrt(self, state: ShampooState, tree: Any) -> Any:
        """``(kron_i R_i) x`` per block (identity on unpreconditioned tensors)."""
        return self._apply(state.roots, tree)
