"""Tests of geobayes.settings: typed settings from config mappings, one line per bad key."""

from __future__ import annotations

import dataclasses
import re
from enum import Enum

import pytest

from geobayes.settings import SettingsError, from_mapping


class Colour(str, Enum):
    RED = "red"
    BLUE = "blue"


@dataclasses.dataclass(frozen=True)
class Inner:
    max_steps: int = 10
    rtol: float = 1e-3


@dataclasses.dataclass(frozen=True)
class Outer:
    size: int
    colour: Colour = Colour.RED
    flag: bool = False
    name: str = "x"
    chunk: int | None = None
    inner: Inner = Inner()


def test_builds_typed_values_and_keeps_defaults():
    built = from_mapping(Outer, {"size": 3.0, "colour": "blue", "inner": {"rtol": "1e-6", "max_steps": 7}}, "top")
    assert built == Outer(size=3, colour=Colour.BLUE, inner=Inner(max_steps=7, rtol=1e-6))
    assert isinstance(built.size, int) and isinstance(built.colour, Colour) and isinstance(built.inner.rtol, float)
    assert from_mapping(Outer, {"size": 1, "chunk": None}, "top").chunk is None


@pytest.mark.parametrize(("mapping", "message"), [
    ({"size": 1, "colur": "red"}, "top.colur: unknown key; did you mean 'colour'?"),
    ({"size": 1, "inner": {"max_step": 3}}, "top.inner.max_step: unknown key; did you mean 'max_steps'?"),
    ({"size": 4096.7}, "top.size: expected an integer, got 4096.7 (not integral; it would be truncated)"),
    ({"size": True}, "top.size: expected an integer, got True"),
    ({"size": "many"}, "top.size: expected an integer, got 'many'"),
    ({"size": 1, "inner": {"rtol": [1e-3]}}, "top.inner.rtol: expected a number, got [0.001]"),
    ({"size": 1, "inner": {"rtol": False}}, "top.inner.rtol: expected a number, got False"),
    ({"size": 1, "flag": "yes"}, "top.flag: expected true or false, got 'yes'"),
    ({"size": 1, "name": 3}, "top.name: expected a string, got 3"),
    ({"size": 1, "colour": "green"}, "top.colour: 'green' is not one of 'red', 'blue'"),
    ({"size": 1, "inner": 3}, "top.inner: expected a mapping, got 3"),
    ({}, "top.size: missing"),
])
def test_bad_input_is_one_line_naming_the_key(mapping, message):
    with pytest.raises(SettingsError) as info:
        from_mapping(Outer, mapping, "top")
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_unknown_key_without_a_close_match_lists_the_known_keys():
    with pytest.raises(SettingsError, match=re.escape("top.zzz: unknown key; known: chunk, colour, flag")):
        from_mapping(Outer, {"size": 1, "zzz": 1}, "top")


def test_ignored_keys_are_dropped_and_suggested():
    assert from_mapping(Inner, {"samples": 5}, "a", ignore={"samples"}) == Inner()
    with pytest.raises(SettingsError, match=re.escape("a.sampels: unknown key; did you mean 'samples'?")):
        from_mapping(Inner, {"sampels": 5}, "a", ignore={"samples"})


def test_range_check_of_the_class_is_prefixed_with_the_path():
    @dataclasses.dataclass(frozen=True)
    class Positive:
        value: float = 1.0

        def __post_init__(self):
            if self.value <= 0:
                raise ValueError(f"value must be > 0, got {self.value}")

    with pytest.raises(SettingsError, match=re.escape("p.q: value must be > 0, got -1.0")):
        from_mapping(Positive, {"value": -1}, "p.q")
