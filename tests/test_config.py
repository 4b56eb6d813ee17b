"""Tests of geobayes.config and src/geobayes/schemas/config.schema.yaml."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from geobayes.config import SCHEMA_PATH, ConfigError, deep_merge, load_config, load_schema

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {name: ROOT / "config" / f"{name}.yaml" for name in ("config", "quick", "tiny")}


def raw(name: str) -> dict:
    """The YAML of a shipped config, without validation or defaults."""
    return yaml.safe_load(CONFIGS[name].read_text())


def leaf_paths(tree: dict, prefix: str = "") -> set[str]:
    out: set[str] = set()
    for key, value in tree.items():
        path = f"{prefix}.{key}" if prefix else key
        out |= leaf_paths(value, path) if isinstance(value, dict) else {path}
    return out


def error_of(config: dict, **kwargs) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(config, **kwargs)
    return str(info.value)


# --- the shipped configs ------------------------------------------------------------


def test_schema_path_is_the_packaged_schema():
    assert SCHEMA_PATH == ROOT / "src" / "geobayes" / "schemas" / "config.schema.yaml"
    assert SCHEMA_PATH.is_file()
    assert not (ROOT / "workflow" / "schemas").exists()
    assert "schemas/*.yaml" in (ROOT / "pyproject.toml").read_text()


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_shipped_config_loads(name):
    cfg = load_config(CONFIGS[name])
    # RLA-BLog's log map takes seconds a sample on raw inputs: paper scale only for logreg.
    expected = ["ela", "rla_b", "rla_blog", "rla_f"] if name == "config" else ["ela", "rla_b", "rla_f"]
    assert cfg["experiments"]["logreg"]["methods"] == expected
    # Shipped configs are complete: validation adds nothing to them.
    assert cfg == raw(name)


@pytest.mark.parametrize("name", ["quick", "tiny"])
def test_small_configs_have_exactly_the_paper_keys(name):
    # snakemake merges --configfile over config/config.yaml, so a key missing from a
    # small config would silently keep its paper-scale value. A small config may add entries
    # to the maps keyed by names that exist only at its scale (a posterior's NUTS overrides, a
    # method's sample count), an experiment's own precision (quick: the CNN in float32; at paper
    # scale it follows approximation.dtype) and its own geodesic solver (tiny: the Gaussian's Bosh3,
    # with its evaluations a step): nothing of the paper config leaks through those.
    small, paper = leaf_paths(raw(name)), leaf_paths(raw("config"))
    assert paper <= small, sorted(paper - small)
    extra = sorted(p for p in small - paper
                   if not (p.startswith("reference.posterior_overrides.") or ".method_samples." in p
                           or ".posterior_method_samples." in p
                           or re.fullmatch(r"experiments\.\w+\.approximation\.(dtype|evaluations_per_step|ode\.solver)", p)))
    assert not extra, extra


def test_small_config_scales():
    quick, tiny = load_config(CONFIGS["quick"]), load_config(CONFIGS["tiny"])
    assert quick["experiments"]["logreg"]["datasets"] == ["ripley", "pima", "heart", "australian", "german"]
    assert quick["experiments"]["logreg"]["inputs"] == ["standardised", "raw"]
    assert {k: quick["reference"][k] for k in ("chains", "warmup", "samples", "thin")} == {
        "chains": 4, "warmup": 500, "samples": 1000, "thin": 1}
    assert quick["reference"]["checks"] == {
        "max_r_hat": 1.01, "min_ess_bulk": 400, "min_ess_tail": 400, "max_divergences": 0}
    assert (quick["map"]["restarts"], quick["approximation"]["repetitions"], quick["approximation"]["samples"]) == (5, 2, 500)
    assert tiny["experiments"]["logreg"]["datasets"] == ["ripley"]
    assert tiny["experiments"]["logreg"]["inputs"] == ["standardised"]
    assert {k: tiny["reference"][k] for k in ("chains", "warmup", "samples", "thin")} == {
        "chains": 2, "warmup": 300, "samples": 500, "thin": 1}
    assert tiny["reference"]["checks"]["max_r_hat"] == 1.05
    assert (tiny["reference"]["checks"]["min_ess_bulk"], tiny["reference"]["checks"]["min_ess_tail"]) == (100, 100)
    assert (tiny["map"]["restarts"], tiny["approximation"]["repetitions"], tiny["approximation"]["samples"]) == (3, 1, 200)
    assert quick["data"]["mirror"] == tiny["data"]["mirror"] == "../shared/data"


# --- error messages -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "dotted"),
    [
        ({"sampels": 3}, "sampels"),
        ({"approximation": {"sampels": 3}}, "approximation.sampels"),
        ({"approximation": {"ode": {"sovler": "dopri5"}}}, "approximation.ode.sovler"),
        ({"reference": {"checks": {"max_rhat": 1.1}}}, "reference.checks.max_rhat"),
        ({"experiments": {"logreg": {"posteriors": {"nmae": "x-logreg"}}}}, "experiments.logreg.posteriors.nmae"),
    ],
)
def test_unknown_key_is_named_in_dotted_form(overrides, dotted):
    message = error_of(raw("tiny"), overrides=overrides)
    assert f"unknown key '{dotted}'" in message
    assert "<dict> (after overrides)" in message


def test_unknown_key_names_the_file_and_suggests_the_spelling(tmp_path):
    cfg = raw("tiny")
    cfg["approximation"]["sampels"] = cfg["approximation"].pop("samples")
    path = tmp_path / "typo.yaml"
    path.write_text(yaml.safe_dump(cfg))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert str(path) in message
    assert "unknown key 'approximation.sampels' (did you mean 'samples'?)" in message
    assert "missing required key 'approximation.samples'" in message
    assert info.value.source == str(path)
    assert len(info.value.problems) == 2


@pytest.mark.parametrize(
    ("overrides", "dotted", "bad", "allowed"),
    [
        ({"device": "tpu"}, "device", "tpu", ["cpu", "gpu"]),
        ({"approximation": {"ode": {"solver": "rk4"}}}, "approximation.ode.solver", "rk4", ["dopri5", "tsit5", "bosh3"]),
        ({"experiments": {"logreg": {"datasets": ["ripley", "iris"]}}}, "experiments.logreg.datasets[1]", "iris",
         ["ripley", "pima", "heart", "australian", "german"]),
        ({"experiments": {"logreg": {"inputs": ["whitened"]}}}, "experiments.logreg.inputs[0]", "whitened",
         ["standardised", "raw"]),
        ({"experiments": {"logreg": {"methods": ["ela", "rla"]}}}, "experiments.logreg.methods[1]", "rla",
         ["ela", "rla_b", "rla_f"]),
    ],
)
def test_bad_enum_names_key_and_allowed_values(overrides, dotted, bad, allowed):
    message = error_of(raw("tiny"), overrides=overrides)
    line = next(line for line in message.splitlines() if dotted + ":" in line)
    assert repr(bad) in line
    for value in allowed:
        assert repr(value) in line


def test_negative_chain_count_names_the_key():
    message = error_of(raw("config"), overrides={"reference": {"chains": -1}})
    assert "reference.chains: -1 is less than the minimum of 1" in message


@pytest.mark.parametrize(
    ("overrides", "dotted"),
    [
        ({"reference": {"thin": 0}}, "reference.thin"),
        ({"reference": {"samples": 0}}, "reference.samples"),
        ({"reference": {"target_accept": 1.0}}, "reference.target_accept"),
        ({"reference": {"target_accept": 0}}, "reference.target_accept"),
        ({"reference": {"checks": {"max_r_hat": 1.0}}}, "reference.checks.max_r_hat"),
        ({"approximation": {"repetitions": 0}}, "approximation.repetitions"),
        ({"approximation": {"samples": 0}}, "approximation.samples"),
        ({"approximation": {"ode": {"max_steps": 0}}}, "approximation.ode.max_steps"),
        ({"approximation": {"ode": {"rtol": 0.0}}}, "approximation.ode.rtol"),
        ({"map": {"atol": -1.0e-8}}, "map.atol"),
        ({"map": {"restarts": 0}}, "map.restarts"),
        ({"reference": {"chains": 2.5}}, "reference.chains"),
        ({"reference": {"chains": True}}, "reference.chains"),
        ({"data": {"mirror": 3}}, "data.mirror"),
        ({"experiments": {"logreg": {"datasets": []}}}, "experiments.logreg.datasets"),
        ({"experiments": {"logreg": {"datasets": ["ripley", "ripley"]}}}, "experiments.logreg.datasets"),
    ],
)
def test_out_of_range_values_name_the_key(overrides, dotted):
    message = error_of(raw("tiny"), overrides=overrides)
    assert f"\n  - {dotted}: " in message


def test_exponent_without_dot_gets_a_yaml_hint(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text(CONFIGS["tiny"].read_text().replace("rtol: 1.0e-3", "rtol: 1e-3"))
    with pytest.raises(ConfigError, match=r"approximation\.ode\.rtol: '1e-3' is not of type 'number'.*1\.0e-6"):
        load_config(path)


@pytest.mark.parametrize(("value", "word"), [("false", "False"), ("true", "True")])
def test_a_lower_case_boolean_from_the_command_line_gets_the_spelling_that_works(value, word):
    # snakemake --config warm_start=false passes the string 'false' (it parses only True/False)
    message = error_of(raw("tiny"), overrides={"warm_start": value})
    assert f"warm_start: '{value}' is not of type 'boolean'" in message
    assert f"write warm_start={word}" in message


def test_every_problem_is_reported():
    message = error_of(raw("tiny"), overrides={"device": "tpu", "reference": {"chains": 0}, "extra": 1})
    for fragment in ("3 problems", "device:", "reference.chains:", "unknown key 'extra'"):
        assert fragment in message


def test_file_problems_name_the_file(tmp_path):
    missing = tmp_path / "missing.yaml"
    with pytest.raises(ConfigError, match="missing.yaml"):
        load_config(missing)
    duplicate = tmp_path / "duplicate.yaml"
    text = CONFIGS["tiny"].read_text()
    first = text.splitlines().index("seed: 1") + 1
    duplicate.write_text(text + "\nseed: 2\n")
    with pytest.raises(ConfigError, match=rf"(?s)duplicate\.yaml.*duplicate key 'seed' \(first on line {first}\)"):
        load_config(duplicate)
    listing = tmp_path / "list.yaml"
    listing.write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match=r"(?s)list\.yaml.*expected a mapping"):
        load_config(listing)


def test_missing_schema_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="schema file not found"):
        load_config(raw("tiny"), schema_path=tmp_path / "nope.yaml")


def test_an_edited_schema_is_checked_again_and_a_copy_is_returned(tmp_path):
    """load_schema checks a file once per version: an edit (new size) is read and checked again,
    an invalid edit is still an error naming the file, and callers get copies they may change."""
    path = tmp_path / "schema.yaml"
    path.write_text("type: object\n")
    first = load_schema(path)
    first["type"] = "mutated"
    assert load_schema(path) == {"type": "object"}
    path.write_text("type: object\nproperties: {seed: {type: integer}}\n")
    assert load_schema(path)["properties"] == {"seed": {"type": "integer"}}
    path.write_text("type: 12345\n")
    with pytest.raises(ConfigError, match="not a valid JSON schema") as error:
        load_schema(path)
    assert str(path) in str(error.value)


# --- defaults, overrides, merging ----------------------------------------------------


def test_defaults_are_filled_for_omitted_optional_keys():
    schema = load_schema()
    cfg = raw("tiny")
    for key in ("seed", "device", "data", "map", "evaluation"):
        del cfg[key]
    del cfg["reference"]["checks"]
    del cfg["reference"]["target_accept"]
    del cfg["approximation"]["ode"]["solver"]
    before = copy.deepcopy(cfg)
    filled = load_config(cfg)
    assert cfg == before, "load_config must not modify its argument"
    props = schema["properties"]
    assert filled["seed"] == props["seed"]["default"] == 1
    assert filled["device"] == "cpu"
    assert filled["data"] == {"mirror": None, "timeout_s": 60}
    assert filled["map"] == {"restarts": 20, "max_steps": 10000, "rtol": 1.0e-10, "atol": 1.0e-10}
    assert filled["reference"]["checks"] == {
        "max_r_hat": 1.01, "min_ess_bulk": 400, "min_ess_tail": 400, "max_divergences": 0}
    assert filled["reference"]["target_accept"] == 0.8
    assert filled["approximation"]["ode"]["solver"] == "dopri5"
    assert filled["evaluation"] == {"max_reference_draws": None, "wasserstein": {"num_iter_max": 10_000_000_000}}
    # The defaults are the paper-scale values of config/config.yaml.
    paper = raw("config")
    assert filled["map"] == paper["map"] and filled["reference"]["checks"] == paper["reference"]["checks"]
    # Two loads never share a mutable default.
    again = load_config(cfg)
    again["data"]["mirror"] = "elsewhere"
    assert load_config(cfg)["data"]["mirror"] is None


def test_required_scale_keys_have_no_default():
    cfg = raw("tiny")
    del cfg["reference"]["chains"]
    assert "missing required key 'reference.chains'" in error_of(cfg)


def test_overrides_are_deep_merged():
    cfg = load_config(CONFIGS["tiny"], {"reference": {"chains": 4}, "experiments": {"logreg": {"methods": ["ela"]}}})
    assert cfg["reference"]["chains"] == 4
    assert cfg["reference"]["warmup"] == 300
    assert cfg["experiments"]["logreg"]["methods"] == ["ela"]
    assert cfg["experiments"]["logreg"]["datasets"] == ["ripley"]


def test_deep_merge():
    a = {"x": {"y": 1, "z": [1, 2]}, "k": 1}
    b = {"x": {"z": [3]}, "n": {"m": 2}}
    merged = deep_merge(a, b)
    assert merged == {"x": {"y": 1, "z": [3]}, "k": 1, "n": {"m": 2}}
    assert a == {"x": {"y": 1, "z": [1, 2]}, "k": 1} and b == {"x": {"z": [3]}, "n": {"m": 2}}
    merged["n"]["m"] = 5
    assert b["n"]["m"] == 2
    assert deep_merge(a, {"x": 3}) == {"x": 3, "k": 1}


# --- the schema itself and snakemake --------------------------------------------------


def _resolved(schema: dict, root: dict) -> dict:
    """``schema`` with a local ``$ref`` (``#/$defs/...``) merged in; its own keys win."""
    if "$ref" not in schema:
        return schema
    target = root
    for part in schema["$ref"].removeprefix("#/").split("/"):
        target = target[part]
    return {**_resolved(target, root), **{k: v for k, v in schema.items() if k != "$ref"}}


def _object_schemas(schema: dict, path: str = "<root>", root: dict | None = None):
    root = schema if root is None else root
    schema = _resolved(schema, root)
    if schema.get("type") == "object":
        yield path, schema
    for name, sub in schema.get("properties", {}).items():
        yield from _object_schemas(sub, f"{path}.{name}", root)
    if isinstance(schema.get("items"), dict):
        yield from _object_schemas(schema["items"], f"{path}[]", root)


def test_schema_is_strict_and_documented():
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    objects = dict(_object_schemas(schema))
    assert len(objects) >= 10
    for name, definition in schema["$defs"].items():  # every definition is used
        assert f'"#/$defs/{name}' in SCHEMA_PATH.read_text(), name
    for path, sub in objects.items():
        if "propertyNames" in sub:
            # a map keyed by validated names: its values are strict objects (posterior_overrides),
            # typed arrays (squiggle variances), typed numbers (method_samples) or maps of typed
            # numbers keyed by validated names (posterior_method_samples)
            values = sub["additionalProperties"]
            assert (values.get("additionalProperties") is False or values.get("type") in ("array", "integer")
                    or ("propertyNames" in values and values["additionalProperties"].get("type") == "integer")), path
            continue
        assert sub.get("additionalProperties") is False, path
        # An override block ("Overrides of ...") is partial by nature: what it leaves out keeps
        # the value of the block it overrides.
        partial = sub.get("description", "").startswith("Overrides")
        for name, prop in sub["properties"].items():
            prop = _resolved(prop, schema)
            if "items" in prop:
                prop = {**prop, "items": _resolved(prop["items"], schema)}
            assert prop.get("description") or prop.get("items", {}).get("description"), f"{path}.{name} has no description"
            if partial:
                continue
            if "default" in prop:
                Draft202012Validator(prop).validate(prop["default"])  # the default obeys its own schema
            else:
                assert name in sub.get("required", []), f"{path}.{name}: neither required nor defaulted"


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_snakemake_validate_accepts_the_shipped_configs(name):
    from snakemake.utils import validate

    cfg = raw(name)
    validate(cfg, str(SCHEMA_PATH))
    assert cfg == load_config(CONFIGS[name])


def test_snakemake_validate_fills_the_same_defaults():
    from snakemake.utils import validate

    cfg = raw("tiny")
    for key in ("device", "data", "map", "evaluation"):
        del cfg[key]
    del cfg["reference"]["checks"]
    del cfg["approximation"]["ode"]
    ours = load_config(cfg)
    validate(cfg, str(SCHEMA_PATH))
    assert cfg == ours


def test_snakemake_validate_rejects_an_unknown_key():
    from snakemake.exceptions import WorkflowError
    from snakemake.utils import validate

    cfg = raw("tiny")
    cfg["approximation"]["sampels"] = 3
    with pytest.raises(WorkflowError, match="sampels"):
        validate(cfg, str(SCHEMA_PATH))


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ({"heart_raw-logreg": {"target_acept": 0.9}}, "reference.posterior_overrides.heart_raw-logreg.target_acept"),
        ({"Heart Raw": {"target_accept": 0.9}}, "'Heart Raw' does not match"),
        ({"heart_raw-logreg": {"target_accept": 1.5}}, "reference.posterior_overrides.heart_raw-logreg.target_accept: 1.5"),
    ],
)
def test_bad_posterior_override_names_the_key(override, expected):
    with pytest.raises(ConfigError, match=re.escape(expected)):
        load_config(CONFIGS["config"], {"reference": {"posterior_overrides": override}})


