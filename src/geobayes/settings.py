"""Typed settings from config mappings: every bad key is one readable line naming its path.

A settings class is a frozen dataclass (an Equinox module is one) whose annotations say what
each key holds: ``bool``, ``int``, ``float``, ``str``, a ``str`` :class:`~enum.Enum`, another
settings class (a nested mapping), or ``X | None``. :func:`from_mapping` builds one from the
mapping a YAML config gives and rejects, naming the dotted key path (e.g.
``approximation.ode.max_steps``):

* an unknown key, with the closest known key as a suggestion (``precison`` -> ``precision``);
* a value of the wrong type (``true`` where a number is needed, a list where a mapping is);
* a number that is not integral where an integer is needed (``4096.7`` would be truncated);
* a string that is not one of an enum's values, listing the allowed ones.

Numbers written as strings (YAML 1.1 reads ``1e-6`` as one) are converted. Range checks
(``rtol > 0``) stay with the class (its ``__check_init__`` / ``__post_init__``).
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import numbers
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import numpy as np

__all__ = ["SettingsError", "enum_converter", "from_mapping"]

T = TypeVar("T")


class SettingsError(ValueError):
    """A config mapping that does not fit its settings class; the message starts with the key path."""


def _join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def _allowed(enum_cls: type[enum.Enum]) -> str:
    return ", ".join(repr(member.value) for member in enum_cls)


def enum_converter(enum_cls: type[enum.Enum], where: str) -> Callable[[Any], enum.Enum]:
    """A field converter to ``enum_cls`` whose error names ``where`` and the allowed values."""

    def convert(value):
        try:
            return enum_cls(value)
        except ValueError:
            raise SettingsError(f"{where}: {value!r} is not one of {_allowed(enum_cls)}") from None

    return convert


def _integer(value, where: str) -> int:
    if isinstance(value, bool):
        raise SettingsError(f"{where}: expected an integer, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    number = _number(value, where, "an integer")
    if not number.is_integer():
        raise SettingsError(f"{where}: expected an integer, got {value!r} (not integral; it would be truncated)")
    return int(number)


def _number(value, where: str, kind: str = "a number") -> float:
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        raise SettingsError(f"{where}: expected {kind}, got {value!r}")
    try:
        return float(value)
    except ValueError:
        raise SettingsError(f"{where}: expected {kind}, got {value!r}") from None


def _convert(annotation, value, where: str):
    """``value`` as ``annotation`` says, or a :class:`SettingsError` naming ``where``."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(annotation) if a is not type(None)]
        if value is None and len(options) < len(typing.get_args(annotation)):
            return None
        if len(options) != 1:
            raise TypeError(f"{where}: unsupported settings annotation {annotation!r}")
        annotation = options[0]
    if annotation is bool:
        if not isinstance(value, bool):
            raise SettingsError(f"{where}: expected true or false, got {value!r}")
        return value
    if annotation is int:
        return _integer(value, where)
    if annotation is float:
        return _number(value, where)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        if isinstance(value, annotation):
            return value
        return enum_converter(annotation, where)(value)
    if annotation is str:
        if not isinstance(value, str):
            raise SettingsError(f"{where}: expected a string, got {value!r}")
        return value
    if dataclasses.is_dataclass(annotation):
        if isinstance(value, annotation):
            return value
        return from_mapping(annotation, value, where)
    raise TypeError(f"{where}: unsupported settings annotation {annotation!r}")


def from_mapping(cls: type[T], mapping: Mapping[str, Any] | None, path: str, *, ignore: Iterable[str] = ()) -> T:
    """Build the settings class ``cls`` from a config mapping.

    Parameters
    ----------
    cls
        A dataclass (or Equinox module) with annotated fields; a field's default is used where
        its key is absent, and a field without one is required.
    mapping
        The config slice (``None`` = empty).
    path
        Dotted key path of the slice, for messages (``approximation``, ``bnn_classifier``).
    ignore
        Keys that belong to the slice but not to ``cls`` (e.g. another method's settings in the
        shared ``approximation`` block): accepted and dropped.

    Raises
    ------
    SettingsError
        One line starting with the offending key's path: an unknown key (with the closest
        known one), a missing required key, a wrong type, a non-integral number where an
        integer is needed, an enum value not allowed (listing the allowed ones), or the range
        check of ``cls`` itself.
    """
    mapping = {} if mapping is None else mapping
    if not isinstance(mapping, Mapping):
        raise SettingsError(f"{path}: expected a mapping, got {mapping!r}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    ignored = set(ignore)
    known = sorted(set(fields) | ignored)
    for key in mapping:
        if key not in fields and key not in ignored:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise SettingsError(f"{_join(path, key)}: unknown key; {hint}known: {', '.join(known)}")
    hints = typing.get_type_hints(cls)
    values = {}
    for name, field in fields.items():
        if name in mapping:
            values[name] = _convert(hints[name], mapping[name], _join(path, name))
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise SettingsError(f"{_join(path, name)}: missing")
    try:
        return cls(**values)
    except SettingsError:
        raise
    except ValueError as err:
        message = str(err)
        raise SettingsError(message if message.startswith(path) else f"{path}: {message}") from err
