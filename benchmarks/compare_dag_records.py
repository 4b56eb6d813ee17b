"""Before/after table of two DAG-run records of ``bench_quick_dag.py``.

Per rule (or ``--by paper``): jobs, job seconds and CPU seconds of each record and the ratio
before / after, most saved first, then the totals (wall, job and CPU seconds). Prints Markdown;
reads the records only, runs nothing.

Usage: ``.venv/bin/python benchmarks/compare_dag_records.py BEFORE.json AFTER.json [--by rule|paper]
[--top 25]``
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

TOTALS = ("wall_s", "job_time_s", "cpu_s")


def load_record(path: Path) -> dict:
    """A record of ``bench_quick_dag.py``; one readable line if it is not one."""
    try:
        record = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        sys.exit(f"{path}: not a readable JSON record ({error})")
    missing = [key for key in ("rules", "papers", *TOTALS) if key not in record]
    if missing:
        sys.exit(f"{path}: not a bench_quick_dag.py record (missing {', '.join(missing)})")
    return record


def ratio(before: float, after: float) -> str:
    """``before / after`` to two digits; ``-`` where the group is gone after or was absent before."""
    return f"{before / after:.2f}x" if before > 0 and after > 0 else "-"


def comparison_rows(before: dict, after: dict, by: str) -> list[tuple[str, dict, dict]]:
    """(group, before costs, after costs) of every group in either record, most job time saved first."""
    groups = sorted(set(before[by]) | set(after[by]))
    empty = {"jobs": 0, "total_s": 0.0, "cpu_s": 0.0}
    rows = [(g, before[by].get(g, empty), after[by].get(g, empty)) for g in groups]
    return sorted(rows, key=lambda row: row[2]["total_s"] - row[1]["total_s"])


def markdown(before: dict, after: dict, by: str, top: int) -> str:
    """The table, then the totals."""
    label = "rule" if by == "rules" else "paper"
    lines = [f"| {label} | jobs before | jobs after | job s before | job s after | before / after |",
             "|---|---|---|---|---|---|"]
    rows = comparison_rows(before, after, by)
    for group, old, new in rows[:top]:
        lines.append(f"| `{group}` | {old['jobs']} | {new['jobs']} | {old['total_s']:,.0f} | {new['total_s']:,.0f} "
                     f"| {ratio(old['total_s'], new['total_s'])} |")
    if len(rows) > top:
        lines.append(f"| ({len(rows) - top} more) | | | | | |")
    lines += ["", "| total | before | after | before / after |", "|---|---|---|---|"]
    lines += [f"| {key} | {before[key]:,.0f} | {after[key]:,.0f} | {ratio(before[key], after[key])} |" for key in TOTALS]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--by", choices=("rule", "paper"), default="rule")
    parser.add_argument("--top", type=int, default=25, help="groups listed (most saved first)")
    args = parser.parse_args()
    print(markdown(load_record(args.before), load_record(args.after), f"{args.by}s", args.top))


if __name__ == "__main__":
    main()
