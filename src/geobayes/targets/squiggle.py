"""The squiggle: a Gaussian bent along a sine (Yu et al. 2024, Sec. 4.3.2, Supp. 15.7/16.2)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.hyperparameter import finite_values, scalar_leaf, vector_leaf
from geobayes.targets.diffeomorphic_gaussian import DiffeomorphicGaussian
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

    Notes
    -----
    ``a`` and ``variances`` are array leaves (:mod:`geobayes.hyperparameter`), not static fields:
    the three squiggles of Yu et al. and Hartmann et al. differ only in them, and so share every
    compiled program.
    """

    a: jax.Array = eqx.field(default=1.5, converter=scalar_leaf("squiggle a"))
    variances: jax.Array = eqx.field(default=(5.0, 0.05), converter=vector_leaf("squiggle variances", 2))

    def __check_init__(self):
        finite_values(self.a, f"{self.name}: a")
        finite_values(self.variances, f"{self.name}: variances", positive=True)

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
