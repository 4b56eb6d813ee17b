"""The generic spec features added for the network tables: ``statistic: median``, ``ratios``
(a key value whose cells are a quotient of two others) and numeric order of unordered keys."""

import numpy as np
import pytest

from geobayes.report.table_spec import load_table_specs
from geobayes.report.tables import render_markdown, table_cells
from geobayes.report.tidy import aggregate, tidy_frame


def spec(**extra):
    entry = {"caption": "t", "experiments": ["e"], "parts": "n(?P<n>[0-9]+)-m",
             "rows": [{"column": "n"}], "columns": [{"column": "method", "order": ["a", "b", "a/b"]}],
             "metrics": [{"metric": "seconds_per_sample", "format": "mean", "digits": 2, "scale": 10}], **extra}
    return load_table_specs({"tables": {"t": entry}})["t"]


def tidy():
    records = [{"stage": "timing", "posterior": f"n{n}-m", "method": method, "per_sample_s": value}
               for n in (2, 10) for method, values in (("a", [1.0, 2.0, 9.0]), ("b", [0.5, 1.0, 1.5]))
               for value in values]
    frame = tidy_frame((r, "e") for r in records)
    return frame.assign(repetition=frame.groupby(["posterior", "method", "metric"]).cumcount())


def test_median_statistic_and_ratio_cells():
    cells = table_cells(spec(statistic="median", ratios=[{"key": "method", "numerator": "a", "denominator": "b",
                                                          "name": "a/b"}]), tidy())
    assert list(dict.fromkeys(cells["n"])) == ["2", "10"]  # numeric order, not "10" < "2"
    means = cells.set_index(["n", "method"])["mean"]
    assert means[("2", "a")] == 2.0 and means[("2", "b")] == 1.0 and means[("2", "a/b")] == 2.0
    ratio = cells[cells["method"] == "a/b"]
    assert not ratio["best"].any() and ratio["n_failed"].isna().all() and ratio["std"].isna().all()
    text = render_markdown(spec(statistic="median", ratios=[
        {"key": "method", "numerator": "a", "denominator": "b", "name": "a/b"}]), cells, {})
    row = next(line for line in text.splitlines() if line.startswith("| 2 "))
    assert [c.strip() for c in row.split("|")[2:5]] == ["20.00", "10.00", "2.00"]  # scaled medians, unscaled ratio
    mean_cells = table_cells(spec(), tidy()).set_index(["n", "method"])["mean"]
    assert mean_cells[("2", "a")] == pytest.approx(4.0)


def test_aggregate_median_and_bad_statistic():
    frame = tidy()
    out = aggregate(frame, ["posterior", "method"], statistic="median")
    assert out.set_index(["posterior", "method"]).loc[("n2-m", "a"), "mean"] == 2.0
    assert out.set_index(["posterior", "method"]).loc[("n2-m", "a"), "std"] == pytest.approx(np.std([1.0, 2.0, 9.0]))
    with pytest.raises(ValueError, match="statistic must be 'mean' or 'median'"):
        aggregate(frame, ["posterior"], statistic="mode")


@pytest.mark.parametrize(("extra", "message"), [
    ({"statistic": "mode"}, r"tables.t.statistic: expected mean or median"),
    ({"ratios": [{"key": "dataset", "numerator": "a", "denominator": "b", "name": "a/b"}]},
     r"tables.t.ratios\[0\].key: 'dataset' is not a row or column key"),
    ({"ratios": [{"key": "method", "numerator": "a", "denominatr": "b", "name": "a/b"}]},
     r"did you mean 'denominator'"),
])
def test_bad_specs_name_the_key(extra, message):
    with pytest.raises(ValueError, match=message):
        spec(**extra)


def test_ratio_without_both_sides_is_an_error():
    frame = tidy()
    with pytest.raises(ValueError, match="no cells with both method 'a' and 'b'"):
        table_cells(spec(ratios=[{"key": "method", "numerator": "a", "denominator": "b", "name": "a/b"}]),
                    frame[frame["method"] == "a"])


def test_optional_ratio_without_both_sides_is_left_out():
    """A ratio marked optional (a method a small config does not run) adds no cells instead of failing."""
    frame = tidy()
    ratio = {"key": "method", "numerator": "a", "denominator": "b", "name": "a/b", "optional": True}
    cells = table_cells(spec(ratios=[ratio]), frame[frame["method"] == "a"])
    assert "a/b" not in set(cells["method"]) and set(cells["method"]) == {"a"}
    with pytest.raises(ValueError, match="optional: expected true or false"):
        spec(ratios=[{**ratio, "optional": "yes"}])
