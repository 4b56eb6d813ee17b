"""The two ResNet-20 priors of Yu et al. (2023), Sec. 4.4, as bnn_priors computes them.

Yu et al. (2023), Sec. 4.4 (notes Secs. 3.5, 8.3, 8.4 items 1 and 3) sample ResNet-20
(:mod:`geobayes.networks.resnet20`) under

* (a) an independent Gaussian (``--model googleresnet --prior gaussian``), and
* (b) the correlated normal prior of Fortuin et al. (2022) on the conv filters
  (``--model correlatedgoogleresnet --prior convcorrnormal``).

What the code computes (``weight_scale = 1.41``, ``bias_scale = 1.0``; the paper only says the
scale is "adjusted based on network structure") [C]:

* **conv weights** ``(out, in, k, k)``: ``sigma = 1.41 / sqrt(in)`` -- the input channels ``in``,
  NOT ``in * k * k`` (bnn_priors' ``Conv2dPrior`` calls ``scaling_fn(std_w, in_channels)``, a
  known TODO there; notes Sec. 3.5, 8.4 item 1);
* **dense weight** ``(10, 64)``: ``N(0, (1.41 / sqrt(64))^2)``; **dense bias**: ``N(0, 1)``;
* **BN scale and bias**: flat (no prior term) but sampled (notes Sec. 3.5);
* correlated prior: each conv filter's ``k x k`` spatial kernel, flattened row-major, is
  ``MVN(0, sigma^2 K)`` with ``K_ab = exp(-||p_a - p_b|| / lengthscale)`` (``p`` the integer
  kernel positions, Euclidean distance; an *exponential* kernel although bnn_priors calls the
  class "SquaredExponentialNormal"), ``lengthscale = 1.0`` (the default; the fitted-lengthscale
  variants of Fortuin et al. 2022 were not used, notes Sec. 8.4 item 3), independent per
  ``(out, in)`` pair, same ``sigma = 1.41 / sqrt(in)``; the dense layer keeps the Gaussian.

**1x1 shortcut convs under the correlated prior** (decision). bnn_priors' ``CorrelatedResNet``
passes ``conv_prior_w = ConvCorrelatedNormal`` to every ``Conv2dPrior`` of the network, the 1x1
shortcut convs included. For a 1x1 kernel the distance matrix is ``[[0]]``, so ``K = [[1]]`` and
the "MVN" is exactly ``N(0, sigma^2)`` with ``sigma = 1.41 / sqrt(in)``: the Gaussian prior. We apply
the same rule to every conv (any ``k``), which for 1x1 convs gives that Gaussian term.

Positions are the network's tensor list itself (BN parameters included); both priors give
``init_position``, ``network_parameters`` and ``log_prior`` like
:class:`geobayes.networks.bnn_priors.GaussianPrior`. :data:`PRIORS` is the registry by config name
(``gaussian``, ``correlated``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg

from geobayes.networks.resnet20 import check_parameters, parameter_kinds

__all__ = ["PRIORS", "ResNetCorrelatedNormalPrior", "ResNetGaussianPrior", "kernel_correlation", "prior_from_name",
           "tensor_scales"]

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def _check_positive(**values: float) -> None:
    for name, value in values.items():
        if isinstance(value, bool) or not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {value!r}")


def kernel_correlation(kernel_size: int, lengthscale: float = 1.0) -> np.ndarray:
    """``K_ab = exp(-||p_a - p_b|| / lengthscale)`` over the ``k x k`` positions, row-major, float64.

    bnn_priors' ``ConvCorrelatedNormal``: ``p = np.mgrid[:k, :k].reshape(2, -1).T`` and Euclidean
    distances; ``(k^2, k^2)``. ``[[1.]]`` for ``k = 1``.
    """
    if isinstance(kernel_size, bool) or not isinstance(kernel_size, (int, np.integer)) or kernel_size < 1:
        raise ValueError(f"kernel_size must be an integer >= 1, got {kernel_size!r}")
    _check_positive(lengthscale=lengthscale)
    points = np.mgrid[:kernel_size, :kernel_size].reshape(2, -1).T.astype(np.float64)
    distance = np.sqrt(np.sum((points[:, None, :] - points[None, :, :]) ** 2, axis=-1))
    return np.exp(-distance / lengthscale)


def tensor_scales(params: Sequence[jax.Array], weight_scale: float = 1.41,
                  bias_scale: float = 1.0) -> list[float | None]:
    """The prior standard deviation ``sigma_t`` of each ResNet tensor, ``None`` for BN (flat).

    ``weight_scale / sqrt(in)`` for conv weights ``(out, in, k, k)`` and the dense weight
    ``(C, in)``, ``bias_scale`` for the dense bias (notes Sec. 3.5 [C]).
    """
    params, depth, num_classes = check_parameters(params)
    scales: list[float | None] = []
    for p, kind in zip(params, parameter_kinds(depth, num_classes)):
        if kind in ("conv", "dense_weight"):
            scales.append(weight_scale / math.sqrt(np.shape(p)[1]))
        elif kind == "dense_bias":
            scales.append(float(bias_scale))
        else:
            scales.append(None)
    return scales


def _normal_log_density(x: jax.Array, scale: float) -> jax.Array:
    """``sum log N(x | 0, scale^2)``."""
    return jnp.sum(-0.5 * jnp.square(x / scale)) - x.size * (math.log(scale) + _HALF_LOG_2PI)


class ResNetGaussianPrior(eqx.Module):
    """Independent ``N(0, sigma_t^2)`` on conv and dense tensors, flat on BN (``googleresnet``).

    Yu et al. (2023), Sec. 4.4 (a); notes Secs. 3.5, 8.3: conv weights ``sigma = weight_scale /
    sqrt(in_channels)``, dense weight ``weight_scale / sqrt(64)``, dense bias ``bias_scale``.
    """

    weight_scale: float = eqx.field(static=True, default=1.41)
    bias_scale: float = eqx.field(static=True, default=1.0)

    def __check_init__(self):
        _check_positive(weight_scale=self.weight_scale, bias_scale=self.bias_scale)

    def init_position(self, network: Sequence[jax.Array]) -> list[jax.Array]:
        """The position for the network parameters ``network`` (the list itself, validated)."""
        return check_parameters(network)[0]

    def network_parameters(self, position: Sequence[jax.Array]) -> list[jax.Array]:
        """The network's tensor list of ``position`` (identity)."""
        return list(position)

    def log_prior(self, position: Sequence[jax.Array]) -> jax.Array:
        """``sum_t sum log N(theta_t | 0, sigma_t^2)`` over the non-BN tensors, a scalar."""
        scales = tensor_scales(position, self.weight_scale, self.bias_scale)
        return sum(_normal_log_density(p, s) for p, s in zip(position, scales) if s is not None)