def test_posterior_override_is_kept():
    cfg = load_config(CONFIGS["config"])
    assert cfg["reference"]["posterior_overrides"]["australian_raw-logreg"] == {"target_accept": 0.99}
    assert cfg["reference"]["dense_mass"] is False


def test_an_experiments_dtype_is_checked_and_kept():
    # quick scale runs Bergamin et al.'s CNN in float32, as their torch code did
    assert load_config(CONFIGS["quick"])["experiments"]["bergamin_mnist"]["approximation"]["dtype"] == "float32"
    with pytest.raises(ConfigError, match=re.escape("experiments.bergamin_mnist.approximation.dtype: 'float16' is not "
                                                    "one of the allowed values: 'float64', 'float32'")):
        load_config(CONFIGS["config"], {"experiments": {"bergamin_mnist": {"approximation": {"dtype": "float16"}}}})


@pytest.mark.parametrize(
    ("method_samples", "expected"),
    [
        ({"rla_blgo": 5}, "'rla_blgo' is not one of"),
        ({"rla_blog": 0}, "experiments.bnn_yu.approximation.method_samples.rla_blog: 0 is less than the minimum of 1"),
        ({"rla_blog": 2.5}, "experiments.bnn_yu.approximation.method_samples.rla_blog: 2.5 is not of type 'integer'"),
    ],
)
def test_bad_method_samples_names_the_key(method_samples, expected):
    override = {"experiments": {"bnn_yu": {"approximation": {"method_samples": method_samples}}}}
    with pytest.raises(ConfigError, match=re.escape(expected)):
        load_config(CONFIGS["config"], override)
    assert load_config(CONFIGS["config"], {"experiments": {"bnn_yu": {"approximation": {"method_samples": {
        "rla_blog": 5}}}}})["experiments"]["bnn_yu"]["approximation"]["method_samples"] == {"rla_blog": 5}


