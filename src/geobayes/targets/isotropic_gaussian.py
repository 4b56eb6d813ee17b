"""The isotropic Gaussian N(0, I_D) (Yu et al. 2024, Sec. 3, Figs. 2-3)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.targets.diffeomorphic_gaussian import DiffeomorphicGaussian
from geobayes.registry import register_target


class IsotropicGaussian(DiffeomorphicGaussian):
    """``N(0, I_D)``: the identity diffeomorphism, ``psi = theta``, ``S = 1``.

    The Fisher metric is ``I`` and its geodesics are straight lines, so RLA-F equals ELA, while
    RLA-B under-disperses (Yu et al. 2024, Sec. 3, Supp. 11; notes Sec. 2.1). MAP = 0.

    Parameters
    ----------
    name
        Target name, e.g. ``gaussian_2d``.
    dim
        Dimension D >= 1.
    """

    dimension: int = eqx.field(static=True)

    def __init__(self, name: str, dim: int):
        if isinstance(dim, bool) or int(dim) != dim or int(dim) < 1:
            raise ValueError(f"{name}: dim must be an integer >= 1, got {dim!r}")
        self.name = name
        self.dimension = int(dim)

    @property
    def dim(self) -> int:
        """Number of parameters D."""
        return self.dimension

    def to_gaussian(self, theta: jax.Array) -> jax.Array:
        """Identity."""
        return theta

    def from_gaussian(self, psi: jax.Array) -> jax.Array:
        """Identity."""
        return psi

    def to_gaussian_jacobian(self, theta: jax.Array) -> jax.Array:
        """``I``."""
        return jnp.eye(self.dimension, dtype=jnp.float64)

    def log_abs_det_jacobian(self, theta: jax.Array) -> jax.Array:
        """``0``."""
        return jnp.zeros((), dtype=jnp.float64)


@register_target("gaussian")
def _from_options(name: str, options: dict) -> IsotropicGaussian:
    """``d<D>-gaussian`` is N(0, I_D) (Yu et al. 2024, Sec. 3)."""
    setting = name.split("-")[0]
    if not (setting.startswith("d") and setting[1:].isdigit() and int(setting[1:]) >= 1):
        raise ValueError(f"{name}: a Gaussian target is named d<D>-gaussian with D >= 1")
    return IsotropicGaussian(name=name, dim=int(setting[1:]))
