"""The methods' typed settings: built once from the ``approximation`` slice, bad keys named."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.batching import Schedule
from geobayes.config import load_config
from geobayes.dataset import Dataset
from geobayes.geometry.approximate_exponential_map import ExpMapSettings, LeastSquaresSolver
from geobayes.geometry.exponential_map import OdeSettings, OdeSolver
from geobayes.geometry.logarithmic_map import LogMapSettings
from geobayes.methods import GENERAL_METHOD_NAMES, METHOD_NAMES, evaluations_per_step, get_method, method_config
from geobayes.methods.labels import METHOD_LABELS, method_label
from geobayes.methods.config import PIPELINE_KEYS, MethodConfig, approximation_keys
from geobayes.methods.tangent_gaussian import Precision
from geobayes.models import GaussianPrior, LogisticRegression
from geobayes.posterior import Posterior
from geobayes.settings import SettingsError

ROOT = Path(__file__).resolve().parents[2]


def _posterior():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=(30, 2)), np.ones(30)])
    y = (rng.uniform(size=30) < 0.5).astype(float)
    return Posterior("toy-logreg", LogisticRegression(prior=GaussianPrior(10.0)), Dataset(X, y))


@pytest.mark.parametrize("name", METHOD_NAMES)
def test_every_method_declares_a_typed_config(name):
    config_cls = get_method(name).Config
    assert issubclass(config_cls, MethodConfig)
    assert dataclasses.is_dataclass(config_cls) and config_cls.__dataclass_params__.frozen
    config = method_config(name, {"precision": "fisher", "minibatch": {"size": 2}, "samples": 10,
                                  "repetitions": 2, "evaluations_per_step": 6, "method_samples": {"wg": 3}})
    assert isinstance(config, config_cls) and config.precision is Precision.FISHER
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.precision = Precision.HESSIAN


@pytest.mark.parametrize(("name", "mapping", "message"), [
    ("ela", {"precison": "fisher"}, "approximation.precison: unknown key; did you mean 'precision'?"),
    ("rla_b", {"ode": {"max_steps": 4096.7}},
     "approximation.ode.max_steps: expected an integer, got 4096.7 (not integral; it would be truncated)"),
    ("rla_f", {"ode": {"rtol": "tight"}}, "approximation.ode.rtol: expected a number, got 'tight'"),
    ("rla_f", {"ode": {"solver": "rk4"}}, "approximation.ode.solver: 'rk4' is not one of 'dopri5', 'tsit5', 'bosh3'"),
    ("rla_b", {"ode": {"sovler": "dopri5"}}, "approximation.ode.sovler: unknown key; did you mean 'solver'?"),
    ("rla_blog", {"log_map": {"max_step": 3}}, "approximation.log_map.max_step: unknown key; did you mean 'max_steps'?"),
    ("rla_blog", {"log_map": {"batch_size": 1.5}}, "approximation.log_map.batch_size: expected an integer, got 1.5"),
    ("wg", {"wrapped_gaussian": {"solver": "gauss_newton"}},
     "approximation.wrapped_gaussian.solver: 'gauss_newton' is not one of 'auto', 'levenberg_marquardt', "
     "'levenberg_marquardt_lsmr', 'newton', 'fixed_point', 'broyden', 'bfgs'"),
    ("wg", {"schedule": {"sort_by_difficulty": "yes"}}, "approximation.schedule.sort_by_difficulty: expected true or false"),
    ("rla_b_batched", {"minibatch": {"size": 20.5}}, "approximation.minibatch.size: expected an integer, got 20.5"),
    ("ela", {"precision": "ggn"}, "approximation.precision: 'ggn' is not one of 'hessian', 'fisher'"),
    ("rla_b", {"schedule": []}, "approximation.schedule: expected a mapping, got []"),
])
def test_bad_settings_are_one_line_naming_the_key(name, mapping, message):
    with pytest.raises(SettingsError) as info:
        method_config(name, mapping)
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)


def test_another_path_names_its_own_slice():
    with pytest.raises(SettingsError, match=re.escape("bnn_classifier.wrapped_gaussian.max_steps: expected an integer")):
        method_config("wg", {"wrapped_gaussian": {"max_steps": 10.5}}, path="bnn_classifier")


def test_keys_of_other_methods_and_of_the_pipeline_are_accepted_by_each():
    """The `approximation` slice is shared: RLA-B ignores RLA-BLog's `log_map`, ELA the ODE."""
    assert approximation_keys() >= PIPELINE_KEYS | {"ode", "log_map", "wrapped_gaussian", "schedule", "minibatch"}
    assert method_config("ela", {"ode": {"max_steps": 3}, "log_map": {}, "samples": 5}) == method_config("ela")
    assert method_config("rla_b", {"log_map": {"max_steps": 3}}) == method_config("rla_b")


