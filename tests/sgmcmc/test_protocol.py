"""Protocol test over the registry: every sampler on a correlated 8-D Gaussian (notes Sec. 8.1, item 5).

Exact gradients (``noise_std = 0``, ``num_data = 1``), 16 chains of 16,000 steps at
``lr = 0.01`` from ``mu + 1``; burn-in 2,000, thinning 10. The target's precision has
eigenvalues in [0.40, 7.4], so the Euler bias in the variance is at most ``lr a / 2 = 3.7 %``;
about 1,300 effective draws per coordinate give a Monte Carlo standard error of about 4 % on
a variance and 0.03 sd on a mean. The tolerances (15 % on variances, 0.1 on correlations,
0.1 sd on means) are those errors plus three standard errors.

Adaptive metrics that follow the *position* (EMAs of the exact gradient) are biased when
Gamma is dropped (Yu et al. 2023, Theorems 3.1-3.2: an error of order ``(1 - lam)^2``);
the EMA factors here (0.999) keep that bias inside the tolerance. The Shampoo weight is a
2x3 matrix and ``block_size = 3`` keeps it rank 2 (128 would merge it into a vector).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.flatten_util import ravel_pytree

from geobayes.sgmcmc import PRECONDITIONERS, build_preconditioner, noisy_gradient, run_chain, sgrld

SHAMPOO = {"lam": 0.999, "block_size": 3, "update_interval": 10, "first_preconditioner_step": 10}
CASES = {
    "identity": ("identity", {}),
    "rmsprop": ("rmsprop", {"lam": 0.999}),
    "wenzel": ("wenzel", {}),
    "monge": ("monge", {"alpha2": 0.5, "lam": 0.999}),
    "shampoo": ("shampoo", SHAMPOO),
    "shampoo-vectors-eigh": ("shampoo", SHAMPOO | {"precondition_vectors": True, "root_method": "eigh"}),
}

_rng = np.random.default_rng(0)
DIM = 8
_L = np.tril(_rng.normal(size=(DIM, DIM)) * 0.3) + np.diag(_rng.uniform(0.7, 1.3, DIM))
COVARIANCE = _L @ _L.T
PRECISION = np.linalg.inv(COVARIANCE)
MEAN = _rng.normal(size=DIM)
_, UNRAVEL = ravel_pytree({"w": jnp.zeros((2, 3)), "b": jnp.zeros(2)})


def logdensity(position):
    x = ravel_pytree(position)[0] - MEAN
    return -0.5 * x @ PRECISION @ x


def test_every_registered_sampler_is_covered():
    assert {name for name, _ in CASES.values()} == set(PRECONDITIONERS)


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_sampler_recovers_gaussian_mean_and_covariance(case):
    name, settings = CASES[case]
    algorithm = sgrld(build_preconditioner(name, settings), learning_rate=0.01, num_data=1)
    gradient_fn = noisy_gradient(logdensity, 0.0)

    def chain(key):
        state = algorithm.init(UNRAVEL(jnp.asarray(MEAN) + 1.0))
        _, samples, info = run_chain(key, algorithm.step, state, gradient_fn, num_epochs=16, steps_per_epoch=1000,
                                     burn_in=2000, thinning=10, end_epoch=algorithm.end_epoch)
        return jax.vmap(lambda p: ravel_pytree(p)[0])(samples), info.fallback.any()

    draws, fallback = jax.jit(jax.vmap(chain))(jax.random.split(jax.random.key(1), 16))
    draws = np.asarray(draws).reshape(-1, DIM)
    assert not bool(fallback.any()) and np.all(np.isfinite(draws))
    sd = np.sqrt(np.diag(COVARIANCE))
    np.testing.assert_array_less(np.abs(draws.mean(0) - MEAN) / sd, 0.1)
    np.testing.assert_array_less(np.abs(draws.var(0) / np.diag(COVARIANCE) - 1), 0.15)
    np.testing.assert_array_less(np.abs(np.corrcoef(draws.T) - COVARIANCE / np.outer(sd, sd)), 0.1)
