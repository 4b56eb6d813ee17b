"""Would fewer seeds tell the same story? Every report table of some experiments, from all seeds and from a subset.

Issue 16 lets the quick scale shrink an experiment only where "the smaller setting gives the same qualitative
finding (the paper's ordering of methods)". A seed of these experiments is a posterior of its own (its name holds
``_seed<k>``: another split, another trained network), so a run with fewer seeds is the same run with those
posteriors left out. This reads a finished run's tidy summaries, builds each table of the named experiments'
reports twice with the pipeline's own code (:func:`geobayes.report.tables.table_cells`): from every seed, and
from ``--keep-seeds`` only, and reports for both

* the paper comparison (:func:`geobayes.report.comparison.comparison_summary`): cells inside the paper's spread,
  comparisons whose best method is the paper's;
* the best method of every comparison group (the tables' bold cells), and in how many groups the subset's is
  the all-seed run's;
* the report's qualitative claims (:mod:`geobayes.report.claims`): in how many groups each holds.

Usage::

    python benchmarks/seed_subset_agreement.py --tree QUICK_RUN_TREE --experiments bergamin_uci bergamin_banana \\
        --keep-seeds 0 --output benchmarks/results/seed_subset_agreement.json
"""

from __future__ import annotations

import argparse
import re
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
PAPER_VALUES = ROOT / "workflow" / "resources" / "paper_values"
SEED = re.compile(r"_seed(\d+)(?=-|$)")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True, help="a finished run's working directory")
    parser.add_argument("--experiments", nargs="+", required=True, help="experiments whose seeds are cut")
    parser.add_argument("--keep-seeds", nargs="+", type=int, required=True, help="the seeds a smaller run keeps")
    parser.add_argument("--output", type=Path, required=True, help="JSON record")
    return parser.parse_args(argv)


def seed_of(posterior: str) -> int | None:
    """The seed in a posterior's name (``vehicle_fixed_seed1-softmax50`` -> 1), None without one."""
    found = SEED.search(str(posterior))
    return int(found.group(1)) if found else None


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
    cells = table_cells(spec, tidy, paper)
    group = [k for k in spec.key_columns if k != spec.best_over]
    summary = (comparison_summary(cells, group, {m.metric: m.best for m in spec.metrics}, spec.best_over)
               if paper is not None else {})
    return {"cells": cells, "comparison": summary, "best": best_cells(spec, cells)}


def main(argv=None) -> int:
    args = parse_args(argv)
    specs = read_table_specs(ROOT / "workflow/resources/tables.yaml")
    reports = read_report_specs(ROOT / "workflow/resources/tables.yaml")
    summaries = [args.tree / "results/summary" / f"{e}.csv" for e in args.experiments]
    missing = [str(p) for p in summaries if not p.is_file()]
    if missing:
        raise SystemExit(f"seed_subset_agreement: no summary {', '.join(missing)} (run the experiments first)")
    tidy = load_tidy(summaries)
    seeds = tidy["posterior"].map(seed_of)
    if seeds.isna().all():
        raise SystemExit(f"seed_subset_agreement: no posterior of {args.experiments} names a seed (_seed<k>)")
    subset = tidy[seeds.isna() | seeds.isin(args.keep_seeds)]
    record = {"tree": str(args.tree), "experiments": args.experiments, "keep_seeds": args.keep_seeds,
              "seeds_in_run": sorted(int(s) for s in seeds.dropna().unique()), "tables": {}, "claims": []}
    for report in reports.values():
        names = [n for n in report.tables if set(specs[n].experiments) & set(args.experiments)]
        if not names:
            continue
        built = {}
        for name in names:
            spec = specs[name]
            # the table's own paper-value files, as rule table reads them (none: the paper prints no numbers)
            paper = load_paper_values([PAPER_VALUES / f for f in spec.paper]) if spec.paper else None
            try:
                every, fewer = table_record(spec, tidy, paper), table_record(spec, subset, paper)
            except NoResultsError as error:
                print(f"{name}: {error}", file=sys.stderr)
                continue
            built[name] = (every["cells"], fewer["cells"])
            same = sum(fewer["best"].get(k) == v for k, v in every["best"].items())
            record["tables"][name] = {
                "all_seeds": every["comparison"], "kept_seeds": fewer["comparison"],
                "groups": len(every["best"]), "same_best_as_all_seeds": same,
                "differing_best": {k: {"all_seeds": v, "kept_seeds": fewer["best"].get(k)}
                                   for k, v in every["best"].items() if fewer["best"].get(k) != v}}
            print(f"{name}: best method as with all seeds in {same} of {len(every['best'])} groups; paper winners "
                  f"{every['comparison'].get('winners_agree')} -> {fewer['comparison'].get('winners_agree')} of "
                  f"{every['comparison'].get('groups_compared')}; inside the paper's spread "
                  f"{every['comparison'].get('cells_inside')} -> {fewer['comparison'].get('cells_inside')}")
        for claim in report.claims:
            if claim.table not in built:
                continue
            spec, (every, fewer) = specs[claim.table], built[claim.table]
            group = [k for k in spec.key_columns if k != "method"]
            verdicts = {"claim": claim.claim, "table": claim.table,
                        "all_seeds": claim_verdict_text(claim, every, group),
                        "kept_seeds": claim_verdict_text(claim, fewer, group)}
            record["claims"].append(verdicts)
            print(f"claim {claim.claim!r}:\n  all seeds: {verdicts['all_seeds']}\n  kept: {verdicts['kept_seeds']}")
    record["provenance"] = provenance()
    save_json(args.output, record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
