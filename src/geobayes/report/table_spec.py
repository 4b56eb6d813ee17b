"""A table as data: the validated spec that :mod:`geobayes.report.tables` renders.

A table of any paper is one entry of ``workflow/resources/tables.yaml``::

    yu2024_table2:
      caption: "Bayesian logistic regression ... {samples:,} samples ..."
      experiments: [logreg]                 # tidy summaries read (results/summary/<e>.csv)
      select: {anchor: [euclidean]}         # keep rows whose column is one of the values
      parts: '(?P<dataset>[a-z]+)_(?P<inputs>[a-z]+)-logreg'   # posterior -> key columns
      rows:                                 # row keys, outer first; order and labels
        - {column: inputs, order: [standardised, raw], labels: {standardised: stand.}}
        - {column: dataset, order: [ripley, pima], labels: {ripley: Ripl, pima: Pima}}
      columns:                              # column keys (method labels from the registry)
        - {column: method, order: [ela, rla_b, rla_f]}
      metrics:                              # one sub-column each; format, digits, best rule
        - {metric: wasserstein1, label: W, latex: '$\\mathcal{W}$', digits: 3, best: min, floor: 0.005}
        - {metric: T, latex: '$T$', format: mean, digits: 0}
      paper: [yu2024_table2.csv]            # paper values put beneath ours, compared
      keep_paper_only: false                # true: a paper cell without ours keeps its row, ours "--"
      ddof: 0
      statistic: mean                       # central value over runs: mean (default) or median
      ratios:                               # optional: a key value whose cells are a ratio of two others
        - {key: method, numerator: rla_b, denominator: rla_f, name: rla_b/rla_f}

Everything a reader of the table would ask of it (which rows, in which order, how a
number is printed, which cell is bold and why, what the failure marks mean, which paper
values stand beside ours) is in the entry; no code is written per table.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import re
from collections.abc import Mapping, Sequence
from typing import Any

from geobayes.report.claims import ClaimSpec

__all__ = ["CellFormat", "Best", "KeySpec", "MetricSpec", "RatioSpec", "TableSpec", "ReportSpec", "load_table_specs",
           "load_report_specs", "read_table_specs", "read_report_specs"]


class CellFormat(str, enum.Enum):
    """How a cell prints: ``mean ± std`` over repetitions, the mean alone, or the mean with
    :math:`\\pm` twice the standard error (``mean_se``)."""

    MEAN_STD = "mean_std"
    MEAN = "mean"
    MEAN_SE = "mean_se"
    #: the mean with :math:`\pm` one standard error ``std / sqrt(n)`` (Bergamin et al. 2023's
    #: "mean and standard error"; with ``ddof: 1`` the usual standard error of the mean)
    MEAN_SEM = "mean_sem"


class Best(str, enum.Enum):
    """Which value of a comparison group is bold: the smallest or the largest mean."""

    MIN = "min"
    MAX = "max"


def _fail(where: str, message: str) -> ValueError:
    return ValueError(f"{where}: {message}")


def _check_keys(where: str, mapping: Any, required: Sequence[str], optional: Sequence[str]) -> Mapping:
    if not isinstance(mapping, Mapping):
        raise _fail(where, f"expected a mapping; got {type(mapping).__name__}")
    allowed = [*required, *optional]
    for key in mapping:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise _fail(f"{where}.{key}", f"unknown key{hint}; allowed: {', '.join(allowed)}")
    missing = [key for key in required if key not in mapping]
    if missing:
        raise _fail(where, f"missing key(s) {', '.join(missing)}")
    return mapping


def _strings(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or not all(isinstance(v, str) for v in value):
        raise _fail(where, f"expected a list of strings; got {value!r}")
    if len(set(value)) != len(value):
        raise _fail(where, f"lists a value twice: {list(value)}")
    return tuple(value)


def _enum(where: str, kind: type[enum.Enum], value: Any):
    try:
        return kind(value)
    except ValueError:
        raise _fail(where, f"{value!r} is not one of {', '.join(m.value for m in kind)}") from None


@dataclasses.dataclass(frozen=True)
class KeySpec:
    """One row or column key: a tidy (or ``parts``-derived) column, its order and labels.

    ``order`` empty: the values present, sorted. Values present but not in a given ``order``
    are left out of the table (so an order is also a selection).
    """

    column: str
    order: tuple[str, ...] = ()
    labels: Mapping[str, str] = dataclasses.field(default_factory=dict)
    title: str = ""

    @classmethod
    def from_mapping(cls, where: str, mapping: Any) -> KeySpec:
        _check_keys(where, mapping, ["column"], ["order", "labels", "title"])
        labels = mapping.get("labels", {})
        if not isinstance(labels, Mapping):
            raise _fail(f"{where}.labels", "expected a mapping value -> label")
        return cls(column=str(mapping["column"]), order=_strings(f"{where}.order", mapping.get("order", [])),
                   labels={str(k): str(v) for k, v in labels.items()}, title=str(mapping.get("title", "")))


@dataclasses.dataclass(frozen=True)
class MetricSpec:
    """One metric of the table: its labels (plain; ``latex`` for the LaTeX table), print
    format, digits, bold rule, flag floor and a display ``scale`` (e.g. 1000 for ms).

    ``digits`` are decimals; ``best`` marks the smallest or largest mean of each comparison
    group (the cells that differ only in the table's ``compare_over`` key) in bold; ``floor``
    is the smallest spread of the ours-vs-paper flag rule
    (:func:`geobayes.report.comparison.outside_spread`); ``select`` keeps this metric's cells
    only where a column holds one of the listed values (e.g. T only for the ODE methods: ELA
    solves no ODE, and its recorded T of 0 is not a count to print).
    """

    metric: str
    label: str
    latex: str = ""
    select: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    format: CellFormat = CellFormat.MEAN_STD
    digits: int = 3
    best: Best | None = None
    floor: float = 0.0
    scale: float = 1.0

    @classmethod
    def from_mapping(cls, where: str, mapping: Any) -> MetricSpec:
        _check_keys(where, mapping, ["metric"],
                    ["label", "latex", "format", "digits", "best", "floor", "scale", "select"])
        select = mapping.get("select", {})
        if not isinstance(select, Mapping):
            raise _fail(f"{where}.select", "expected a mapping column -> list of values")
        digits = mapping.get("digits", 3)
        if isinstance(digits, bool) or not isinstance(digits, int) or digits < 0:
            raise _fail(f"{where}.digits", f"expected an integer >= 0; got {digits!r}")
        floor, scale = mapping.get("floor", 0.0), mapping.get("scale", 1.0)
        for name, value in (("floor", floor), ("scale", scale)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise _fail(f"{where}.{name}", f"expected a number >= 0; got {value!r}")
        best = mapping.get("best")
        label = str(mapping.get("label", mapping["metric"]))
        return cls(metric=str(mapping["metric"]), label=label, latex=str(mapping.get("latex", label)),
                   format=_enum(f"{where}.format", CellFormat, mapping.get("format", "mean_std")),
                   digits=digits, best=None if best is None else _enum(f"{where}.best", Best, best),
                   floor=float(floor), scale=float(scale),
                   select={str(k): _strings(f"{where}.select.{k}", v if isinstance(v, list) else [v])
                           for k, v in select.items()})


@dataclasses.dataclass(frozen=True)
class RatioSpec:
    """A derived value ``name`` of the key ``key``: per metric and per combination of the other
    keys, our central value at ``numerator`` divided by that at ``denominator`` (e.g. RLA-B's
    seconds per sample over RLA-F's). Its cells print with the metric's digits, unscaled, never
    bold and without a paper value; list ``name`` in the key's order and labels to place it. A
    ratio is an error where no cell has both sides, unless ``optional`` (a sampler or method that a
    small configuration does not run: the ratio is then left out)."""

    key: str
    numerator: str
    denominator: str
    name: str
    optional: bool = False

    @classmethod
    def from_mapping(cls, where: str, mapping: Any) -> RatioSpec:
        _check_keys(where, mapping, ["key", "numerator", "denominator", "name"], ["optional"])
        optional = mapping.get("optional", False)
        if not isinstance(optional, bool):
            raise ValueError(f"{where}.optional: expected true or false, got {optional!r}")
        return cls(**{k: str(mapping[k]) for k in ("key", "numerator", "denominator", "name")}, optional=optional)


@dataclasses.dataclass(frozen=True)
class TableSpec:
    """A whole table (see the module docstring for the YAML form)."""

    name: str
    caption: str
    experiments: tuple[str, ...]
    rows: tuple[KeySpec, ...]
    columns: tuple[KeySpec, ...]
    metrics: tuple[MetricSpec, ...]  # the innermost column level
    select: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    parts: str | None = None
    paper: tuple[str, ...] = ()
    compare_over: str | None = None
    ddof: int = 0
    keep_paper_only: bool = False
    statistic: str = "mean"
    ratios: tuple[RatioSpec, ...] = ()

    @property
    def key_columns(self) -> list[str]:
        """Row then column key columns."""
        return [key.column for key in (*self.rows, *self.columns)]

    @property
    def part_names(self) -> tuple[str, ...]:
        """Key columns the ``parts`` pattern derives from the posterior name."""
        return tuple(re.compile(self.parts).groupindex) if self.parts else ()

    @property
    def best_over(self) -> str:
        """The key whose cells a bold rule compares (default: the innermost column key, or the
        innermost row key of a table whose columns are its metrics alone)."""
        return self.compare_over or (self.columns or self.rows)[-1].column

    @classmethod
    def from_mapping(cls, name: str, mapping: Any) -> TableSpec:
        where = f"tables.{name}"
        _check_keys(where, mapping, ["caption", "experiments", "rows", "metrics"],
                    ["columns", "select", "parts", "paper", "compare_over", "ddof", "keep_paper_only", "statistic",
                     "ratios"])
        select = mapping.get("select", {})
        if not isinstance(select, Mapping):
            raise _fail(f"{where}.select", "expected a mapping column -> list of values")
        parts = mapping.get("parts")
        if parts is not None:
            try:
                re.compile(parts)
            except re.error as error:
                raise _fail(f"{where}.parts", f"not a regular expression ({error})") from None
        ddof = mapping.get("ddof", 0)
        if ddof not in (0, 1):
            raise _fail(f"{where}.ddof", f"expected 0 or 1; got {ddof!r}")
        keep = mapping.get("keep_paper_only", False)
        if not isinstance(keep, bool):
            raise _fail(f"{where}.keep_paper_only", f"expected true or false; got {keep!r}")
        statistic = mapping.get("statistic", "mean")
        if statistic not in ("mean", "median"):
            raise _fail(f"{where}.statistic", f"expected mean or median; got {statistic!r}")
        spec = cls(
            name=name, caption=str(mapping["caption"]),
            experiments=_strings(f"{where}.experiments", mapping["experiments"]),
            rows=tuple(KeySpec.from_mapping(f"{where}.rows[{i}]", m) for i, m in enumerate(_list(where, "rows", mapping))),
            columns=tuple(KeySpec.from_mapping(f"{where}.columns[{i}]", m)
                          for i, m in enumerate(_list(where, "columns", mapping, required=False))),
            metrics=tuple(MetricSpec.from_mapping(f"{where}.metrics[{i}]", m)
                          for i, m in enumerate(_list(where, "metrics", mapping))),
            select={str(k): _strings(f"{where}.select.{k}", v if isinstance(v, list) else [v]) for k, v in select.items()},
            parts=parts, paper=_strings(f"{where}.paper", mapping.get("paper", [])),
            compare_over=mapping.get("compare_over"), ddof=int(ddof), keep_paper_only=keep, statistic=statistic,
            ratios=tuple(RatioSpec.from_mapping(f"{where}.ratios[{i}]", m)
                         for i, m in enumerate(_list(where, "ratios", mapping, required=False))),
        )
        keys = spec.key_columns
        if len(set(keys)) != len(keys) or "metric" in keys:
            raise _fail(where, f"row and column keys must be distinct and not 'metric'; got {keys}")
        if spec.compare_over is not None and spec.compare_over not in keys:
            raise _fail(f"{where}.compare_over", f"{spec.compare_over!r} is not a row or column key ({keys})")
        for i, ratio in enumerate(spec.ratios):
            if ratio.key not in keys:
                raise _fail(f"{where}.ratios[{i}].key", f"{ratio.key!r} is not a row or column key ({keys})")
        metrics = [m.metric for m in spec.metrics]
        if len(set(metrics)) != len(metrics):
            raise _fail(f"{where}.metrics", f"lists a metric twice: {metrics}")
        return spec


def _list(where: str, key: str, mapping: Mapping, required: bool = True) -> list:
    value = mapping.get(key, [])
    if not isinstance(value, list) or (required and not value):
        raise _fail(f"{where}.{key}", "expected a non-empty list" if required else "expected a list")
    return value


def load_table_specs(document: Mapping) -> dict[str, TableSpec]:
    """Every table of a parsed ``tables.yaml`` (its ``tables`` mapping), validated.

    Raises
    ------
    ValueError
        In one line naming the key path of the first problem (unknown key with the close
        match, missing key, bad format, ...).
    """
    _check_keys("tables.yaml", document, ["tables"], ["reports"])
    tables = document["tables"]
    if not isinstance(tables, Mapping) or not tables:
        raise _fail("tables", "expected a non-empty mapping name -> table")
    return {str(name): TableSpec.from_mapping(str(name), entry) for name, entry in tables.items()}


@dataclasses.dataclass(frozen=True)
class ReportSpec:
    """A paper's reproduction report: title, citation, its tables in order, the deviations file and the paper's
    qualitative claims checked on the tables (:class:`~geobayes.report.claims.ClaimSpec`)."""

    name: str
    title: str
    citation: str
    tables: tuple[str, ...]
    deviations: str
    claims: tuple[ClaimSpec, ...] = ()

    @classmethod
    def from_mapping(cls, name: str, mapping: Any, tables: Mapping[str, TableSpec]) -> ReportSpec:
        where = f"reports.{name}"
        _check_keys(where, mapping, ["title", "citation", "tables", "deviations"], ["claims"])
        listed = _strings(f"{where}.tables", mapping["tables"])
        unknown = [t for t in listed if t not in tables]
        if unknown:
            raise _fail(f"{where}.tables", f"unknown table(s) {unknown}; defined: {', '.join(tables)}")
        claims = tuple(ClaimSpec.from_mapping(f"{where}.claims[{i}]", entry, listed)
                       for i, entry in enumerate(mapping.get("claims") or []))
        return cls(name=name, title=str(mapping["title"]), citation=str(mapping["citation"]), tables=listed,
                   deviations=str(mapping["deviations"]), claims=claims)


def load_report_specs(document: Mapping) -> dict[str, ReportSpec]:
    """Every report of a parsed ``tables.yaml`` (its ``reports`` mapping), validated against its tables."""
    tables = load_table_specs(document)
    reports = document.get("reports", {}) or {}
    if not isinstance(reports, Mapping):
        raise _fail("reports", "expected a mapping name -> report")
    return {str(name): ReportSpec.from_mapping(str(name), entry, tables) for name, entry in reports.items()}


def _read(path) -> Mapping:
    import yaml

    with open(path, encoding="utf-8") as handle:
        try:
            return yaml.safe_load(handle)
        except yaml.YAMLError as error:
            raise ValueError(f"{path}: not valid YAML ({str(error).splitlines()[0]})") from None


def read_table_specs(path) -> dict[str, TableSpec]:
    """:func:`load_table_specs` of a YAML file (errors name the file's key paths)."""
    return load_table_specs(_read(path))


def read_report_specs(path) -> dict[str, ReportSpec]:
    """:func:`load_report_specs` of a YAML file."""
    return load_report_specs(_read(path))
