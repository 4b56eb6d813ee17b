"""RLA-B under-disperses on a Gaussian target (Yu et al. 2024, Sec. 3 and Supp. 11).

Along a Monge geodesic ``|v|^2 + <v, grad l>^2`` is conserved and ``G(mode) = I``, so the
Euclidean speed only shrinks: RLA-B samples sit closer to the mode than the (exact) ELA ones.
"""

from __future__ import annotations

import jax
import numpy as np

from toy_posteriors import linear_gaussian_posterior

from geobayes.methods import get_method, method_config

N = 400


POSTERIOR = linear_gaussian_posterior()
MODE = POSTERIOR.model.exact_posterior(POSTERIOR.data)[0]


def _squared_distances(method, key):
    approx = get_method(method).fit(POSTERIOR, method_config(method), jax.random.PRNGKey(0), mode=MODE).approximation
    draws = approx.sample(key, N)
    assert bool(np.all(np.asarray(draws.successful)))
    return np.sum((np.asarray(draws.theta) - np.asarray(MODE)) ** 2, axis=1)


def test_rla_b_under_disperses_on_gaussian_target():
    # Independent keys: difference of two sample means, 5 standard errors.
    d_b = _squared_distances("rla_b", jax.random.PRNGKey(1))
    d_e = _squared_distances("ela", jax.random.PRNGKey(2))
    se = np.sqrt(d_b.var(ddof=1) / N + d_e.var(ddof=1) / N)
    assert d_e.mean() - d_b.mean() > 5 * se, (d_e.mean(), d_b.mean(), se)


def test_rla_b_under_disperses_paired():
    # Same key: same tangent velocities, so the comparison is paired.
    key = jax.random.PRNGKey(3)
    d_b = _squared_distances("rla_b", key)
    d_e = _squared_distances("ela", key)
    diff = d_e - d_b
    assert diff.mean() > 5 * diff.std(ddof=1) / np.sqrt(N), (diff.mean(), diff.std())
    # Geodesic length <= |v(0)|: no sample moves further than its ELA twin (up to solver error).
    assert np.all(np.sqrt(d_b) <= np.sqrt(d_e) * (1 + 1e-2) + 1e-8)