def test_defaults_are_the_values_used_before():
    """Absent keys keep the defaults the methods used when a dict lacked them (same numbers)."""
    assert method_config("ela").precision is Precision.HESSIAN
    geodesic = method_config("rla_b")
    assert (geodesic.ode, geodesic.schedule) == (OdeSettings(), Schedule())
    assert (geodesic.ode.solver, geodesic.ode.rtol, geodesic.ode.atol, geodesic.ode.max_steps) == (
        OdeSolver.DOPRI5, 1e-3, 1e-6, 4096)
    assert method_config("rla_blog").log_map == LogMapSettings()
    assert method_config("wg").wrapped_gaussian == ExpMapSettings()
    assert method_config("rla_b_batched").minibatch is None


@pytest.mark.parametrize("config_name", ["config", "quick", "tiny"])
def test_shipped_configs_build_every_method(config_name):
    """Each method's settings from each shipped config, as approximate.py builds them, with
    the values of the config (no key lost or converted)."""
    cfg = load_config(ROOT / "config" / f"{config_name}.yaml")
    approximation = cfg["approximation"]
    for name in METHOD_NAMES:
        config = method_config(name, {**approximation, "precision": "hessian", "minibatch": {"size": 10}})
        if hasattr(config, "ode"):
            ode = approximation["ode"]
            assert config.ode == OdeSettings(ode["solver"], ode["rtol"], ode["atol"], ode["max_steps"])
        if hasattr(config, "log_map"):
            assert all(getattr(config.log_map, k) == v for k, v in approximation["log_map"].items())
        if hasattr(config, "wrapped_gaussian"):
            wg = approximation["wrapped_gaussian"]
            assert config.wrapped_gaussian == ExpMapSettings(**wg)
            assert isinstance(config.wrapped_gaussian.solver, LeastSquaresSolver)
    for experiment, options in cfg["experiments"].items():
        overrides = {k: v for k, v in options.get("approximation", {}).items() if k != "method_samples"}
        for name in options.get("methods", ()):
            method_config(name, {**approximation, **overrides, "precision": "fisher"})


def test_fit_builds_a_mapping_as_strictly_and_to_the_same_draws():
    posterior, key = _posterior(), jax.random.PRNGKey(0)
    mode = jnp.zeros(posterior.dim)
    typed = get_method("rla_b").fit(posterior, method_config("rla_b", {"ode": {"rtol": 1e-4}}), key, mode=mode)
    mapped = get_method("rla_b").fit(posterior, {"ode": {"rtol": 1e-4}}, key, mode=mode)
    for a, b in zip(typed.approximation.sample(key, 4), mapped.approximation.sample(key, 4)):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(SettingsError, match="approximation.precison: unknown key"):
        get_method("rla_b").fit(posterior, {"precison": "fisher"}, key, mode=mode)
    with pytest.raises(TypeError, match=r"ela\.fit: expected a LaplaceConfig, got list"):
        get_method("ela").fit(posterior, [], key, mode=mode)


