"""Network models: the network's outputs embedded in a likelihood family, plus a Gaussian prior.

Each is an :class:`~geobayes.models.embedding_model.EmbeddingModel`, so the Fisher metric is
``J^T I(h) J + prior precision`` with ``J`` the network Jacobian: for a Gaussian likelihood it
is the generalised Gauss-Newton matrix (GGN) plus the prior precision, the "Fisher precision"
of laplace-torch's full Laplace (Yu et al. 2024, Sec. 5.4; Daxberger et al. 2021).
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp

from geobayes.dataset import Dataset
from geobayes.families.bernoulli import Bernoulli
from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.families.gaussian_mean_variance import GaussianMeanVariance
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.networks.mlp import MultilayerPerceptron


class NetworkRegression(EmbeddingModel):
    """``y_n ~ N(f_theta(x_n), sigma^2)`` with ``sigma^2`` fixed, ``theta ~ N(0, prior variance I)``.

    Yu et al. (2024), Sec. 5.4 and Bergamin et al. (2023), Sec. 5.1: the noise and the prior
    precision are set post hoc by the Laplace marginal likelihood (see
    :mod:`geobayes.laplace`) and then held fixed for every method and for NUTS.
    """

    network: MultilayerPerceptron = eqx.field(default=None)
    prior: GaussianPrior = eqx.field(default_factory=lambda: GaussianPrior(variance=1.0))
    family: GaussianFixedVariance = eqx.field(default_factory=GaussianFixedVariance)

    def __check_init__(self):
        if not isinstance(self.network, MultilayerPerceptron):
            raise ValueError(f"{type(self).__name__} needs network=MultilayerPerceptron(...), got {self.network!r}")

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Network means ``f_theta(x_n)``, shape (N,)."""
        return self.network(theta, data.X)[:, 0]

    def predict(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """Predictive mean ``f_theta(x)`` at new inputs, shape (M,)."""
        return self.network(theta, X)[:, 0]

    def noise_variance(self, theta: jax.Array) -> jax.Array:
        """Observation noise variance (fixed here), shape ()."""
        return jnp.asarray(self.family.noise_variance, dtype=jnp.float64)

    def mean_jacobian(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """``J = d f_theta(x_n) / d theta``, shape (N, D), one reverse pass per input.

        Yu et al. (2024), Supp. 16.5.3: RLA-F "needs per-sample Jacobians". Each row is the
        gradient of one output, ``O(N D)`` in all, where ``jacfwd`` over the batch (the generic
        path) carries all ``D`` tangents through every layer, ``O(N D^2)``. Uses :meth:`predict`,
        so a linearised network gets its own (constant) Jacobian.
        """
        return jax.vmap(jax.grad(lambda t, x: self.predict(t, x[None])[0]), in_axes=(None, 0))(theta, data.X)

    def fisher(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """``J^T J / sigma^2 + P`` from :meth:`mean_jacobian` (Yu et al. 2024, Eq. (3)).

        13 against 135 ms with ``jacfwd`` for the 481-weight network on 1,000 points
        (``benchmarks/bench_network_fisher.py``). Equal to the generic path to rounding (tested).
        """
        return self._metric(self.mean_jacobian(theta, data))

    def _metric(self, jac: jax.Array) -> jax.Array:
        """``J^T J / sigma^2 + P`` (symmetrised) for a Jacobian ``J`` of shape (N, D)."""
        g = jac.T @ jac / self.family.noise_variance + self.prior.precision(jac.shape[1])
        return 0.5 * (g + g.T)

    def fisher_christoffel(self, theta: jax.Array, v: jax.Array, data: Dataset) -> jax.Array:
        """``Gamma(v, v)`` of the GGN/Fisher metric ``G = J^T J / sigma^2 + I / s``, matrix-free.

        ``G`` is the metric induced by the map ``theta -> f(theta) / sigma`` into a flat space
        (plus the constant prior precision ``I / s``), so its Christoffel contraction is
        ``G^{-1} J^T f''[v, v] / sigma^2``, with ``f''[v, v]`` the second directional derivative
        of the network outputs: one nested ``jax.jvp``, no ``D x D x D`` derivative tensor
        (Yu et al. 2024, Sec. 4.3.3 and Eq. (3): the Fisher metric of a Gaussian likelihood with
        fixed noise has a constant information ``1/sigma^2``). ``J`` is :meth:`mean_jacobian`.
        The solve is a Cholesky solve of the D x D metric where ``N >= D``; with fewer inputs than
        weights it is the Woodbury identity ``G^{-1} r = s (r - J^T (sigma^2 / s I_N + J J^T)^{-1} J r)``,
        an N x N solve (the 481-weight network on 100 points: ``bench_network_fisher.py``).
        Equal to the generic autodiff contraction either way (tested).
        """
        def f(t):
            return self.embedding(t, data)

        _, second = jax.jvp(lambda t: jax.jvp(f, (t,), (v,))[1], (theta,), (v,))
        jac = self.mean_jacobian(theta, data)
        noise, prior_variance = self.family.noise_variance, self.prior.variance
        rhs = jac.T @ second / noise
        n, d = jac.shape
        if n >= d:
            return jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(self._metric(jac)), rhs)
        inner = jac @ jac.T + (noise / prior_variance) * jnp.eye(n)
        inner = jax.scipy.linalg.cho_factor(0.5 * (inner + inner.T))
        return prior_variance * (rhs - jac.T @ jax.scipy.linalg.cho_solve(inner, jac @ rhs))

    def dim(self, data: Dataset) -> int:
        """D = number of network weights."""
        return self.network.num_parameters

    def linearised(self, anchor: jax.Array) -> LinearisedNetworkRegression:
        """This model with its network linearised at ``anchor`` (Bergamin et al. 2023, Sec. 3.2):
        same prior and noise."""
        return LinearisedNetworkRegression(network=self.network, prior=self.prior, family=self.family,
                                           anchor=jnp.asarray(anchor, dtype=jnp.float64))


class NetworkRegressionInferredNoise(NetworkRegression):
    """``y_n ~ N(f(x_n), exp(theta_{D}))``: the log noise variance is the last parameter.

    Hartmann et al. (2026), Sec. 5.3.2: the imbedding ``h(theta) = (f(x_1), ..., f(x_n),
    exp(theta_{d_L + 1}))`` onto the mean-and-variance Gaussian family, prior ``N(0, I)`` on all
    ``d = d_L + 1`` parameters (142 for the 1-10-10-1 network).
    """

    family: GaussianMeanVariance = eqx.field(default_factory=GaussianMeanVariance)

    #: The noise information ``N / (2 s^2)`` depends on ``theta``: no closed-form contraction
    #: here, the generic autodiff path applies, and the generic Fisher (its embedding appends the
    #: variance to the per-example means).
    fisher_christoffel = None
    fisher = EmbeddingModel.fisher

    #: Bergamin et al.'s linearisation keeps the noise fixed: not defined for an inferred noise.
    linearised = None

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """``(f(x_1), ..., f(x_n), sigma^2)``, shape (N + 1,)."""
        weights, log_variance = theta[:-1], theta[-1]
        return jnp.concatenate([self.network(weights, data.X)[:, 0], jnp.exp(log_variance)[None]])

    def predict(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """Predictive mean ``f(x)`` from the weights part of ``theta``, shape (M,)."""
        return self.network(theta[:-1], X)[:, 0]

    def noise_variance(self, theta: jax.Array) -> jax.Array:
        """``exp(theta_D)``, shape ()."""
        return jnp.exp(theta[-1])

    def dim(self, data: Dataset) -> int:
        """D = network weights + 1."""
        return self.network.num_parameters + 1


class NetworkClassifier(EmbeddingModel):
    """``y_n ~ Bernoulli(sigmoid(f_theta(x_n)))``, prior ``N(0, prior variance I)``.

    Hartmann et al. (2026), App. D (Figs. 8-9): 2-15-15-1 SiLU network, d = 301.
    """

    network: MultilayerPerceptron = eqx.field(default=None)
    prior: GaussianPrior = eqx.field(default_factory=lambda: GaussianPrior(variance=1.0))
    family: Bernoulli = eqx.field(default_factory=Bernoulli)

    def __check_init__(self):
        if not isinstance(self.network, MultilayerPerceptron):
            raise ValueError(f"{type(self).__name__} needs network=MultilayerPerceptron(...), got {self.network!r}")

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Logits ``f_theta(x_n)``, shape (N,)."""
        return self.network(theta, data.X)[:, 0]

    def predict(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """Logits at new inputs, shape (M,)."""
        return self.network(theta, X)[:, 0]

    def dim(self, data: Dataset) -> int:
        """D = number of network weights."""
        return self.network.num_parameters


class LinearisedNetworkRegression(NetworkRegression):
    """The network linearised at ``anchor``: ``f_lin(x) = f_{anchor}(x) + J_{anchor}(x)(theta - anchor)``.

    Bergamin et al. (2023), Sec. 3.2 and App. B, Eqs. (B.15)-(B.17): the loss of the linearised
    model drives the geodesics of "lin-riem-LA"; its Hessian is the (constant) GGN plus the prior
    precision. The Jacobian is never stored: one ``jax.jvp`` per evaluation.
    """

    anchor: jax.Array = eqx.field(default=None)

    #: Already linear: linearising again is refused.
    linearised = None

    def __check_init__(self):
        if self.anchor is None:
            raise ValueError("a linearised network needs its anchor (the MAP weights)")

    def predict(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """Linearised predictions ``f_{anchor}(x) + J(x)(theta - anchor)``, shape (M,)."""
        mean, tangent = jax.jvp(lambda w: self.network(w, X)[:, 0], (self.anchor,), (theta - self.anchor,))
        return mean + tangent

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Linearised means at the training inputs, shape (N,)."""
        return self.predict(theta, data.X)
