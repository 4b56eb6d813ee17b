"""Load, merge and validate the pipeline configuration.

The JSON schema ``geobayes/schemas/config.schema.yaml`` (package data) is the single source of truth:
the Snakefile validates with ``snakemake.utils.validate(config, schema)`` and library
code or tests with :func:`load_config`. Both fill the ``default`` of every omitted
optional key, so they see the same dictionary.
"""

from __future__ import annotations

import copy
import difflib
import functools
import re
from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

__all__ = ["SCHEMA_PATH", "ConfigError", "deep_merge", "load_config", "load_schema", "validate_config"]

#: The schema, shipped as package data: ``geobayes/schemas/config.schema.yaml``.
SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "config.schema.yaml"

_NUMBER_LIKE = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


class ConfigError(ValueError):
    """An invalid configuration.

    The message names the source (file or ``<dict>``) and, for every problem, the
    offending key as a dotted path (``reference.chains``; list items as
    ``experiments.logreg.datasets[2]``).

    Attributes
    ----------
    source : str
        The configuration file, or ``"<dict>"`` for an in-memory configuration.
    problems : list of str
        One line per problem, each starting with the dotted key path.
    """

    def __init__(self, source: str, problems: list[str], *, note: str = "") -> None:
        self.source = source
        self.problems = list(problems)
        count = len(self.problems)
        head = f"invalid configuration in {source}{note}: {count} problem{'s' if count != 1 else ''}"
        super().__init__(head + "".join(f"\n  - {p}" for p in self.problems))


def deep_merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Recursively merge two mappings; ``b`` wins.

    Nested mappings are merged key by key; any other value of ``b`` (lists included)
    replaces the value of ``a``. Neither argument is modified.

    Parameters
    ----------
    a : Mapping
        Base mapping.
    b : Mapping
        Overrides.

    Returns
    -------
    dict
        A new dictionary (deep copies of the values of ``a`` and ``b``).

    Examples
    --------
    >>> deep_merge({"x": {"y": 1, "z": 2}, "l": [1, 2]}, {"x": {"y": 3}, "l": [5]})
    {'x': {'y': 3, 'z': 2}, 'l': [5]}
    """
    merged = copy.deepcopy(dict(a))
    for key, value in b.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


class _UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """Safe YAML loader that rejects duplicate keys (PyYAML keeps the last silently); libyaml's
    parser where PyYAML has it (the schema reads in 0.03 s instead of 0.28 s at every Snakemake start)."""


def _construct_unique_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False):
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {seen[key] + 1})", key_node.start_mark
            )
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)


def _read_yaml(path: Path, what: str) -> Any:
    try:
        with path.open(encoding="utf-8") as stream:  # a named stream: YAML errors cite the file
            return yaml.load(stream, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except OSError as err:
        raise ConfigError(str(path), [f"cannot read the {what}: {err.strerror or err}"]) from err
    except yaml.YAMLError as err:
        raise ConfigError(str(path), [f"not valid YAML: {err}"]) from err


def load_schema(schema_path: str | PathLike[str] | None = None) -> dict[str, Any]:
    """Read the configuration schema.

    Parameters
    ----------
    schema_path : path-like, optional
        Schema file; default :data:`SCHEMA_PATH` (the packaged schema).

    Returns
    -------
    dict
        The schema, checked against the JSON Schema draft 2020-12 meta-schema.

    Raises
    ------
    ConfigError
        If the file is missing or is not a valid schema.
    """
    path = Path(schema_path) if schema_path is not None else SCHEMA_PATH
    if not path.is_file():
        raise ConfigError(
            str(path),
            ["schema file not found (the packaged schema is geobayes/schemas/config.schema.yaml)"],
        )
    stat = path.stat()
    return copy.deepcopy(_checked_schema(path, path.resolve(), stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=8)
def _checked_schema(path: Path, resolved: Path, mtime_ns: int, size: int) -> dict[str, Any]:
    """The schema at ``path`` checked against the meta-schema, once per file version and process.

    The meta-schema check costs ~0.6 s, most of a config load; a process that loads several
    configs (the tests, a report) pays it once. Keyed by the file (``resolved``), its modification
    time and size, so an edited schema is read and checked again; errors name ``path`` as given.
    """
    schema = _read_yaml(path, "schema")
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as err:  # jsonschema.SchemaError
        raise ConfigError(str(path), [f"not a valid JSON schema: {getattr(err, 'message', err)}"]) from err
    return schema


def _extend_with_default(validator_class: type) -> type:
    """Validator that fills ``default`` values of omitted properties while validating.

    Same behaviour as ``snakemake.utils.validate(..., set_default=True)`` (the recipe of
    the jsonschema FAQ), except that defaults are deep-copied so that two configurations
    never share a mutable default.
    """
    validate_properties = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema) -> Iterable[ValidationError]:
        if validator.is_type(instance, "object"):
            for name, subschema in properties.items():
                if "default" in subschema and name not in instance:
                    instance[name] = copy.deepcopy(subschema["default"])
        yield from validate_properties(validator, properties, instance, schema)

    return validators.extend(validator_class, {"properties": set_defaults})


_DefaultFillingValidator = _extend_with_default(Draft202012Validator)


def _dotted(path: Iterable[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _describe(error: ValidationError) -> list[str]:
    """Turn one jsonschema error into messages that start with the dotted key path."""
    where = _dotted(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        allowed = sorted(error.schema.get("properties", {}))
        lines = []
        for key in error.instance:
            if key in allowed:
                continue
            hint = difflib.get_close_matches(str(key), allowed, n=1)
            lines.append(
                f"unknown key {_join(where, str(key))!r}"
                + (f" (did you mean {hint[0]!r}?)" if hint else "")
                + f"; allowed keys here: {', '.join(allowed)}"
            )
        return lines
    if error.validator == "required" and isinstance(error.instance, Mapping):
        missing = [k for k in error.validator_value if k not in error.instance]
        return [f"missing required key {_join(where, k)!r}" for k in missing]
    message = error.message
    # An `anyOf` of enums (a `$defs` name list widened by a second list) reads as one enum.
    enums = [error] if error.validator == "enum" else [
        e for e in (error.context or []) if e.validator == "enum"] if error.validator == "anyOf" else []
    if enums:
        allowed = ", ".join(repr(v) for e in enums for v in e.validator_value)
        message = f"{error.instance!r} is not one of the allowed values: {allowed}"
    elif (
        error.validator == "type"
        and isinstance(error.instance, str)
        and _NUMBER_LIKE.match(error.instance.strip())
    ):
        message += " (YAML 1.1 reads a number such as 1e-6 as a string: write 1.0e-6)"
    elif (
        error.validator == "type"
        and "boolean" in _as_list(error.validator_value)
        and isinstance(error.instance, str)
        and error.instance.strip().lower() in {"true", "false", "yes", "no", "on", "off"}
    ):
        word = "True" if error.instance.strip().lower() in {"true", "yes", "on"} else "False"
        message += f" (Snakemake's --config reads only True and False as booleans: write {where}={word})"
    return [f"{where or '<top level>'}: {message}"]


def _as_list(value: Any) -> list[Any]:
    """A schema's ``type`` as a list (it is a string or a list of strings)."""
    return list(value) if isinstance(value, (list, tuple)) else [value]


