"""Would fewer seeds tell the same story? Every table over some experiments, from all seeds and from a subset.

Issue 16 lets the quick scale shrink an experiment only where "the smaller setting gives the same qualitative
finding (the paper's ordering of methods)". A seed of these experiments is a posterior of its own (its name holds
``_seed<k>``: another split, another trained network), so a run with fewer seeds is the same run with those
posteriors left out. This reads a finished run's tidy summaries and compares every table over the named
experiments from every seed and from ``--keep-seeds`` only (``table_agreement.compare_tables``: paper comparison,
bold cells, claims).

Usage::

    python benchmarks/seed_subset_agreement.py --tree QUICK_RUN_TREE --experiments bergamin_uci bergamin_banana \\
        --keep-seeds 0 --output benchmarks/results/seed_subset_agreement.json
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from table_agreement import compare_tables, summaries

from geobayes.io import provenance, save_json

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


def main(argv=None) -> int:
    args = parse_args(argv)
    tidy = summaries(args.tree, args.experiments, "seed_subset_agreement")
    seeds = tidy["posterior"].map(seed_of)
    if seeds.isna().all():
        raise SystemExit(f"seed_subset_agreement: no posterior of {args.experiments} names a seed (_seed<k>)")
    subset = tidy[seeds.isna() | seeds.isin(args.keep_seeds)]
    record = {"tree": str(args.tree), "experiments": args.experiments, "keep_seeds": args.keep_seeds,
              "seeds_in_run": sorted(int(s) for s in seeds.dropna().unique()),
              **compare_tables(tidy, subset, args.experiments, ("all_seeds", "kept_seeds"))}
    record["provenance"] = provenance()
    save_json(args.output, record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
