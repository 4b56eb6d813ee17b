"""Which observations drive one geodesic of the mini-batched metric: plain or stratified batches."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class UniformBatches(eqx.Module):
    """``size`` of the ``total`` observations, drawn uniformly without replacement.

    Bergamin et al.'s (2023) banana code: ``np.random.choice(265, 150, replace=False)``.
    """

    total: int = eqx.field(static=True)
    size: int = eqx.field(static=True)

    def draw(self, key: jax.Array) -> jax.Array:
        """Indices of one batch, shape (size,)."""
        return jax.random.choice(key, self.total, (self.size,), replace=False)


class StratifiedBatches(eqx.Module):
    """A batch with the label frequencies of the full data: ``counts[c]`` observations of class
    ``c``, drawn uniformly without replacement among ``members[c]``.

    Bergamin et al. (2023), App. D.5: on MNIST / FashionMNIST the batched metric uses 1,000 of the
    5,000 training points "respecting the label frequency" (100 a class).

    Parameters
    ----------
    members
        Indices of each class's observations (classes with a zero quota left out).
    counts
        The quotas, in the same order; they sum to the batch size.
    """

    members: tuple[jax.Array, ...]
    counts: tuple[int, ...] = eqx.field(static=True)

    @property
    def size(self) -> int:
        """Observations in one batch."""
        return sum(self.counts)

    @classmethod
    def from_labels(cls, labels, size: int) -> StratifiedBatches:
        """Strata of the class labels ``labels`` (N,) and quotas of a batch of ``size``.

        Each class ``c`` of ``n_c`` members gets ``floor(size n_c / N)`` and the remaining
        observations go one each to the classes with the largest remainders (ties to the lower
        label): the quotas sum to ``size`` and never exceed ``n_c``.

        Raises
        ------
        ValueError
            If a label is not an integer (regression responses have no strata) or ``size`` is
            not in ``[1, N]``.
        """
        labels = np.asarray(labels, dtype=np.float64)
        total = labels.shape[0]
        if not 1 <= size <= total:
            raise ValueError(f"stratified batch size must be in [1, {total}], got {size!r}")
        if not np.all(np.isfinite(labels) & (labels == np.round(labels))):
            raise ValueError("stratified batches need integer class labels, got non-integer responses")
        classes, class_sizes = np.unique(labels, return_counts=True)
        counts = size * class_sizes // total
        remainders = size * class_sizes % total
        for c in np.argsort(-remainders, kind="stable")[:size - int(counts.sum())]:
            counts[c] += 1
        keep = np.flatnonzero(counts)
        members = tuple(jnp.asarray(np.flatnonzero(labels == classes[c]), dtype=jnp.int32) for c in keep)
        return cls(members, tuple(int(counts[c]) for c in keep))

    def draw(self, key: jax.Array) -> jax.Array:
        """Indices of one batch, class by class, shape (size,)."""
        return jnp.concatenate([
            jax.random.choice(jax.random.fold_in(key, c), members, (count,), replace=False)
            for c, (members, count) in enumerate(zip(self.members, self.counts))
        ])