def validate_config(
    config: dict[str, Any], schema: Mapping[str, Any], *, source: str = "<dict>", note: str = ""
) -> dict[str, Any]:
    """Validate ``config`` in place against ``schema``, filling defaults.

    Parameters
    ----------
    config : dict
        Configuration; omitted optional keys are added with their schema default.
    schema : Mapping
        JSON schema (draft 2020-12).
    source : str, optional
        Name of the configuration's origin, used in error messages.
    note : str, optional
        Extra text after the source in error messages (e.g. ``" (after overrides)"``).

    Returns
    -------
    dict
        ``config`` itself.

    Raises
    ------
    ConfigError
        Listing every problem, each with its dotted key path.
    """
    validator = _DefaultFillingValidator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        problems: list[str] = []
        for error in errors:
            for line in _describe(error):
                if line not in problems:
                    problems.append(line)
        raise ConfigError(source, problems, note=note)
    return config


def load_config(
    path_or_dict: str | PathLike[str] | Mapping[str, Any],
    overrides: Mapping[str, Any] | None = None,
    *,
    schema_path: str | PathLike[str] | None = None,
) -> dict[str, Any]:
    """Load a pipeline configuration, apply overrides, validate it and fill defaults.

    Parameters
    ----------
    path_or_dict : path-like or Mapping
        A YAML file (e.g. ``config/config.yaml``) or an already loaded mapping (copied,
        never modified).
    overrides : Mapping, optional
        Nested values deep-merged over the configuration before validation (see
        :func:`deep_merge`; lists are replaced, not appended).
    schema_path : path-like, optional
        Schema file; default the packaged schema (:data:`SCHEMA_PATH`).

    Returns
    -------
    dict
        The validated configuration with every optional key present.

    Raises
    ------
    ConfigError
        If the file cannot be read or parsed, or the configuration violates the schema:
        the message names the file and each offending key as a dotted path, e.g.
        ``reference.chains: -1 is less than the minimum of 1`` or
        ``unknown key 'approximation.sampels'``.

    Examples
    --------
    >>> cfg = load_config("config/tiny.yaml", {"reference": {"chains": 4}})  # doctest: +SKIP
    >>> cfg["reference"]["chains"]  # doctest: +SKIP
    4
    """
    if isinstance(path_or_dict, Mapping):
        source = "<dict>"
        config: Any = copy.deepcopy(dict(path_or_dict))
    else:
        path = Path(path_or_dict)
        source = str(path)
        config = _read_yaml(path, "configuration")
        if config is None:
            config = {}
    if not isinstance(config, Mapping):
        raise ConfigError(source, [f"<top level>: expected a mapping of keys, got {type(config).__name__}"])
    note = ""
    if overrides:
        config = deep_merge(config, overrides)
        note = " (after overrides)"
    schema = load_schema(schema_path)
    return validate_config(dict(config), schema, source=source, note=note)
