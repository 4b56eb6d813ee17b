"""Deterministic random keys derived from the configured seed."""

from __future__ import annotations

import zlib

import jax
import numpy as np


def stable_int(label: str | int) -> int:
    """Map a label to a stable 31-bit integer (CRC-32; unlike ``hash`` it never changes).

    Parameters
    ----------
    label
        A string such as a stage, posterior or method name, or an integer (returned as is).
    """
    if isinstance(label, int):
        return label
    return zlib.crc32(label.encode("utf-8")) & 0x7FFFFFFF


def derive_key(seed: int, *labels: str | int) -> jax.Array:
    """Key for one pipeline step: ``fold_in`` of the seed with each label in turn.

    Parameters
    ----------
    seed
        The configured base seed (config key ``seed``).
    *labels
        Stage, posterior, method, repetition, ... Strings go through :func:`stable_int`.

    Returns
    -------
    jax.Array
        A PRNG key that depends only on the seed and the labels.
    """
    key = jax.random.PRNGKey(seed)
    for label in labels:
        key = jax.random.fold_in(key, stable_int(label))
    return key


def derive_seed(seed: int, *labels: str | int) -> int:
    """Integer seed for NumPy generators (data subsets, simulated data sets) of one step.

    ``numpy.random.SeedSequence`` of the configured seed and the labels (through
    :func:`stable_int`), so it depends only on them, like :func:`derive_key`.
    """
    # The label count goes in too: SeedSequence pads short entropy with zeros, which would
    # make (seed, "a") and (seed, "a", 0) collide.
    entropy = [int(seed), len(labels)] + [stable_int(label) for label in labels]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0])
