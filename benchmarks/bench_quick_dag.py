"""Wall time of the whole DAG at quick scale, from an empty results tree.

Runs ``snakemake --cores N --configfile config/quick.yaml`` in a fresh copy of the workflow
and library (so the repository's own results are untouched), then reports the total wall
time and the per-rule wall times read from Snakemake's benchmark files
(``logs/benchmarks/<rule>/...tsv``): total, median and max per rule, and the share of the
total per rule. Writes ``benchmarks/results/quick_dag.json``. ``--source`` runs another checkout
(e.g. a ``git worktree`` of an older commit, for a before/after table: run both at once with
``--cores 1`` each so that they share the machine alike) and ``--target`` limits the run to some
targets of the DAG.

Usage: ``.venv/bin/python benchmarks/bench_quick_dag.py [--cores 2] [--config config/quick.yaml]
[--source DIR] [--target tables/yu2024_table2.tex ...]``
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from geobayes.io import provenance, save_json

REPO = Path(__file__).resolve().parents[1]


def rule_times(work: Path) -> dict[str, dict[str, float]]:
    """Per-rule wall-time statistics from Snakemake's benchmark files, and the rule's CPU seconds
    (their ``cpu_time`` column: on a loaded machine the wall time of a job grows with whatever
    runs beside it, its CPU time does not)."""
    per_rule: dict[str, list[float]] = {}
    cpu: dict[str, float] = {}
    for tsv in (work / "logs" / "benchmarks").rglob("*.tsv"):
        rule = tsv.relative_to(work / "logs" / "benchmarks").parts[0]
        header, row = (line.split("\t") for line in tsv.read_text().splitlines()[-2:])
        per_rule.setdefault(rule, []).append(float(row[0]))
        cpu_time = dict(zip(header, row)).get("cpu_time", "NA")
        cpu[rule] = cpu.get(rule, 0.0) + (float(cpu_time) if cpu_time != "NA" else 0.0)
    return {
        rule: {"jobs": len(t), "total_s": sum(t), "median_s": statistics.median(t), "max_s": max(t), "cpu_s": cpu[rule]}
        for rule, t in sorted(per_rule.items())
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--config", default="config/quick.yaml")
    parser.add_argument("--source", type=Path, default=REPO, help="checkout whose workflow and library run")
    parser.add_argument("--target", action="append", default=[], help="a target file (repeatable); default: all")
    parser.add_argument("--output", default=str(REPO / "benchmarks" / "results" / "quick_dag.json"))
    args = parser.parse_args()
    source = args.source.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for part in ("workflow", "config", "src", "profiles"):
            shutil.copytree(source / part, work / part, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
        for name in ("Snakefile", "environment.yml"):
            shutil.copy(source / name, work / name)
        env = dict(os.environ)
        env.setdefault("GEOBAYES_DATA_MIRROR", str((REPO / ".." / "shared" / "data").resolve()))
        snakemake = str(Path(sys.executable).with_name("snakemake"))
        start = time.perf_counter()
        env["PYTHONPATH"] = str(work / "src")  # the copied library, not the venv's editable install
        subprocess.run([snakemake, *args.target, "--cores", str(args.cores), "--configfile", args.config, "--quiet"],
                       cwd=work, env=env, check=True)
        wall = time.perf_counter() - start
        # CPU of the whole run: Snakemake itself and every job it started (waited-for children).
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = children.ru_utime + children.ru_stime
        rules = rule_times(work)
    busy = sum(r["total_s"] for r in rules.values())
    for rule, stats in rules.items():
        stats["share_of_job_time"] = stats["total_s"] / busy
        print(f"{rule:18s} jobs {stats['jobs']:4d}  total {stats['total_s']:8.1f} s  "
              f"median {stats['median_s']:6.1f} s  max {stats['max_s']:7.1f} s  cpu {stats['cpu_s']:7.1f} s")
    print(f"wall time {wall:.1f} s on {args.cores} cores ({busy:.1f} s of job time; "
          f"{cpu:.1f} s of CPU in all, Snakemake included)")
    save_json(args.output, {"config": args.config, "cores": args.cores, "wall_s": wall, "source": str(source),
                            "targets": args.target, "cpu_s": cpu,
                            "job_time_s": busy, "rules": rules, "provenance": provenance()})


if __name__ == "__main__":
    main()
