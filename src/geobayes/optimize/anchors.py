"""Where a Laplace-type approximation is anchored: the Euclidean or the Hausdorff MAP.

Yu et al. (2024), Sec. 4.3.1 and Supp. Sec. 9: the density of the posterior with respect to
the Riemannian (Hausdorff) measure of a metric ``G`` is ``pi(theta) / sqrt(det G(theta))``;
its mode, the *Hausdorff MAP*, is invariant under reparameterisation (Theorem 4). The
Euclidean MAP is paired with the negative-Hessian precision of the tangent Gaussian, the
Hausdorff MAP (of the Fisher metric) with the Fisher precision (Sec. 4.3.1, Theorem 6).
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp

from geobayes.methods.tangent_gaussian import Precision

#: The anchors, in the row order of Yu et al. (2024), Table 1.
ANCHORS = ("euclidean", "hausdorff")

#: Tangent-Gaussian precision paired with each anchor (Yu et al. 2024, Sec. 4.3.1).
ANCHOR_PRECISION = {"euclidean": Precision.HESSIAN.value, "hausdorff": Precision.FISHER.value}


def euclidean_objective(theta: jax.Array, target) -> jax.Array:
    """The log posterior, maximised by the (Euclidean) MAP."""
    return target.logdensity(theta)


def hausdorff_objective(theta: jax.Array, target) -> jax.Array:
    """``log pi(theta | y) - 1/2 log det G(theta)`` with the Fisher metric ``G``.

    Yu et al. (2024), Sec. 4.3.1: the log density with respect to the Hausdorff measure of
    the Fisher metric (Eq. (3)); the code of the paper uses ``slogdet`` as here.
    """
    _, logdet = jnp.linalg.slogdet(target.fisher(theta))
    return target.logdensity(theta) - 0.5 * logdet


def anchor_objective(anchor: str) -> Callable[[jax.Array, object], jax.Array]:
    """The objective whose maximiser is the given anchor.

    Raises
    ------
    ValueError
        Naming the unknown anchor and the known ones.
    """
    objectives = {"euclidean": euclidean_objective, "hausdorff": hausdorff_objective}
    if anchor not in objectives:
        raise ValueError(f"unknown MAP anchor {anchor!r}; known: {', '.join(ANCHORS)}")
    return objectives[anchor]


def tangent_precision(anchor: str, options: dict) -> str:
    """Tangent-Gaussian precision of an experiment at ``anchor``: the experiment's ``precision``
    key where it sets one, else the anchor's paired precision.

    The network experiments set ``fisher``: for a Gaussian likelihood the Fisher metric at the MAP
    is the GGN plus the prior precision, laplace-torch's full-Laplace precision (Yu et al. 2024,
    Sec. 5.4; Bergamin et al. 2023, App. A).
    """
    return options.get("precision") or ANCHOR_PRECISION[anchor]
