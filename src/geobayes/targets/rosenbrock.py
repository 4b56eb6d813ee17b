"""The Rosenbrock (banana) density of Hartmann et al. (2026), Sec. 5.3 and Fig. 3."""

from __future__ import annotations

import math

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from geobayes.targets.diffeomorphic_gaussian import DiffeomorphicGaussian, as_float_tuple
from geobayes.registry import register_target


class Rosenbrock(DiffeomorphicGaussian):
    """``rho(theta) = N((a - theta1, b (theta2 - theta1^2)) | 0, Sigma_y) * b``.

    Hartmann et al. (2026), Sec. 5.3 (notes E4): the imbedding ``h(theta) = (a - theta1,
    b (theta2 - theta1^2))`` onto ``N(mu, Sigma_y)`` with the observation ``y = 0`` and a flat
    prior; the trailing ``b`` is ``|det Dh|``. Here ``psi = L^{-1} h(theta)`` with
    ``Sigma_y = L L^T`` and ``S = I``, which gives the same density, the same symmetrised KL
    (``|h1 - h2|^2_{Sigma_y^{-1}} = |psi1 - psi2|^2``) and exact draws ``h = L z``,
    ``theta1 = a - h1``, ``theta2 = h2 / b + theta1^2``. The mode is ``(a, a^2)``.

    Parameters
    ----------
    name
        Target name, e.g. ``hartmann-rosenbrock``.
    a, b
        Shape parameters (paper: 2 and 5).
    covariance
        ``Sigma_y`` as a row-major 4-tuple (paper: ``(6, -1, -1, 5)``).
    """

    a: float = eqx.field(default=2.0, static=True, converter=float)
    b: float = eqx.field(default=5.0, static=True, converter=float)
    covariance: tuple[float, float, float, float] = eqx.field(
        default=(6.0, -1.0, -1.0, 5.0), static=True, converter=as_float_tuple
    )

    def __check_init__(self):
        if not (math.isfinite(self.a) and math.isfinite(self.b) and self.b > 0):
            raise ValueError(f"{self.name}: need finite a and b > 0, got a={self.a}, b={self.b}")
        matrix = np.asarray(self.covariance, dtype=float).reshape(2, 2) if len(self.covariance) == 4 else None
        if matrix is None or not np.allclose(matrix, matrix.T) or np.any(np.linalg.eigvalsh(matrix) <= 0):
            raise ValueError(
                f"{self.name}: covariance must be a symmetric positive definite 2x2 matrix "
                f"given row-major as 4 numbers, got {self.covariance!r}"
            )

    @property
    def dim(self) -> int:
        """D = 2."""
        return 2

    @property
    def gaussian_variances(self) -> jax.Array:
        """``S = (1, 1)`` (the covariance is absorbed into ``psi``)."""
        return jnp.ones(2, dtype=jnp.float64)

    @property
    def _cholesky(self) -> jax.Array:
        return jnp.linalg.cholesky(jnp.asarray(self.covariance, dtype=jnp.float64).reshape(2, 2))

    def imbedding(self, theta: jax.Array) -> jax.Array:
        """``h(theta) = (a - theta1, b (theta2 - theta1^2))``."""
        return jnp.stack([self.a - theta[0], self.b * (theta[1] - theta[0] ** 2)])

    def to_gaussian(self, theta: jax.Array) -> jax.Array:
        """``psi = L^{-1} h(theta)``."""
        return jax.scipy.linalg.solve_triangular(self._cholesky, self.imbedding(theta), lower=True)

    def from_gaussian(self, psi: jax.Array) -> jax.Array:
        """``h = L psi``, ``theta1 = a - h1``, ``theta2 = h2 / b + theta1^2``."""
        h = self._cholesky @ psi
        theta1 = self.a - h[0]
        return jnp.stack([theta1, h[1] / self.b + theta1**2])

    def log_abs_det_jacobian(self, theta: jax.Array) -> jax.Array:
        """``log b - log det L`` (constant)."""
        return jnp.log(self.b) - jnp.sum(jnp.log(jnp.diag(self._cholesky)))


@register_target("rosenbrock")
def _from_options(name: str, options: dict) -> Rosenbrock:
    """Rosenbrock target of ``options['a']``, ``['b']`` and row-major ``['covariance']``
    (Hartmann et al. 2026, Fig. 3)."""
    return Rosenbrock(name=name, a=float(options["a"]), b=float(options["b"]),
                      covariance=tuple(float(c) for c in options["covariance"]))
