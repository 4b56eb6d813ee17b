"""The squiggle: a Gaussian bent along a sine (Yu et al. 2024, Sec. 4.3.2, Supp. 15.7/16.2)."""

from __future__ import annotations

import math

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.targets.diffeomorphic_gaussian import (
    DiffeomorphicGaussian,
    as_float_tuple,
    check_positive_values,
)
from geobayes.registry import register_target


class Squiggle(DiffeomorphicGaussian):
    """``pi(theta) = N(psi(theta) | 0, diag S)`` with ``psi = (theta1, theta2 + sin(a theta1))``.

    Yu et al. (2024), Sec. 4.3.2 (notes Sec. 1.7(b), 2.2). ``det J = 1``, so the Jeffreys prior
    is constant and the Euclidean and Hausdorff MAPs are both 0. Exact draws: ``psi ~ N(0, S)``,
    ``theta = (psi1, psi2 - sin(a psi1))``.

    Parameters
    ----------
    name
        Target name, e.g. ``squiggle``.
    a
        Frequency of the sine (paper: 1.5).
    variances
        Diagonal of ``S``: ``(5.0, 0.05)`` in the main setting, ``(10.0, 0.001)`` in the
        "difficult" one (Fig. 8).
    """

    a: float = eqx.field(default=1.5, static=True, converter=float)
    variances: tuple[float, float] = eqx.field(
        default=(5.0, 0.05), static=True, converter=as_float_tuple
    )

    def __check_init__(self):
        if not math.isfinite(self.a):
            raise ValueError(f"{self.name}: a must be finite, got {self.a}")
        check_positive_values(self.name, "variances", self.variances, 2)

    @property
    def dim(self) -> int:
        """D = 2."""
        return 2

    @property
    def gaussian_variances(self) -> jax.Array:
        """``S`` as an array."""
        return jnp.asarray(self.variances, dtype=jnp.float64)

    def to_gaussian(self, theta: jax.Array) -> jax.Array:
        """``psi = (theta1, theta2 + sin(a theta1))``."""
        return jnp.stack([theta[0], theta[1] + jnp.sin(self.a * theta[0])])

    def from_gaussian(self, psi: jax.Array) -> jax.Array:
        """``theta = (psi1, psi2 - sin(a psi1))``."""
        return jnp.stack([psi[0], psi[1] - jnp.sin(self.a * psi[0])])

    def to_gaussian_jacobian(self, theta: jax.Array) -> jax.Array:
        """``[[1, 0], [a cos(a theta1), 1]]`` (notes Sec. 1.7(b))."""
        return jnp.array([[1.0, 0.0], [self.a * jnp.cos(self.a * theta[0]), 1.0]])

    def log_abs_det_jacobian(self, theta: jax.Array) -> jax.Array:
        """``0`` (unit lower-triangular Jacobian)."""
        return jnp.zeros((), dtype=jnp.float64)


@register_target("squiggle")
def _from_options(name: str, options: dict) -> Squiggle:
    """``<setting>-squiggle``: ``options['a']`` and the variances ``options['variances'][setting]``
    (Yu et al. 2024, Sec. 4.3.2; Hartmann et al. 2026, Sec. 5.3)."""
    setting, variances = name.split("-")[0], options["variances"]
    if setting not in variances:
        raise ValueError(f"{name}: experiments.squiggle.variances has no {setting!r}; configured: {sorted(variances)}")
    return Squiggle(name=name, a=float(options["a"]), variances=tuple(float(s) for s in variances[setting]))
