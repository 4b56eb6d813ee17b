"""Exact W1 with POT (Yu et al. 2024, Supp. 15.6) against known answers."""

import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.stats

from geobayes.metrics import WassersteinNotConvergedError, wasserstein1, wasserstein1_1d

BIG = 1e10  # the paper's numItermax


def test_translation_distance_is_norm_of_shift():
    # Claim: W1(mu, mu(. - c)) = ||c|| for the empirical measure mu of x and its
    # translate (points x_i + c).
    # Lower bound: for any coupling gamma of the two measures, by Jensen's inequality
    # (the norm is convex) sum gamma_ij ||y_j - x_i|| >= ||sum gamma_ij (y_j - x_i)||
    # = ||mean(y) - mean(x)|| = ||c||, because the marginals of gamma are the uniform
    # weights. Upper bound: the identity coupling x_i -> x_i + c is feasible and costs
    # exactly (1/n) sum ||c|| = ||c||. Hence W1 = ||c||, whatever the point cloud.
    rng = np.random.default_rng(0)
    x = rng.standard_t(df=3, size=(250, 3))
    c = np.array([0.3, -1.2, 2.0])
    assert wasserstein1(x, x + c, num_iter_max=BIG) == pytest.approx(np.linalg.norm(c), rel=1e-12, abs=1e-12)
    # ot.dist(metric="euclidean") forms ||x||^2 + ||y||^2 - 2 x.y before the square root,
    # so a zero distance comes out as sqrt(rounding) ~ 1e-8 * ||x||: the precision floor.
    assert wasserstein1(x, x, num_iter_max=BIG) == pytest.approx(0.0, abs=1e-7)


def test_one_dimensional_case_matches_scipy():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=200), rng.gamma(2.0, size=300)
    expected = scipy.stats.wasserstein_distance(x, y)
    assert wasserstein1(x[:, None], y[:, None], num_iter_max=BIG) == pytest.approx(expected, rel=1e-10)
    assert wasserstein1_1d(x, y) == pytest.approx(expected, rel=1e-10)


def test_iteration_limit_raises_naming_code_and_limit():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=(300, 2)), rng.normal(size=(300, 2)) + 1.0
    with pytest.raises(WassersteinNotConvergedError, match=r"result code 3.*num_iter_max=1\b"):
        wasserstein1(x, y, num_iter_max=1)


@pytest.mark.parametrize(
    "x, y, kwargs, match",
    [
        (np.zeros((5, 2)), np.zeros((5, 3)), {}, "same dimension"),
        (np.zeros(5), np.zeros((5, 1)), {}, "2-D"),
        (np.array([[np.nan, 0.0]]), np.zeros((1, 2)), {}, "non-finite"),
        (np.zeros((5, 2)), np.zeros((0, 2)), {}, "at least one sample"),
        (np.zeros((5, 2)), np.zeros((5, 2)), {"num_iter_max": 0}, "num_iter_max"),
        (np.zeros((5, 2)), np.zeros((5, 2)), {"num_iter_max": 2.5}, "num_iter_max"),
    ],
)
def test_bad_inputs_raise(x, y, kwargs, match):
    with pytest.raises(ValueError, match=match):
        wasserstein1(x, y, **{"num_iter_max": BIG, **kwargs})


def test_1d_rejects_2d_and_nonfinite():
    with pytest.raises(ValueError, match="1-D"):
        wasserstein1_1d(np.zeros((5, 2)), np.zeros(5))
    with pytest.raises(ValueError, match="non-finite"):
        wasserstein1_1d(np.array([np.inf]), np.zeros(5))


def _modules_after(code: str, env: dict | None = None) -> set[str]:
    """Top-level modules loaded by ``code`` in a fresh interpreter (the DAG's jobs are fresh)."""
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    run_env = {k: v for k, v in os.environ.items() if not k.startswith("POT_BACKEND_DISABLE_")}
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            env={**run_env, **(env or {})})
    return set(result.stdout.split())


def test_distances_do_not_import_the_torch_or_jax_backends_of_pot():
    # torch (installed for the laplace-torch peer) and JAX cost seconds per evaluation job to import.
    code = ("import numpy as np\nfrom geobayes.metrics import wasserstein1, wasserstein1_1d\n"
            "x = np.arange(6.0).reshape(3, 2)\nwasserstein1(x, x + 1.0, num_iter_max=1e6)\nwasserstein1_1d(x[:, 0], x[:, 1])")
    loaded = _modules_after(code)
    assert "ot" in loaded and "torch" not in loaded and "jax" not in loaded
    # scikit-learn (imported by ot.lowrank when it can) is hidden while POT loads ...
    assert "sklearn" not in loaded


def test_scikit_learn_stays_importable_after_the_distances():
    # ... and only then: the Snelson split uses it in the same process.
    code = ("import numpy as np\nfrom geobayes.metrics import wasserstein2\n"
            "wasserstein2(np.zeros((2, 1)), np.ones((2, 1)), num_iter_max=1e6)\nimport sklearn.model_selection")
    assert {"ot", "sklearn"} <= _modules_after(code)


def test_a_caller_choice_of_pot_backends_is_kept():
    code = "import numpy as np\nfrom geobayes.metrics import wasserstein1\nwasserstein1(np.zeros((2, 1)), np.ones((2, 1)), num_iter_max=1e6)"
    assert "torch" in _modules_after(code, env={"POT_BACKEND_DISABLE_PYTORCH": ""})
