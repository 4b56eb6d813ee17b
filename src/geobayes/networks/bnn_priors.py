"""Gaussian and horseshoe priors of Yu et al. (2023), Sec. 4.3, as bnn_priors implements them.

Yu et al. (2023), Sec. 4.3 (notes Secs. 3.4, 8.3, 8.4 items 1-2) put on every tensor of the
fully connected network (:mod:`geobayes.networks.dense_relu_classifier`) either

* a Gaussian ``theta ~ N(0, sigma^2 I)``, or
* a horseshoe ``theta ~ N(0, sigma^2 lambda^2 I)``, ``lambda ~ HalfCauchy(1)``,

with ``sigma`` "adjusted based on network structure". Reproduced here is what the code
(bnn_priors' ``LinearPrior`` / ``prior.Normal`` / ``prior.Horseshoe`` with ``weight_scale=1.41``,
``bias_scale=1.0``) computes, which the paper does not state [C]:

* **weights** ``W`` of shape ``(out, in)``: ``sigma_w = 1.41 / sqrt(in)`` (``scaling_fn =
  std / sqrt(fan_in)``);
* **biases**: ``sigma_b = 1.0`` -- NOT scaled by the fan-in. Decision on the notes' two
  statements: Sec. 7 says "for the dense net the bias prior equals the weight prior" and Sec. 3.4
  says "Biases: sigma_b = 1.0". Both hold in bnn_priors' ``LinearPrior``: the bias gets the
  same prior *family* as the weights (``bias_prior = weight_prior``: Gaussian or horseshoe) but
  is built as ``prior_b((out,), 0., std_b)`` with ``std_b = bias_scale = 1.0`` and no
  ``scaling_fn``. So Gaussian biases are ``N(0, 1)`` and horseshoe biases have their own
  horseshoe scale with ``sigma_b = 1``;
* **horseshoe**: ONE scale per tensor (not per weight), ``lambda sigma = softplus(p) sigma``,
  where the unconstrained scalar ``p`` is a sampled parameter like the weights, initialised to
  ``softplus^{-1}(1)`` (``lambda = 1``). Its log prior is
  ``HalfCauchy(1).log_prob(softplus(p) sigma)`` evaluated at the *product* and with no Jacobian
  of the softplus (bnn_priors' ``transformed.HalfCauchy(scale=1, multiplier=sigma)``), so this
  is not the density of ``p`` under a half-Cauchy ``lambda``; the notes flag this
  (Sec. 8.4 item 2) and we reproduce it.

Positions (what a sampler moves): for the Gaussian prior the network's tensor list itself; for
the horseshoe a :class:`HorseshoePosition` ``(network, scale_logits)`` with one 0-d array ``p``
per tensor, so the pytree gains one scalar per tensor (6 for ``784-N-N-10``). Both priors give
``network_parameters(position)`` (the list :func:`~geobayes.networks.dense_relu_classifier.logits`
takes) and ``log_prior(position)``; :data:`PRIORS` is the registry by config name.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.networks.dense_relu_classifier import check_parameters

__all__ = ["PRIORS", "GaussianPrior", "HorseshoePosition", "HorseshoePrior", "prior_from_name",
           "softplus_inverse", "tensor_scales"]

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def softplus_inverse(value: float) -> float:
    """``p`` with ``softplus(p) = value`` (``log(expm1(value))``), for ``value > 0``."""
    if not value > 0:
        raise ValueError(f"softplus_inverse needs value > 0, got {value!r}")
    return math.log(math.expm1(value))


def tensor_scales(params: Sequence[jax.Array], weight_scale: float, bias_scale: float) -> list[float]:
    """The base scale ``sigma_t`` of each tensor: ``weight_scale / sqrt(in)`` for a weight
    ``(out, in)``, ``bias_scale`` for a bias (notes Sec. 3.4 [C])."""
    return [weight_scale / math.sqrt(jnp.shape(p)[1]) if jnp.ndim(p) == 2 else float(bias_scale)
            for p in check_parameters(params)]


def _normal_log_density(x: jax.Array, scale: jax.Array | float) -> jax.Array:
    """``sum log N(x | 0, scale^2)`` (torch ``Normal(0, scale).log_prob(x).sum()``)."""
    return jnp.sum(-0.5 * jnp.square(x / scale) - jnp.log(scale) - _HALF_LOG_2PI)


def _half_cauchy_log_density(x: jax.Array) -> jax.Array:
    """torch ``HalfCauchy(1).log_prob(x) = log(2/pi) - log1p(x^2)`` for ``x >= 0``."""
    return math.log(2.0 / math.pi) - jnp.log1p(jnp.square(x))


def _check_positive(**values: float) -> None:
    for name, value in values.items():
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {value!r}")


class GaussianPrior(eqx.Module):
    """``W ~ N(0, (weight_scale / sqrt(in))^2)``, ``b ~ N(0, bias_scale^2)``, independent.

    Yu et al. (2023), Sec. 4.3; notes Secs. 3.4, 8.3 (bnn_priors ``prior.Normal`` with
    ``weight_scale=1.41``, ``bias_scale=1.0``). The position is the tensor list itself.
    """

    weight_scale: float = eqx.field(static=True, default=1.41)
    bias_scale: float = eqx.field(static=True, default=1.0)

    def __check_init__(self):
        _check_positive(weight_scale=self.weight_scale, bias_scale=self.bias_scale)

    def init_position(self, network: Sequence[jax.Array]) -> list[jax.Array]:
        """The position for the network parameters ``network`` (the list itself)."""
        return check_parameters(network)

    def network_parameters(self, position: Sequence[jax.Array]) -> list[jax.Array]:
        """The network's tensor list of ``position`` (identity)."""
        return list(position)

    def log_prior(self, position: Sequence[jax.Array]) -> jax.Array:
        """``sum_t sum log N(theta_t | 0, sigma_t^2)``, a scalar."""
        scales = tensor_scales(position, self.weight_scale, self.bias_scale)
        return sum(_normal_log_density(p, s) for p, s in zip(position, scales))


