"""Write ``workflow/resources/rule_seconds.tsv``, the rule weights of the run's time-left estimate.

Reads records of ``bench_quick_dag.py`` (per rule, the mean job's wall seconds, ``mean_s``),
later files winning for a rule both measured, and writes one row per rule, sorted by name. The
estimate (``geobayes.pipeline.time_left``) uses only the weights' proportions, scaled to a run by
its own pace, so a record of the quick scale on 2 cores serves every scale and machine.

Usage: ``.venv/bin/python benchmarks/rule_seconds.py benchmarks/results/quick_dag.json [MORE.json ...]
[--output workflow/resources/rule_seconds.tsv]``
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--output", type=Path, default=REPO / "workflow" / "resources" / "rule_seconds.tsv")
    args = parser.parse_args()
    seconds: dict[str, float] = {}
    for path in args.records:
        rules = json.loads(path.read_text())["rules"]
        # records written before cost_table had a mean_s column carry the total and the count
        seconds.update({rule: max(costs.get("mean_s", costs["total_s"] / costs["jobs"]), 0.01)
                        for rule, costs in rules.items()})
    lines = ["rule\tseconds"] + [f"{rule}\t{value:.2f}" for rule, value in sorted(seconds.items())]
    args.output.write_text("\n".join(lines) + "\n")
    print(f"{len(seconds)} rules -> {args.output}")


if __name__ == "__main__":
    main()
