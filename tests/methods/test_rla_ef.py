"""RLA-EF: RLA with the empirical Fisher metric (Yu et al. 2024, Supp. 16.6).

Known answer on the banana (Sec. 5.2) from the Hausdorff MAP with Fisher precision: the paper
reports W1 = 0.141 for RLA-EF, 0.143 for RLA-F and 1.386 for ELA (Table 1 and Supp. 16.6). The
reference here is exact up to the grid: draws from the posterior evaluated on a 0.01 grid
(cell picked with its probability, uniform within the cell; W1 error below the cell size).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.data.banana import generate_banana_data
from geobayes.dataset import Dataset
from geobayes.geometry.empirical_fisher import EmpiricalFisher
from geobayes.methods import get_method, summarise_draws
from geobayes.methods import rla_ef
from geobayes.metrics import wasserstein1
from geobayes.models import GaussianPrior
from geobayes.models.banana import Banana
from geobayes.posterior import Posterior
from geobayes.targets import Squiggle

CONFIG = {
    "precision": "fisher",
    "ode": {"solver": "dopri5", "rtol": 1e-3, "atol": 1e-6, "max_steps": 4096},
}
N = 1000
NULL_PAIRS = 6
DATA = generate_banana_data()
POSTERIOR = Posterior("banana-banana", Banana(prior=GaussianPrior(4.0)), Dataset(DATA.X, DATA.y))
# The Hausdorff MAP: on theta2 = 0 the metric does not depend on theta1 (notes Sec. 1.7(a)), so
# theta1 is the Gaussian posterior mean given theta2 = 0: sum(y) / (sigma_y^2 / sigma_theta^2 + N).
HAUSDORFF_MAP = jnp.array([DATA.y.sum() / (1.0 + DATA.y.size), 0.0])


def _w1(x, y) -> float:
    return wasserstein1(np.asarray(x), np.asarray(y), num_iter_max=10**8)


@functools.cache
def _grid_posterior(spacing: float = 0.01):
    """Cell centres over ``[-8, 3.5] x [-3.5, 3.5]`` and their normalised probabilities."""
    theta1 = np.arange(-8.0, 3.5, spacing) + spacing / 2
    theta2 = np.arange(-3.5, 3.5, spacing) + spacing / 2
    t1, t2 = np.meshgrid(theta1, theta2, indexing="ij")
    centres = np.stack([t1.ravel(), t2.ravel()], axis=1)
    logp = np.asarray(jax.jit(jax.vmap(POSTERIOR.logdensity))(jnp.asarray(centres)))
    p = np.exp(logp - logp.max())
    grid = p.reshape(t1.shape)
    edge_mass = (grid[[0, -1], :].sum() + grid[:, [0, -1]].sum()) / p.sum()
    assert edge_mass < 1e-5, edge_mass  # the box holds the posterior
    return centres, p / p.sum(), spacing


def _reference(seed: int, n: int) -> np.ndarray:
    centres, probabilities, spacing = _grid_posterior()
    rng = np.random.default_rng(seed)
    cells = rng.choice(probabilities.size, size=n, p=probabilities)
    return centres[cells] + rng.uniform(-spacing / 2, spacing / 2, size=(n, 2))


def test_hausdorff_map_is_a_maximum_of_the_hausdorff_objective():
    def objective(theta):
        return POSTERIOR.logdensity(theta) - 0.5 * jnp.linalg.slogdet(POSTERIOR.fisher(theta))[1]

    grad, hessian = jax.jit(lambda th: (jax.grad(objective)(th), jax.hessian(objective)(th)))(
        HAUSDORFF_MAP
    )
    np.testing.assert_allclose(grad, 0.0, atol=1e-10)
    assert np.max(np.linalg.eigvalsh(hessian)) < 0


def test_rla_ef_on_banana_matches_rla_f_and_beats_ela():
    """Supp. 16.6: from the Hausdorff MAP, RLA-EF is as close to the posterior as RLA-F and far
    closer than ELA. Tolerances from the null spread ``sd`` of W1 between two reference sets of
    size N (K pairs): RLA-EF and RLA-F within ``4 sqrt(2) sd`` of each other, ELA more than
    ``mu + 4 sd sqrt(1 + 1/K)`` away and at least 4 times RLA-EF's W1 (the paper: ~10 times)."""
    pairs = [(_reference(2 * i, N), _reference(2 * i + 1, N)) for i in range(NULL_PAIRS)]
    null = np.array([_w1(a, b) for a, b in pairs])
    mu, sd = null.mean(), null.std(ddof=1)
    reference = _reference(100, N)
    key = jax.random.PRNGKey(1)
    w1 = {}
    methods = {"rla_ef": rla_ef, "rla_f": get_method("rla_f"), "ela": get_method("ela")}
    for name, method in methods.items():
        fit = method.fit(POSTERIOR, method.Config.from_mapping(CONFIG), jax.random.PRNGKey(0), mode=HAUSDORFF_MAP)
        assert fit.stats["method"] == name
        draws = fit.approximation.sample(key, N)
        assert summarise_draws(draws, evaluations_per_step=6)["n_failed"] == 0, name
        w1[name] = _w1(draws.theta, reference)
    assert abs(w1["rla_ef"] - w1["rla_f"]) < 4 * np.sqrt(2) * sd, (w1, mu, sd)
    assert w1["ela"] > mu + 4 * sd * np.sqrt(1 + 1 / NULL_PAIRS), (w1, mu, sd)
    assert w1["ela"] > 4 * w1["rla_ef"], w1


def test_fit_uses_the_empirical_fisher_metric():
    fit = rla_ef.fit(POSTERIOR, rla_ef.Config.from_mapping(CONFIG), jax.random.PRNGKey(0), mode=HAUSDORFF_MAP)
    assert rla_ef.NAME == "rla_ef"
    assert isinstance(fit.approximation.metric, EmpiricalFisher)
    assert fit.approximation.posterior is POSTERIOR


def test_closed_form_target_is_refused_with_its_name():
    with pytest.raises(TypeError, match="squiggle: the empirical Fisher metric needs"):
        rla_ef.fit(Squiggle("squiggle"), rla_ef.Config.from_mapping(CONFIG), jax.random.PRNGKey(0), mode=jnp.zeros(2))