# --- one source for the names: the schema's $defs and the library's registries --------


def test_schema_name_lists_are_the_library_registries():
    """Adding a method = its module + one REGISTRY entry + this $defs list (checked here)."""
    import dataclasses

    from geobayes.methods import GENERAL_METHOD_NAMES, METHOD_NAMES, REGISTRY
    from geobayes.metrics import DISTANCES
    from geobayes.optimize import ANCHORS

    defs = load_schema()["$defs"]
    assert defs["method"]["enum"] == list(GENERAL_METHOD_NAMES)
    widened = [name for option in defs["network_method"]["anyOf"] for name in option.get("enum", [])]
    assert widened == [entry.name for entry in REGISTRY if entry.networks_only]
    assert defs["method"]["enum"] + widened == list(METHOD_NAMES)
    assert defs["anchor"]["enum"] == list(ANCHORS)
    assert defs["distance"]["enum"] == list(DISTANCES)
    # The names are written once: no other list of them is left in the schema.
    text = SCHEMA_PATH.read_text()
    assert text.count("enum: [map, ela,") == 1 and text.count("lin_ela") == 1
    assert text.count("enum: [euclidean, hausdorff]") == 1 and text.count("enum: [full, first_coordinate, w2]") == 1

    # The `approximation` keys the schema allows are the ones the methods' typed configs read.
    from geobayes.methods.config import approximation_keys

    properties = defs["experiment_approximation"]["properties"].keys() | load_schema()["properties"][
        "approximation"]["properties"].keys()
    assert properties | {"precision"} == approximation_keys()
    from geobayes.batching import Schedule
    from geobayes.geometry.approximate_exponential_map import ExpMapSettings
    from geobayes.geometry.exponential_map import OdeSettings
    from geobayes.geometry.logarithmic_map import LogMapSettings

    blocks = load_schema()["properties"]["approximation"]["properties"]
    blocks = {key: defs[value["$ref"].rsplit("/", 1)[-1]] if "$ref" in value else value for key, value in blocks.items()}
    for block, settings in {"ode": OdeSettings, "log_map": LogMapSettings, "wrapped_gaussian": ExpMapSettings,
                            "schedule": Schedule}.items():
        fields = {f.name for f in dataclasses.fields(settings)}
        assert set(blocks[block]["properties"]) <= fields, (block, set(blocks[block]["properties"]) - fields)
        assert set(defs["experiment_approximation"]["properties"].get(block, {}).get("properties", {})) <= fields
        if block != "log_map":  # the schema leaves the continuation's fine print to the defaults
            assert set(blocks[block]["properties"]) == fields