class ResNetCorrelatedNormalPrior(eqx.Module):
    """Fortuin et al. (2022)'s ``convcorrnormal``: ``MVN(0, sigma^2 K)`` per conv kernel slice.

    Yu et al. (2023), Sec. 4.4 (b); notes Secs. 3.5, 8.3, 8.4 item 3. Each ``W[o, i]`` (``k x k``,
    flattened row-major) has covariance ``sigma^2 K`` with ``K`` from :func:`kernel_correlation`
    and ``sigma = weight_scale / sqrt(in)``; 1x1 convs reduce to ``N(0, sigma^2)`` (module
    docstring). The dense layer is Gaussian as in :class:`ResNetGaussianPrior`; BN is flat.
    """

    weight_scale: float = eqx.field(static=True, default=1.41)
    bias_scale: float = eqx.field(static=True, default=1.0)
    lengthscale: float = eqx.field(static=True, default=1.0)

    def __check_init__(self):
        _check_positive(weight_scale=self.weight_scale, bias_scale=self.bias_scale, lengthscale=self.lengthscale)

    def init_position(self, network: Sequence[jax.Array]) -> list[jax.Array]:
        """The position for the network parameters ``network`` (the list itself, validated)."""
        return check_parameters(network)[0]

    def network_parameters(self, position: Sequence[jax.Array]) -> list[jax.Array]:
        """The network's tensor list of ``position`` (identity)."""
        return list(position)

    def _conv_log_density(self, weight: jax.Array, scale: float) -> jax.Array:
        """``sum_{o,i} log MVN(W[o, i].ravel() | 0, scale^2 K)`` via the Cholesky factor ``L`` of ``K``."""
        k = weight.shape[-1]
        cholesky = np.linalg.cholesky(kernel_correlation(k, self.lengthscale))
        inverse = scipy.linalg.solve_triangular(cholesky, np.eye(k * k), lower=True)  # L^{-1}
        flat = weight.reshape(-1, k * k) / scale  # one row per (out, in) pair
        white = flat @ jnp.asarray(inverse.T)  # rows L^{-1} w / scale
        # log det(scale^2 K) / 2 = k^2 log scale + sum log diag L
        log_norm = k * k * (math.log(scale) + _HALF_LOG_2PI) + float(np.sum(np.log(np.diag(cholesky))))
        return -0.5 * jnp.sum(jnp.square(white)) - flat.shape[0] * log_norm

    def log_prior(self, position: Sequence[jax.Array]) -> jax.Array:
        """``sum`` of the conv kernels' MVN log densities plus the dense layer's Gaussian terms."""
        scales = tensor_scales(position, self.weight_scale, self.bias_scale)
        total = 0.0
        for p, s in zip(position, scales):
            if s is None:
                continue
            total = total + (self._conv_log_density(p, s) if jnp.ndim(p) == 4 else _normal_log_density(p, s))
        return total


#: Priors by config name (Yu et al. 2023, Sec. 4.4: independent Gaussian, correlated normal).
PRIORS: dict[str, type[eqx.Module]] = {"gaussian": ResNetGaussianPrior, "correlated": ResNetCorrelatedNormalPrior}


def prior_from_name(name: str, **options) -> ResNetGaussianPrior | ResNetCorrelatedNormalPrior:
    """The prior registered as ``name`` built with ``options`` (e.g. ``lengthscale=1.0``).

    Raises
    ------
    ValueError
        If ``name`` is not a key of :data:`PRIORS` (listing them).
    """
    if name not in PRIORS:
        raise ValueError(f"unknown prior {name!r}; known: {', '.join(PRIORS)}")
    return PRIORS[name](**options)
