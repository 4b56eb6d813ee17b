"""Coordinate-space RSVGD direction, closed form for the Gaussian kernel (Liu & Zhu 2018, Eq. (6)).

Important: RSVGD is *not* SVGD with a preconditioner. Its field is the Riemannian gradient of a
scalar RKHS function (Theorem 4 / Corollary 5), i.e. it uses a curl-free kernel, not ``K I_m``;
even with ``G = I`` it has extra ``r r^T``-type terms and a dimension-dependent ``-m r / h^2``
term (notes Sec. 1.3, structural note).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from functools import partial

import jax
import jax.numpy as jnp

from geobayes.svgd.coordinate_metric import MetricQuantities
from geobayes.svgd.gaussian_kernel import DEFAULT_BANDWIDTHS, BandwidthSpec, check_bandwidth, resolve_bandwidths

__all__ = ["DensityConvention", "check_density_convention", "rsvgd_direction", "rsvgd_field", "rsvgd_scores"]


class DensityConvention(str, Enum):
    """What ``p`` in ``log(p sqrt|G|)`` of Eq. (6) is (notes Sec. 5.4(A)).

    ``PAPER``
        The paper's convention: ``p`` is the density w.r.t. the Riemannian volume ``mu_g``
        (Sec. "Preliminaries"), so for a posterior with Lebesgue density ``pi``,
        ``p = pi / sqrt|G|`` and ``log(p sqrt|G|) = log pi``:
        ``s = G^{-1} grad log pi + div``. The fixed point is ``pi`` (Stein identity holds).
    ``CODE``
        The official BLR code (``rsvgd.py``: ``totScore = (gradp + gradDet/2) @ Ginv +
        gradGinv``) plugs ``p := pi``: ``s = G^{-1}(grad log pi + grad log|G| / 2) + div``.
        Its fixed point is ``propto pi sqrt|G|``, not ``pi``; for a non-constant metric the
        Stein identity fails (notes 5.4(A): up to 0.16 for ``N(0, 1)``, ``G = 1 + x^2``).
        Use it only for a faithful reproduction of the paper's Fig. 1.
    """

    PAPER = "paper"
    CODE = "code"

    def __str__(self) -> str:
        return self.value


def check_density_convention(value) -> DensityConvention:
    """``value`` as a :class:`DensityConvention`; a one-line ValueError if it is none."""
    try:
        return DensityConvention(value)
    except ValueError:
        known = ", ".join(repr(c.value) for c in DensityConvention)
        raise ValueError(f"density_convention: expected one of {known}, got {value!r}") from None


def rsvgd_scores(log_density_grads: jnp.ndarray, quantities: MetricQuantities,
                 density_convention: DensityConvention | str = DensityConvention.PAPER) -> jnp.ndarray:
    """The score vectors ``s_j = G_j^{-1} grad log(p sqrt|G|)(x_j) + sum_a d_a (G^{-1})_{aj}``.

    Liu & Zhu (2018), Eq. (6) (the coefficient of ``d_b K``); notes Sec. 1.4, 5.4(A).

    Parameters
    ----------
    log_density_grads
        ``grad log pi`` (Lebesgue posterior score) at the particles, shape (N, m).
    quantities
        :class:`MetricQuantities` stacked over the particles.
    density_convention
        ``"paper"``: ``s = G^{-1} grad log pi + div``; ``"code"``:
        ``s = G^{-1}(grad log pi + grad log|G| / 2) + div`` (see :class:`DensityConvention`).
    """
    convention = check_density_convention(density_convention)
    grads = log_density_grads
    if convention is DensityConvention.CODE:
        grads = grads + 0.5 * quantities.grad_logdet
    return jnp.einsum("nab,nb->na", quantities.inverse, grads) + quantities.divergence


def rsvgd_direction(particles: jnp.ndarray, log_density_grads: jnp.ndarray, quantities: MetricQuantities,
                    bandwidth: BandwidthSpec = DEFAULT_BANDWIDTHS,
                    density_convention: DensityConvention | str = DensityConvention.PAPER,
                    evaluation_points: jnp.ndarray | None = None,
                    evaluation_inverse: jnp.ndarray | None = None) -> jnp.ndarray:
    """RSVGD's field ``X(x')`` in coordinates, Gaussian kernel summed over bandwidths.

    Liu & Zhu (2018), Eq. (6), in the closed form of notes Sec. 1.4 (matches the official
    ``rsvgd.py``): with ``r_j = x_j - x'``, ``K_j = exp(-|r_j|^2 / (2 h))``, ``G_j = G(x_j)``,

    ``X(x') = G(x')^{-1} 1/N sum_j K_j [ s_j/h - (s_j.r_j) r_j/h^2 - 2 G_j^{-1} r_j/h^2
    + (r_j.G_j^{-1} r_j) r_j/h^3 - tr(G_j^{-1}) r_j/h^2 ]``

    summed over ``h``, with ``s_j`` from :func:`rsvgd_scores`. The update is
    ``x <- x + eps X(x)`` (first-order flow approximation, Sec. 5). Unlike SVGD, every term
    scales with a power of ``1/h`` (the self term ``j = i`` alone is ``G^{-1} s_i / (N h)``), so
    tiny bandwidths of the summed list (``1e-4``) need small steps when particles are close.

    Parameters
    ----------
    particles
        ``x_j``, shape (N, m).
    log_density_grads
        ``grad log pi`` at the particles, shape (N, m) (the Lebesgue posterior score).
    quantities
        :class:`MetricQuantities` at the particles, stacked: inverse (N, m, m), others (N, m).
    bandwidth
        ``"median"`` (of the particles) or a tuple of bandwidths.
    density_convention
        ``"paper"`` (correct, default) or ``"code"`` (official code); see
        :class:`DensityConvention`.
    evaluation_points
        Where to evaluate ``X``, shape (M, m); the particles when omitted.
    evaluation_inverse
        ``G^{-1}`` at ``evaluation_points``, shape (M, m, m); required with them.

    Returns
    -------
    jnp.ndarray
        ``X`` at the evaluation points, shape (M, m) (or (N, m)).
    """
    bandwidth = check_bandwidth(bandwidth)
    convention = check_density_convention(density_convention)
    if evaluation_points is None:
        evaluation_points, evaluation_inverse = particles, quantities.inverse
    elif evaluation_inverse is None:
        raise ValueError("rsvgd_direction: evaluation_points given without evaluation_inverse (G^{-1} there)")
    return _rsvgd_direction(particles, log_density_grads, quantities, bandwidth, convention, evaluation_points,
                            evaluation_inverse)


@partial(jax.jit, static_argnums=(3, 4))
def _rsvgd_direction(particles, log_density_grads, quantities, bandwidth, convention, evaluation_points,
                     evaluation_inverse):
    scores = rsvgd_scores(log_density_grads, quantities, convention)
    hs = resolve_bandwidths(bandwidth, particles)
    inverse = quantities.inverse
    trace = jnp.trace(inverse, axis1=1, axis2=2)  # (N,)

    def at(point, point_inverse):
        r = particles - point  # (N, m)
        sq = jnp.sum(r * r, axis=1)  # (N,)
        inv_r = jnp.einsum("nab,nb->na", inverse, r)
        s_dot_r = jnp.sum(scores * r, axis=1)
        r_inv_r = jnp.sum(r * inv_r, axis=1)

        def one(h):
            k = jnp.exp(-sq / (2.0 * h))
            coefficient = -s_dot_r / h**2 + r_inv_r / h**3 - trace / h**2  # multiplies r
            terms = scores / h - 2.0 * inv_r / h**2 + coefficient[:, None] * r
            return jnp.mean(k[:, None] * terms, axis=0)

        return point_inverse @ jnp.sum(jax.vmap(one)(hs), axis=0)

    return jax.vmap(at)(evaluation_points, evaluation_inverse)


def rsvgd_field(score_fn: Callable[[jnp.ndarray], jnp.ndarray],
                quantities_fn: Callable[[jnp.ndarray], MetricQuantities],
                bandwidth: BandwidthSpec = DEFAULT_BANDWIDTHS,
                density_convention: DensityConvention | str = DensityConvention.PAPER,
                ) -> Callable[[jnp.ndarray], jnp.ndarray]:
    """``particles -> rsvgd_direction(...)`` at the particles (Liu & Zhu 2018, Eq. (6)).

    Parameters
    ----------
    score_fn
        One position (m,) -> ``grad log pi`` (m,), the Lebesgue posterior score.
    quantities_fn
        One position (m,) -> :class:`MetricQuantities`, e.g.
        ``functools.partial(metric_quantities, metric_fn)`` or a closure over
        :func:`~geobayes.svgd.coordinate_metric.blr_metric_quantities`.
    bandwidth, density_convention
        As in :func:`rsvgd_direction` (validated here, once).

    Returns
    -------
    Callable
        The ``direction_fn`` of :func:`geobayes.svgd.run_particles`.
    """
    bandwidth = check_bandwidth(bandwidth)
    convention = check_density_convention(density_convention)
    batched_score = jax.vmap(score_fn)
    batched_quantities = jax.vmap(quantities_fn)

    def direction(particles):
        return rsvgd_direction(particles, batched_score(particles), batched_quantities(particles),
                               bandwidth, convention)

    return direction
