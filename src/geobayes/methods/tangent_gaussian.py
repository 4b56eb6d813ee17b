"""The Gaussian on the tangent space at the mode that every Laplace-type method starts from."""

from __future__ import annotations

from enum import Enum

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl


class Precision(str, Enum):
    """Which matrix is the precision of the tangent Gaussian (Yu et al. 2024, Sec. 4.3.1)."""

    HESSIAN = "hessian"
    """Negative Hessian of the log posterior at the mode (paired with the Euclidean MAP)."""
    FISHER = "fisher"
    """Fisher metric at the mode (paired with the Hausdorff MAP)."""

    def __str__(self) -> str:
        return self.value


class TangentGaussian(eqx.Module):
    """``N(0, P^{-1})`` on the tangent space at ``mode``, stored by the Cholesky factor of ``P``.

    Parameters
    ----------
    mode
        Base point (MAP), shape (D,).
    precision_cholesky
        Lower Cholesky factor ``L`` of the precision ``P = L L^T``, shape (D, D).
    """

    mode: jax.Array
    precision_cholesky: jax.Array

    @classmethod
    def at_mode(cls, posterior, mode: jax.Array, precision: Precision | str) -> TangentGaussian:
        """Build the tangent Gaussian with the chosen precision at ``mode``.

        Raises
        ------
        ValueError
            If the precision is not positive definite (the mode is not a maximum).
        """
        precision = Precision(precision)
        mode = jnp.asarray(mode, dtype=jnp.float64)
        chol = _precision_cholesky(posterior, mode, precision.value)
        if not bool(jnp.all(jnp.isfinite(chol))):
            raise ValueError(
                f"{posterior.name}: the {precision.value} precision at the mode is not positive "
                "definite; is the mode a maximum of the log posterior?"
            )
        return cls(mode=mode, precision_cholesky=chol)

    def sample_velocities(self, key: jax.Array, n: int) -> jax.Array:
        """``n`` draws ``v = L^{-T} z``, ``z ~ N(0, I)``, so that ``Cov(v) = P^{-1}``; shape (n, D)."""
        z = jax.random.normal(key, (n, self.mode.shape[0]), dtype=jnp.float64)
        return jsl.solve_triangular(self.precision_cholesky.T, z.T, lower=False).T

    def log_prob_velocity(self, v: jax.Array) -> jax.Array:
        """Log density of ``N(0, P^{-1})`` at ``v`` (shape (D,))."""
        w = self.precision_cholesky.T @ v
        d = v.shape[-1]
        return (
            -0.5 * jnp.dot(w, w)
            + jnp.sum(jnp.log(jnp.diag(self.precision_cholesky)))
            - 0.5 * d * jnp.log(2.0 * jnp.pi)
        )


@eqx.filter_jit
def _precision_cholesky(posterior, mode: jax.Array, precision: str) -> jax.Array:
    """Cholesky factor of the symmetrised precision at ``mode`` (NaN if not positive definite).

    Compiled once: evaluated eagerly, ``jax.hessian`` dispatches thousands of small operations.
    """
    if precision == Precision.HESSIAN.value:
        matrix = -posterior.hessian(mode)
    else:
        matrix = posterior.fisher(mode)
    return jnp.linalg.cholesky(0.5 * (matrix + matrix.T))