def test_every_registered_method_has_a_label():
    """A new registry entry without a label fails here (the fallback would upper-case its name)."""
    assert set(METHOD_NAMES) <= set(METHOD_LABELS)
    assert set(GENERAL_METHOD_NAMES) < set(METHOD_NAMES)
    assert [method_label(n) for n in ("ela", "rla_b", "rla_blog", "rla_f", "rla_ef", "wg", "lin_ela", "nuts")] == [
        "ELA", "RLA-B", "RLA-BLog", "RLA-F", "RLA-EF", "WG", "lin-LA", "NUTS"]
    assert len(set(METHOD_LABELS.values())) == len(METHOD_LABELS)


def test_labels_are_not_code_the_approximation_jobs_depend_on():
    """Editing a label must not rerun every approximation: neither the package nor a method
    module imports ``labels.py`` (the DAG's ``library_closure`` walks imports statically)."""
    import ast

    methods = ROOT / "src" / "geobayes" / "methods"
    for path in methods.glob("*.py"):
        if path.name == "labels.py":
            continue
        imported = {node.module for node in ast.walk(ast.parse(path.read_text()))
                    if isinstance(node, ast.ImportFrom) and node.module}
        imported |= {f"{node.module}.{a.name}" for node in ast.walk(ast.parse(path.read_text()))
                     if isinstance(node, ast.ImportFrom) and node.module for a in node.names}
        assert "geobayes.methods.labels" not in imported, path.name


def _static_closure(module: str) -> set[str]:
    """geobayes modules ``module`` imports, transitively, by the DAG's rule (``library_closure``
    in workflow/rules/common.smk: every ``import`` / ``from ... import`` in the file)."""
    import ast

    src = ROOT / "src"
    seen, stack = set(), [module]
    while stack:
        name = stack.pop()
        path = next((p for p in (src / (name.replace(".", "/") + ".py"), src / name.replace(".", "/") / "__init__.py")
                     if p.is_file()), None)
        if path is None or name in seen:
            continue
        seen.add(name)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("geobayes"):
                stack += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                stack += [a.name for a in node.names if a.name.startswith("geobayes.")]
    return seen


def test_a_method_config_does_not_make_a_job_depend_on_other_methods_solvers():
    """Each Config sits beside its method, so ELA's jobs do not rerun when the ODE, log-map or
    least-squares code changes, nor RLA-B's when WG's or RLA-BLog's does."""
    ela, rla_b, wg = (_static_closure(f"geobayes.methods.{m}") for m in ("ela", "rla_b", "wg"))
    solvers = {"geobayes.geometry.exponential_map", "geobayes.geometry.logarithmic_map",
               "geobayes.geometry.approximate_exponential_map"}
    assert not ela & solvers
    assert rla_b & solvers == {"geobayes.geometry.exponential_map"}
    assert wg & solvers == {"geobayes.geometry.approximate_exponential_map"}
    assert not {f"geobayes.methods.{m}" for m in ("rla_blog", "wg", "rla_b")} & ela


@pytest.mark.parametrize(("name", "mapping", "configured", "expected"), [
    ("rla_b", {}, 6, 6),                                  # Dopri5: 6 new evaluations a step (SciPy's nfev)
    ("rla_f", {"ode": {"solver": "tsit5"}}, 6, 6),
    ("rla_b", {"ode": {"solver": "bosh3"}}, 3, 3),        # Bogacki-Shampine: 3
    ("wg", {}, 6, 1),                                     # the method's own count wins
    ("ela", {}, 6, 6),                                    # no solver: the configured count
])
def test_evaluations_per_step_follow_the_method_and_its_solver(name, mapping, configured, expected):
    assert evaluations_per_step(get_method(name), method_config(name, mapping), configured) == expected


def test_evaluations_per_step_that_disagree_with_the_solver_are_one_line_naming_both_keys():
    config = method_config("rla_b", {"ode": {"solver": "bosh3"}})
    with pytest.raises(ValueError) as error:
        evaluations_per_step(get_method("rla_b"), config, 6)
    message = str(error.value)
    assert "\n" not in message
    assert "approximation.evaluations_per_step is 6" in message and "approximation.ode.solver bosh3" in message
    assert OdeSolver.BOSH3.evaluations_per_step == 3 and OdeSolver.DOPRI5.evaluations_per_step == 6
