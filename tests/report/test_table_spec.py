"""Tests of geobayes.report.table_spec: a table is validated data; mistakes name their key path."""

from pathlib import Path

import pytest
import yaml

from geobayes.report.table_spec import Best, CellFormat, load_report_specs, load_table_specs, read_table_specs

TABLES = Path(__file__).resolve().parents[2] / "workflow/resources/tables.yaml"
PAPER_VALUES = TABLES.parent / "paper_values"

MINIMAL = {"caption": "c", "experiments": ["logreg"], "rows": [{"column": "posterior"}],
           "metrics": [{"metric": "wasserstein1"}]}


def specs(**changes):
    return load_table_specs({"tables": {"t": {**MINIMAL, **changes}}})


def test_the_projects_tables_and_reports_are_valid_and_name_existing_paper_files():
    document = yaml.safe_load(TABLES.read_text())
    tables = read_table_specs(TABLES)
    assert {"yu2024_table1", "yu2024_table2", "yu2024_table4", "yu2024_table6", "leaderboard"} <= set(tables)
    for spec in tables.values():
        for name in spec.paper:
            assert (PAPER_VALUES / name).is_file(), f"{spec.name}: {name}"
    reports = load_report_specs(document)
    assert "yu2024" in reports and (TABLES.parent / reports["yu2024"].deviations).is_file()


def test_defaults_and_typed_fields():
    spec = specs(metrics=[{"metric": "T", "format": "mean", "digits": 1, "best": "min"}])["t"]
    assert spec.metrics[0].format is CellFormat.MEAN and spec.metrics[0].best is Best.MIN
    assert spec.columns == () and spec.best_over == "posterior" and spec.ddof == 0


@pytest.mark.parametrize(("change", "message"), [
    ({"captoin": "c"}, r"tables\.t\.captoin: unknown key \(did you mean 'caption'\?\)"),
    ({"metrics": [{"metric": "T", "format": "median"}]}, r"tables\.t\.metrics\[0\]\.format: 'median' is not one of"),
    ({"metrics": [{"metric": "T", "digits": 2.5}]}, r"tables\.t\.metrics\[0\]\.digits: expected an integer"),
    ({"metrics": [{"metric": "T", "best": "lowest"}]}, r"best: 'lowest' is not one of min, max"),
    ({"metrics": [{"metric": "T"}, {"metric": "T"}]}, "lists a metric twice"),
    ({"rows": []}, r"tables\.t\.rows: expected a non-empty list"),
    ({"rows": [{"colum": "posterior"}]}, r"rows\[0\]\.colum: unknown key \(did you mean 'column'\?\)"),
    ({"parts": "(?P<x"}, r"tables\.t\.parts: not a regular expression"),
    ({"compare_over": "method"}, r"compare_over: 'method' is not a row or column key"),
    ({"columns": [{"column": "posterior"}]}, "row and column keys must be distinct"),
    ({"ddof": 2}, r"tables\.t\.ddof: expected 0 or 1"),
    ({"experiments": "logreg"}, r"tables\.t\.experiments: expected a list of strings"),
])
def test_mistakes_are_one_line_naming_the_key(change, message):
    with pytest.raises(ValueError, match=message) as info:
        specs(**change)
    assert "\n" not in str(info.value)


def test_a_report_naming_an_unknown_table_is_an_error():
    document = {"tables": {"t": MINIMAL}, "reports": {"r": {"title": "T", "citation": "C", "tables": ["t", "u"],
                                                             "deviations": "d.md"}}}
    with pytest.raises(ValueError, match=r"reports\.r\.tables: unknown table\(s\) \['u'\]"):
        load_report_specs(document)


def test_a_metric_may_select_the_cells_it_shows():
    spec = specs(metrics=[{"metric": "T", "select": {"method": ["rla_f"]}}])["t"]
    assert spec.metrics[0].select == {"method": ("rla_f",)}
    with pytest.raises(ValueError, match=r"tables\.t\.metrics\[0\]\.select: expected a mapping"):
        specs(metrics=[{"metric": "T", "select": ["rla_f"]}])