@pytest.mark.parametrize("override, where, allowed", [
    ({"experiments": {"logreg": {"methods": ["lin_ela"]}}}, "experiments.logreg.methods[0]", "'ela', 'rla_b'"),
    ({"experiments": {"bnn_yu": {"methods": ["lin_elaa"]}}}, "experiments.bnn_yu.methods[0]", "'rsvgd', 'lin_ela'"),
    ({"experiments": {"bnn_yu": {"approximation": {"method_samples": {"rla_bb": 3}}}}},
     "experiments.bnn_yu.approximation.method_samples", "'lin_rla_b_batched'"),
    ({"experiments": {"glm": {"anchors": ["hausdorf"]}}}, "experiments.glm.anchors[0]", "'euclidean', 'hausdorff'"),
    ({"experiments": {"glm": {"wasserstein": ["w3"]}}}, "experiments.glm.wasserstein[0]", "'full', 'first_coordinate'"),
])
def test_names_from_defs_are_checked_with_the_allowed_list(override, where, allowed):
    message = error_of(deep_merge(raw("tiny"), override))
    assert f"{where}: " in message and "is not one of the allowed values" in message and allowed in message


def test_sgrld_sampler_settings_in_the_schema_are_the_preconditioners_fields():
    """``$defs/sgrld_samplers`` names every preconditioner of :mod:`geobayes.sgmcmc` and exactly
    the union of their settings (plus the step size), so a config typo stops the DAG at parse time."""
    import dataclasses

    from geobayes.sgmcmc.registry import PRECONDITIONERS

    definition = load_schema()["$defs"]["sgrld_samplers"]
    assert set(definition["propertyNames"]["enum"]) == set(PRECONDITIONERS)
    fields = {f.name for cls in PRECONDITIONERS.values() for f in dataclasses.fields(cls)}
    assert set(definition["additionalProperties"]["properties"]) == fields | {"learning_rate"}


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ({"Mnist Fixed": {"rla_b_batched": 1}}, "'Mnist Fixed' does not match"),
        ({"mnist_fixed_seed0-cnn": {"rla_bb": 1}}, "'rla_bb' is not one of"),
        ({"mnist_fixed_seed0-cnn": {"rla_b_batched": 0}},
         "experiments.bergamin_mnist.approximation.posterior_method_samples.mnist_fixed_seed0-cnn.rla_b_batched: 0 is "
         "less than the minimum of 1"),
    ],
)
def test_bad_posterior_method_samples_names_the_key(override, expected):
    settings = {"experiments": {"bergamin_mnist": {"approximation": {"posterior_method_samples": override}}}}
    with pytest.raises(ConfigError, match=re.escape(expected)):
        load_config(CONFIGS["config"], settings)
