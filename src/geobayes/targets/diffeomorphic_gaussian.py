"""Targets that are a smooth, invertible image of a Gaussian (Yu et al. 2024, Theorem 3)."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.families.gaussian_fixed_covariance import GaussianFixedCovariance
from geobayes.target import Target


class DiffeomorphicGaussian(Target):
    """``theta = phi(psi)``, ``psi ~ N(0, diag(S))``: a Gaussian pushed through a diffeomorphism.

    Yu et al. (2024), Theorem 3 and Supp. 15.7 / 16.3 (notes Sec. 1.6, 1.7(b, c)): the density is
    read as the likelihood ``N(psi(theta) | 0, S)`` times the Jeffreys prior ``sqrt(det G)``, where
    ``psi = phi^{-1}`` and

    ``G(theta) = J^T S^{-1} J``,  ``J = d psi / d theta``,

    is the Fisher metric. Since ``sqrt(det G) = |det J| / sqrt(det S)``, the product is (up to a
    constant) the change-of-variables density of ``theta``; :meth:`logdensity` returns it
    normalised, ``log N(psi(theta); 0, S) + log |det J(theta)|``. The Fisher metric is the
    pullback of the constant metric ``S^{-1}`` by ``psi``, so its geodesics are the images of
    straight lines in ``psi`` and RLA-F from the Hausdorff MAP ``phi(0)`` is exact.

    Subclasses implement :attr:`dim`, :meth:`to_gaussian` and :meth:`from_gaussian`, and may
    override :attr:`gaussian_variances` (default ``S = I``),
    :meth:`to_gaussian_jacobian` and :meth:`log_abs_det_jacobian` with closed forms (both
    default to autodiff).

    Parameters
    ----------
    name
        Target name (shown in error messages and outputs), e.g. ``squiggle``.
    """

    name: str = eqx.field(static=True)

    @property
    def gaussian_variances(self) -> jax.Array:
        """Diagonal ``S`` of the Gaussian covariance of ``psi``, shape (D,); ``S = I`` (a standard
        normal ``psi``) unless a subclass says otherwise."""
        return jnp.ones(self.dim, dtype=jnp.float64)

    def to_gaussian(self, theta: jax.Array) -> jax.Array:
        """``psi(theta) = phi^{-1}(theta)``, shape (D,)."""
        raise NotImplementedError

    def from_gaussian(self, psi: jax.Array) -> jax.Array:
        """``theta = phi(psi)``, shape (D,)."""
        raise NotImplementedError

    def to_gaussian_jacobian(self, theta: jax.Array) -> jax.Array:
        """``J = d psi / d theta`` at ``theta``, shape (D, D); autodiff unless overridden."""
        return jax.jacfwd(self.to_gaussian)(theta)

    def log_abs_det_jacobian(self, theta: jax.Array) -> jax.Array:
        """``log |det J(theta)|``; from the LU factors of :meth:`to_gaussian_jacobian` unless
        overridden."""
        return jnp.linalg.slogdet(self.to_gaussian_jacobian(theta))[1]

    def logdensity(self, theta: jax.Array) -> jax.Array:
        """Normalised log density ``log N(psi(theta); 0, diag S) + log |det J(theta)|``."""
        theta = self._check_point(theta)
        psi = self.to_gaussian(theta)
        variances = self.gaussian_variances
        log_gaussian = -0.5 * jnp.sum(psi * psi / variances) - 0.5 * jnp.sum(
            jnp.log(2.0 * jnp.pi * variances)
        )
        return log_gaussian + self.log_abs_det_jacobian(theta)

    def fisher(self, theta: jax.Array) -> jax.Array:
        """Fisher metric ``J^T S^{-1} J`` (Yu et al. 2024, Theorem 3), shape (D, D)."""
        jac = self.to_gaussian_jacobian(self._check_point(theta))
        g = jac.T @ (jac / self.gaussian_variances[:, None])
        return 0.5 * (g + g.T)

    def fisher_christoffel(self, theta: jax.Array, v: jax.Array) -> jax.Array:
        """Closed-form ``Gamma(v, v) = J^{-1} (v^T nabla^2 psi_k v)_k`` of the pullback metric.

        Geodesics of ``J^T S^{-1} J`` are straight lines in ``psi``:
        ``0 = d^2 psi / dt^2 = J theta'' + (v^T nabla^2 psi_k v)_k``, so the geodesic
        acceleration ``theta'' = -Gamma(v, v)`` needs one second directional derivative of
        ``psi`` and a solve with ``J`` (not ``G``). It equals the generic autodiff contraction
        (tests); Yu et al. (2024) used the generic one.
        """
        theta = self._check_point(theta)
        def directional_derivative(point):  # J(point) v
            return jax.jvp(self.to_gaussian, (point,), (v,))[1]

        _, second_derivative = jax.jvp(directional_derivative, (theta,), (v,))
        return jnp.linalg.solve(self.to_gaussian_jacobian(theta), second_derivative)

    @property
    def family(self) -> GaussianFixedCovariance:
        """``N(psi | 0, diag S)`` read as a Gaussian family in its mean ``psi`` (Hartmann et al.
        2026, Sec. 5.3 and App. C.2: squiggle, Rosenbrock, funnel with a flat prior)."""
        return GaussianFixedCovariance(jnp.diag(self.gaussian_variances))

    def embed(self, theta: jax.Array) -> jax.Array:
        """The imbedding ``h = psi``."""
        return self.to_gaussian(theta)

    def prior_covariance(self) -> None:
        """Flat prior (``Sigma_pi = diag(inf)``): the density is ``N(psi | 0, S) |det J|``."""
        return None

    def sample_exact(self, key: jax.Array, n: int) -> jax.Array:
        """``n`` i.i.d. draws ``theta = phi(psi)``, ``psi ~ N(0, diag S)``, shape (n, D)."""
        if isinstance(n, bool) or int(n) != n or int(n) < 1:
            raise ValueError(
                f"{self.name}: number of exact samples must be an integer >= 1, got {n!r}"
            )
        return _sample_exact(self, key, int(n))

    def hausdorff_map(self) -> jax.Array:
        """Hausdorff MAP ``phi(0)``: the maximum of ``log pi - 1/2 log det G`` (Yu et al. 2024,
        Sec. 4.3.1), where that objective is ``log N(psi(theta); 0, S)`` plus a constant."""
        return self.from_gaussian(jnp.zeros(self.dim, dtype=jnp.float64))

    def _check_point(self, theta: jax.Array) -> jax.Array:
        theta = jnp.asarray(theta)
        if theta.shape != (self.dim,):
            raise ValueError(
                f"{self.name}: theta must have shape ({self.dim},), got {theta.shape}"
            )
        return theta


@eqx.filter_jit
def _sample_exact(target: DiffeomorphicGaussian, key: jax.Array, n: int) -> jax.Array:
    z = jax.random.normal(key, (n, target.dim), dtype=jnp.float64)
    return jax.vmap(target.from_gaussian)(z * jnp.sqrt(target.gaussian_variances))


def as_float_tuple(values):
    """Converter for tuple-valued static fields: a hashable tuple of floats where possible,
    otherwise ``values`` unchanged (the owner's ``__check_init__`` then names the problem)."""
    try:
        return tuple(float(value) for value in values)
    except (TypeError, ValueError):
        return values
