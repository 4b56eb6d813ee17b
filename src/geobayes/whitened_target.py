"""A target in whitened coordinates ``theta = L z`` (the non-centred parametrisation)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np

from geobayes.target import Target


class WhitenedTarget(Target):
    """``log p(z) = log p_target(L z)`` for a lower-triangular ``L`` (the constant Jacobian
    ``log det L`` is dropped).

    Latent Gaussian-process posteriors with near-singular kernels (Hartmann et al. 2026,
    Table 1 "GLM" with length-scale 1000, Fig. 2) are hopeless for NUTS and BFGS in ``theta``:
    prior variances range over ten orders of magnitude. With ``L`` the Cholesky factor of the
    prior covariance, the prior of ``z`` is ``N(0, I)`` (the Stan users guide's non-centred
    parametrisation, which the notes of Sec. 6.1 advise). NUTS and the MAP search run in ``z``;
    their results are mapped back with :meth:`to_theta`.

    Parameters
    ----------
    target
        The target in ``theta``.
    scale
        ``L``, shape (D, D), lower triangular with a positive diagonal.
    """

    target: Target
    scale: jax.Array

    @property
    def name(self) -> str:
        """The wrapped target's name."""
        return self.target.name

    @property
    def dim(self) -> int:
        """Same dimension as the target."""
        return self.target.dim

    def logdensity(self, z: jax.Array) -> jax.Array:
        """``log p_target(L z)``."""
        return self.target.logdensity(self.scale @ z)

    def to_theta(self, z) -> np.ndarray:
        """``theta = L z`` for one point (D,) or a batch (n, D)."""
        z = np.asarray(z, dtype=np.float64)
        return z @ np.asarray(self.scale).T

    def to_z(self, theta) -> np.ndarray:
        """``z = L^{-1} theta`` for one point (D,)."""
        return np.asarray(jsl.solve_triangular(self.scale, jnp.asarray(theta), lower=True))


def whitened(target: Target) -> WhitenedTarget | None:
    """The target in its whitened coordinates, or None if it asks for none."""
    scale = target.whitening()
    return None if scale is None else WhitenedTarget(target, jnp.asarray(scale))
