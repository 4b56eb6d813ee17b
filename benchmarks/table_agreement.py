"""Do two sets of tidy results tell the same story? Every table over some experiments, built from each.

Shared by ``seed_subset_agreement.py`` (all seeds against a subset of them) and ``sample_subset_agreement.py``
(all draws against the first k of each repetition). Issue 16 lets the quick scale shrink an experiment only
where "the smaller setting gives the same qualitative finding (the paper's ordering of methods)"; this builds
each table over the experiments twice with the pipeline's own code
(:func:`geobayes.report.tables.table_cells`) and reports for both

* the paper comparison (:func:`geobayes.report.comparison.comparison_summary`): cells inside the paper's spread,
  comparisons whose best method is the paper's;
* the best method of every comparison group (the tables' bold cells), and in how many groups the second set's
  is the first's;
* the report's qualitative claims (:mod:`geobayes.report.claims`): in how many groups each holds.

Run as a script it compares two finished runs' trees (e.g. the quick run against a copy rerun at a smaller
setting of some experiments)::

    python benchmarks/table_agreement.py --baseline QUICK_RUN_TREE --candidate SMALLER_RUN_TREE \
        --experiments bnn_yu bnn_hartmann --output benchmarks/results/smaller_run_agreement.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from geobayes.io import provenance, save_json
from geobayes.report.claims import claim_verdict_text
from geobayes.report.comparison import comparison_summary
from geobayes.report.paper_values import load_paper_values
from geobayes.report.table_spec import read_report_specs, read_table_specs
from geobayes.report.tables import NoResultsError, table_cells
from geobayes.report.tidy import load_tidy

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "workflow" / "resources" / "tables.yaml"
PAPER_VALUES = ROOT / "workflow" / "resources" / "paper_values"


def best_cells(spec, cells: pd.DataFrame) -> dict[str, list[str]]:
    """Comparison group -> the best method(s) of the group (the table's bold cells)."""
    group = [k for k in spec.key_columns if k != spec.best_over]
    best = cells[cells["best"].fillna(False).astype(bool)]
    out: dict[str, list[str]] = {}
    for row in best.to_dict("records"):
        key = "/".join(str(row[k]) for k in group) + f" {row['metric']}"
        out.setdefault(key, []).append(str(row[spec.best_over]))
    return {k: sorted(v) for k, v in sorted(out.items())}


def table_record(spec, tidy: pd.DataFrame, paper: pd.DataFrame | None) -> dict:
    """One table's cells, its paper comparison (empty without paper values) and its bold cells."""
    cells = table_cells(spec, tidy, paper)
    group = [k for k in spec.key_columns if k != spec.best_over]
    summary = (comparison_summary(cells, group, {m.metric: m.best for m in spec.metrics}, spec.best_over)
               if paper is not None else {})
    return {"cells": cells, "comparison": summary, "best": best_cells(spec, cells)}


def compare_tables(first: pd.DataFrame, second: pd.DataFrame, experiments: list[str],
                   labels: tuple[str, str]) -> dict:
    """Every table over ``experiments`` built from ``first`` and from ``second`` (tidy results).

    Returns ``{"tables": {name: ...}, "claims": [...]}``; ``labels`` name the two sets in the record (e.g.
    ``("all_seeds", "kept_seeds")``). A table neither set has results for is skipped with a line on stderr.
    """
    a, b = labels
    specs, reports = read_table_specs(TABLES), read_report_specs(TABLES)
    record: dict = {"tables": {}, "claims": []}
    built = {}
    # every table over these experiments, whether a report lists it or not (Tables 3 and 5 of Yu et al. 2024,
    # the leaderboard, the push-forward W2 are targets of their own)
    for name, spec in specs.items():
        if not set(spec.experiments) & set(experiments):
            continue
        # the table's own paper-value files, as rule table reads them (none: the paper prints no numbers)
        paper = load_paper_values([PAPER_VALUES / f for f in spec.paper]) if spec.paper else None
        try:
            one, two = table_record(spec, first, paper), table_record(spec, second, paper)
        except NoResultsError as error:
            print(f"{name}: {error}", file=sys.stderr)
            continue
        built[name] = (one["cells"], two["cells"])
        same = sum(two["best"].get(k) == v for k, v in one["best"].items())
        record["tables"][name] = {
            a: one["comparison"], b: two["comparison"],
            "groups": len(one["best"]), f"same_best_as_{a}": same,
            "differing_best": {k: {a: v, b: two["best"].get(k)}
                               for k, v in one["best"].items() if two["best"].get(k) != v}}
        print(f"{name}: best method as with {a} in {same} of {len(one['best'])} groups; paper winners "
              f"{one['comparison'].get('winners_agree')} -> {two['comparison'].get('winners_agree')} of "
              f"{one['comparison'].get('groups_compared')}; inside the paper's spread "
              f"{one['comparison'].get('cells_inside')} -> {two['comparison'].get('cells_inside')}")
    for report in reports.values():
        for claim in report.claims:
            if claim.table not in built:
                continue
            spec, (one, two) = specs[claim.table], built[claim.table]
            group = [k for k in spec.key_columns if k != "method"]
            verdicts = {"claim": claim.claim, "table": claim.table,
                        a: claim_verdict_text(claim, one, group), b: claim_verdict_text(claim, two, group)}
            record["claims"].append(verdicts)
            print(f"claim {claim.claim!r}:\n  {a}: {verdicts[a]}\n  {b}: {verdicts[b]}")
    return record


def summaries(tree: Path, experiments, script: str) -> pd.DataFrame:
    """The tidy summaries of ``experiments`` in a finished run's ``tree``; a missing one is named in one line."""
    paths = [tree / "results" / "summary" / f"{e}.csv" for e in experiments]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise SystemExit(f"{script}: no summary {', '.join(missing)} (run the experiments first)")
    return load_tidy(paths)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Every table over some experiments from two finished runs.")
    parser.add_argument("--baseline", type=Path, required=True, help="a finished run's working directory")
    parser.add_argument("--candidate", type=Path, required=True, help="another, e.g. at a smaller setting")
    parser.add_argument("--experiments", nargs="+", required=True)
    parser.add_argument("--output", type=Path, required=True, help="JSON record")
    args = parser.parse_args(argv)
    first = summaries(args.baseline, args.experiments, "table_agreement")
    second = summaries(args.candidate, args.experiments, "table_agreement")
    record = {"baseline": str(args.baseline), "candidate": str(args.candidate), "experiments": args.experiments,
              **compare_tables(first, second, args.experiments, ("baseline", "candidate")), "provenance": provenance()}
    save_json(args.output, record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