class HorseshoePosition(NamedTuple):
    """A horseshoe-prior position: the network tensors and one unconstrained scalar per tensor.

    Attributes
    ----------
    network : list of jax.Array
        ``[W_1, b_1, ..., W_L, b_L]``.
    scale_logits : list of jax.Array
        0-d arrays ``p_t``; tensor ``t`` has prior scale ``softplus(p_t) sigma_t``.
    """

    network: list
    scale_logits: list


class HorseshoePrior(eqx.Module):
    """bnn_priors' ``Horseshoe`` on every tensor: ``theta_t ~ N(0, (softplus(p_t) sigma_t)^2)``,
    log prior of the scale ``HalfCauchy(hyperscale).log_prob(softplus(p_t) sigma_t)``.

    Yu et al. (2023), Sec. 4.3 ("horseshoe ... as implemented in Fortuin et al. 2021", on
    weights and biases); notes Secs. 3.4, 8.3, 8.4 item 2. ``sigma_t`` as
    :func:`tensor_scales`. ``p_t`` starts at ``softplus^{-1}(1)`` (bnn_priors sets
    ``scale_prior.p = inv_softplus(1.)``, and ``he_initialize`` leaves it alone since its name
    ``...weight_prior.scale.p`` does not contain ``weight_prior.p``). No Jacobian of the softplus.
    """

    weight_scale: float = eqx.field(static=True, default=1.41)
    bias_scale: float = eqx.field(static=True, default=1.0)
    hyperscale: float = eqx.field(static=True, default=1.0)

    def __check_init__(self):
        _check_positive(weight_scale=self.weight_scale, bias_scale=self.bias_scale, hyperscale=self.hyperscale)

    def init_position(self, network: Sequence[jax.Array]) -> HorseshoePosition:
        """``HorseshoePosition(network, [softplus^{-1}(1)] * n_tensors)`` (float64 0-d arrays)."""
        network = check_parameters(network)
        p0 = softplus_inverse(1.0)
        return HorseshoePosition(network, [jnp.asarray(p0, jnp.float64) for _ in network])

    def network_parameters(self, position: HorseshoePosition) -> list[jax.Array]:
        """The network's tensor list of ``position``."""
        return list(position.network)

    def scales(self, position: HorseshoePosition) -> list[jax.Array]:
        """``softplus(p_t) sigma_t`` per tensor: the prior standard deviations."""
        self._check(position)
        base = tensor_scales(position.network, self.weight_scale, self.bias_scale)
        return [jax.nn.softplus(p) * s for p, s in zip(position.scale_logits, base)]

    def log_prior(self, position: HorseshoePosition) -> jax.Array:
        """``sum_t [sum log N(theta_t | 0, lambda_t sigma_t) + log HalfCauchy(lambda_t sigma_t)]``
        with ``lambda_t = softplus(p_t)``; the half-Cauchy's scale is ``hyperscale`` (1)."""
        scales = self.scales(position)
        total = 0.0
        for theta, scale in zip(position.network, scales):
            total = total + _normal_log_density(theta, scale)
            total = total + _half_cauchy_log_density(scale / self.hyperscale) - math.log(self.hyperscale)
        return total

    @staticmethod
    def _check(position) -> None:
        if not isinstance(position, HorseshoePosition):
            raise ValueError(f"position must be a HorseshoePosition, got {type(position).__name__}")
        if len(position.scale_logits) != len(position.network):
            raise ValueError(f"position.scale_logits has {len(position.scale_logits)} entries, "
                             f"one per tensor of position.network ({len(position.network)}) expected")
        for t, p in enumerate(position.scale_logits):
            if jnp.ndim(p) != 0:
                raise ValueError(f"position.scale_logits[{t}] must be a scalar, got shape {jnp.shape(p)}")


#: Priors by config name (Yu et al. 2023, Sec. 4.3: ``--prior gaussian | horseshoe``).
PRIORS: dict[str, type[eqx.Module]] = {"gaussian": GaussianPrior, "horseshoe": HorseshoePrior}


def prior_from_name(name: str, **options) -> GaussianPrior | HorseshoePrior:
    """The prior registered as ``name`` built with ``options`` (e.g. ``weight_scale=1.41``).

    Raises
    ------
    ValueError
        If ``name`` is not a key of :data:`PRIORS` (listing them).
    """
    if name not in PRIORS:
        raise ValueError(f"unknown prior {name!r}; known: {', '.join(PRIORS)}")
    return PRIORS[name](**options)
