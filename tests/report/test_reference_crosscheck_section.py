"""The reproduction reports' section on the cross-check of the NUTS references."""

import pandas as pd

from geobayes.report.reference_crosscheck import PAIR_METHOD, crosscheck_section


def _tidy(pairs, failing=()):
    rows = []
    for posterior, (w, ratio, disagrees) in pairs.items():
        for backend in ("numpyro", "stan"):
            rows.append({"experiment": "reference_crosscheck", "posterior": posterior, "anchor": "", "method": backend,
                         "repetition": "", "metric": "passed", "value": float((posterior, backend) not in failing),
                         "n_samples": None, "n_failed": None})
        for metric, value in (("wasserstein1", w), ("floor_ratio", ratio), ("disagrees", disagrees)):
            rows.append({"experiment": "reference_crosscheck", "posterior": posterior, "anchor": "", "method": PAIR_METHOD,
                         "repetition": "", "metric": metric, "value": value, "n_samples": None, "n_failed": None})
        rows.append({"experiment": "reference_crosscheck", "posterior": posterior, "anchor": "", "method": "stan",
                     "repetition": "", "metric": "wasserstein1", "value": 9.0, "n_samples": None, "n_failed": None})
    return pd.DataFrame(rows)


def test_agreeing_references_are_counted_and_disagreeing_ones_listed():
    agree = crosscheck_section(_tidy({"a-logreg": (0.1, 0.9, 0), "b-banana": (0.2, 1.1, 0)}))
    assert agree[0] == "## The references, second opinion"
    assert "All 2 cross-checked NUTS references agree" in agree[-1] and "1.10" in agree[-1]
    flagged = "\n".join(crosscheck_section(_tidy({"a-logreg": (0.1, 0.9, 0), "b-banana": (0.5, 2.5, 1)})))
    assert "**1 of 2 cross-checked references are flagged**" in flagged
    assert "- b-banana: the backends disagree (W1 between them 0.5, 2.50x the floor)" in flagged
    assert "a-logreg:" not in flagged
    # a reference that fails its own checks is flagged even where the distances agree (Stan on raw Australian)
    failing = "\n".join(crosscheck_section(_tidy({"a-logreg": (0.8, 1.46, 0)}, failing={("a-logreg", "stan")})))
    assert "- a-logreg: the backends agree (W1 between them 0.8, 1.46x the floor); stan fails its checks" in failing
    assert crosscheck_section(_tidy({}).reindex(columns=["posterior", "method", "metric", "value"])) == []
