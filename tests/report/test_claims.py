"""A paper's qualitative claims checked on a table's cells (geobayes.report.claims)."""

from __future__ import annotations

import pandas as pd
import pytest

from geobayes.report.claims import ClaimSpec, claim_verdict_text


def _cells():
    rows = [("a", "rsvgd", 0.9), ("a", "svgd", 0.8), ("b", "rsvgd", 0.7), ("b", "svgd", 0.75), ("c", "svgd", 0.5)]
    return pd.DataFrame([{"posterior": p, "method": m, "metric": "accuracy", "mean": v} for p, m, v in rows])


def test_a_claim_is_checked_per_group_with_its_numbers_and_groups_without_both_methods_are_not_counted():
    claim = ClaimSpec("RSVGD beats SVGD", "t", "accuracy", "rsvgd", ("svgd",), "max")
    text = claim_verdict_text(claim, _cells(), ["posterior"])
    assert text.startswith("- **RSVGD beats SVGD** (accuracy, max is better): holds in 1 of 2.")
    assert "posterior a: holds (rsvgd 0.9 vs svgd 0.8)" in text
    assert "posterior b: does not hold (rsvgd 0.7 vs svgd 0.75)" in text and "posterior c: not run" in text


def test_min_direction_and_selection():
    claim = ClaimSpec("lower is better", "t", "accuracy", "svgd", ("rsvgd",), "min", {"posterior": ("a",)})
    assert "holds in 1 of 1 (all)" in claim_verdict_text(claim, _cells(), ["posterior"])
    nothing = ClaimSpec("x", "t", "accuracy", "svgd", ("rsvgd",), "min", {"posterior": ("z",)})
    assert "not checked at this scale" in claim_verdict_text(nothing, _cells(), ["posterior"])


@pytest.mark.parametrize("mapping, message", [
    ({"claim": "c", "table": "nope", "metric": "m", "method": "a", "than": "b", "better": "max"},
     r"^r.claims\[0\].table: 'nope' is not a table of the report \(t\)$"),
    ({"claim": "c", "table": "t", "metric": "m", "method": "a", "than": "b", "better": "up"},
     r"^r.claims\[0\].better: expected 'max' or 'min', got 'up'$"),
    ({"claim": "c", "table": "t", "metric": "m", "method": "a", "better": "max", "extra": 1},
     r"^r.claims\[0\]: missing key\(s\) \['than'\], unknown key\(s\) \['extra'\]$"),
])
def test_a_bad_claim_is_one_line_naming_it(mapping, message):
    with pytest.raises(ValueError, match=message):
        ClaimSpec.from_mapping("r.claims[0]", mapping, ["t"])
