"""Wall time of the whole DAG at quick scale, from an empty results tree.

Runs ``snakemake --cores N --configfile config/quick.yaml`` in a fresh copy of the workflow
and library (so the repository's own results are untouched), then reports the total wall
time and the per-rule and per-paper costs read from Snakemake's benchmark files (``benchmarks/job_costs.py``):
jobs, wall total, median and max, CPU seconds and peak memory, and every job's own record. Writes ``benchmarks/results/quick_dag.json``. ``--source`` runs another checkout
(e.g. a ``git worktree`` of an older commit, for a before/after table: run both at once with
``--cores 1`` each so that they share the machine alike) and ``--target`` limits the run to some
targets of the DAG.

A run longer than one sitting: ``--workdir DIR`` keeps the copy in ``DIR`` (made on the first
call, never copied over again, so the copied sources keep their times and nothing reruns), and a
later call with the same ``--workdir`` resumes the DAG there. Each sitting's wall and CPU seconds
are appended to ``DIR/sittings.json``; the record sums them. A record of an unfinished run adds the
jobs left per rule (a dry run) and a projection of their wall time from each rule's mean job so far;
``--report-only`` writes the record of the sittings so far without running another. ``--keep-going`` lets independent
jobs go on past a failed one; failed jobs are counted (from Snakemake's log) in the record.

Usage: ``.venv/bin/python benchmarks/bench_quick_dag.py [--cores 2] [--config config/quick.yaml]
[--source DIR] [--target tables/yu2024_table2.tex ...] [--workdir DIR] [--keep-going]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from geobayes.io import provenance, save_json
from job_costs import JobCost, model_experiments, read_job_costs

REPO = Path(__file__).resolve().parents[1]


def cost_table(costs: list[JobCost], key) -> dict[str, dict[str, float]]:
    """Jobs, wall total/median/max, CPU seconds and peak memory per group of jobs (``key`` of a
    :class:`JobCost`: its rule or its paper). CPU time is the number to compare across runs: on a
    loaded machine a job's wall time grows with whatever runs beside it, its CPU time does not."""
    groups: dict[str, list[JobCost]] = {}
    for cost in costs:
        groups.setdefault(key(cost), []).append(cost)
    return {name: {"jobs": len(jobs), "total_s": sum(j.wall_s for j in jobs),
                   "mean_s": statistics.mean(j.wall_s for j in jobs),
                   "median_s": statistics.median(j.wall_s for j in jobs), "max_s": max(j.wall_s for j in jobs),
                   "cpu_s": sum(j.cpu_s for j in jobs if j.cpu_s == j.cpu_s),
                   "max_rss_mb": max(j.max_rss_mb for j in jobs)}
            for name, jobs in sorted(groups.items())}


def run_sitting(work: Path, env: dict, snakemake: str, args, sittings: list[dict]) -> int:
    """Run (or resume) the DAG in ``work``; append the sitting's wall and CPU seconds to ``sittings``."""
    command = [snakemake, *args.target, "--cores", str(args.cores), "--configfile", args.config, "--quiet"]
    if args.keep_going:
        command.append("--keep-going")
    if args.rerun_triggers:
        command += ["--rerun-triggers", *args.rerun_triggers]
    if resuming(work):
        command.append("--rerun-incomplete")  # the jobs an interrupted sitting left behind
    start = time.perf_counter()
    finished = subprocess.run(command, cwd=work, env=env)
    wall = time.perf_counter() - start
    # CPU of this sitting: Snakemake itself and every job it started (waited-for children).
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    sittings.append({"wall_s": wall, "cpu_s": children.ru_utime + children.ru_stime, "returncode": finished.returncode,
                     "load_end": os.getloadavg(), "rerun_triggers": args.rerun_triggers})
    return finished.returncode


def remaining_jobs(work: Path, env: dict, snakemake: str, args) -> dict[str, int]:
    """Jobs per rule that a later sitting would still run (Snakemake's dry-run job stats)."""
    command = [snakemake, *args.target, "-n", "--cores", str(args.cores), "--configfile", args.config,
               "--rerun-incomplete"]
    planned = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
    from geobayes.pipeline.time_left import job_stats

    return {rule: count for rule, count in job_stats(planned.stdout).items() if rule != "total"}


def projected_wall(remaining: dict[str, int], rules: dict[str, dict[str, float]], cores: int) -> float:
    """Wall seconds of the remaining jobs on ``cores`` busy cores, each at its rule's mean job time so
    far (the median rule's mean where a rule has not run yet, as the run's own estimate,
    ``geobayes.pipeline.time_left``): a projection, not a measurement."""
    means = {rule: stats["mean_s"] for rule, stats in rules.items()}
    fallback = statistics.median(means.values()) if means else 0.0
    return sum(count * means.get(rule, fallback) for rule, count in remaining.items()) / cores


def source_commit(source: Path) -> str | None:
    """The commit checked out in ``source`` (whose code the run ran; ``provenance``'s ``git_commit`` is this
    script's own checkout's), or None where it is no git checkout."""
    result = subprocess.run(["git", "-C", str(source), "rev-parse", "HEAD"], capture_output=True, text=True)
    return result.stdout.strip() or None if result.returncode == 0 else None


def copy_workflow(source: Path, work: Path) -> None:
    """Copy the workflow, configs, library and profiles of ``source`` into ``work``."""
    for part in ("workflow", "config", "src", "profiles"):
        shutil.copytree(source / part, work / part, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("Snakefile", "environment.yml"):
        shutil.copy(source / name, work / name)


@contextlib.contextmanager
def work_directory(workdir: Path | None, source: Path):
    """A kept work directory (copied into on first use only) or a temporary one."""
    if workdir is None:
        with tempfile.TemporaryDirectory() as tmp:
            copy_workflow(source, Path(tmp))
            yield Path(tmp)
        return
    if not (workdir / "Snakefile").exists():
        workdir.mkdir(parents=True, exist_ok=True)
        copy_workflow(source, workdir)
    yield workdir


def resuming(work: Path) -> bool:
    """Whether ``work`` holds an earlier sitting (whose interrupted jobs must rerun)."""
    return (work / "sittings.json").exists()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--config", default="config/quick.yaml")
    parser.add_argument("--source", type=Path, default=REPO, help="checkout whose workflow and library run")
    parser.add_argument("--target", action="append", default=[], help="a target file (repeatable); default: all")
    parser.add_argument("--output", default=str(REPO / "benchmarks" / "results" / "quick_dag.json"))
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the run here and resume it on a later call (default: a temporary copy)")
    parser.add_argument("--keep-going", action="store_true", help="go on with independent jobs after a failure")
    parser.add_argument("--report-only", action="store_true",
                        help="with --workdir: write the record of the sittings so far (and the projection of "
                             "the rest) without running another")
    parser.add_argument("--rerun-triggers", nargs="+", default=None,
                        help="Snakemake's --rerun-triggers for this sitting (e.g. 'mtime' to keep jobs finished "
                             "before the work directory's sources were updated by hand)")
    args = parser.parse_args()
    source = args.source.resolve()
    with work_directory(args.workdir.resolve() if args.workdir else None, source) as work:
        env = dict(os.environ)
        env.setdefault("GEOBAYES_DATA_MIRROR", str((REPO / ".." / "shared" / "data").resolve()))
        env["PYTHONPATH"] = str(work / "src")  # the copied library, not the venv's editable install
        snakemake = str(Path(sys.executable).with_name("snakemake"))
        sittings_file = work / "sittings.json"
        sittings = json.loads(sittings_file.read_text()) if sittings_file.exists() else []
        if args.report_only:
            if not sittings:
                raise SystemExit(f"--report-only: {work} has no sitting recorded yet (sittings.json); run one first")
            returncode = sittings[-1]["returncode"]
        else:
            returncode = run_sitting(work, env, snakemake, args, sittings)
            save_json(sittings_file, sittings)
        logs = sorted((work / ".snakemake" / "log").glob("*.snakemake.log"))
        # a failed job prints "Error in rule" (and often "RuleException"); under --quiet only the latter
        failed = sum(max(text.count("Error in rule "), text.count("RuleException:"))
                     for text in (log.read_text() for log in logs))
        # the work directory's own config as written (shipped configs are complete, tested): this
        # process's library may be newer than the copy the DAG ran, and its schema with it
        config = yaml.safe_load((work / args.config).read_text())
        costs = read_job_costs(work, work, model_experiments(config))
        remaining = remaining_jobs(work, env, snakemake, args) if returncode != 0 else {}
    rules, papers = cost_table(costs, lambda c: c.rule), cost_table(costs, lambda c: c.paper)
    wall = sum(s["wall_s"] for s in sittings)
    cpu = sum(s["cpu_s"] for s in sittings)
    busy = sum(r["total_s"] for r in rules.values())
    for title, table in (("rule", rules), ("paper", papers)):
        print(f"per {title}:")
        for name, stats in table.items():
            stats["share_of_job_time"] = stats["total_s"] / busy
            print(f"  {name:28s} jobs {stats['jobs']:4d}  total {stats['total_s']:8.1f} s  median {stats['median_s']:6.1f} s"
                  f"  max {stats['max_s']:7.1f} s  cpu {stats['cpu_s']:7.1f} s  peak {stats['max_rss_mb']:6.0f} MB")
    print(f"wall time {wall:.1f} s on {args.cores} cores in {len(sittings)} sitting(s) ({busy:.1f} s of job time; "
          f"{cpu:.1f} s of CPU in all, Snakemake included); {failed} failed job(s)")
    projection = {}
    if returncode != 0:
        projection = {"remaining_jobs": remaining,
                      "projected_remaining_wall_s": projected_wall(remaining, rules, args.cores)}
        print(f"{sum(remaining.values())} jobs left; at this run's mean job time of each rule (the median rule's "
              f"mean for a rule not run yet) on {args.cores} cores about "
              f"{projection['projected_remaining_wall_s'] / 60:.0f} more minutes")
    save_json(args.output, {"config": args.config, "cores": args.cores, "wall_s": wall, "source": str(source),
                            "source_commit": source_commit(source),
                            "targets": args.target, "cpu_s": cpu, "sittings": sittings, "failed_jobs": failed,
                            "complete": returncode == 0, **projection,
                            "job_time_s": busy, "rules": rules, "papers": papers,
                            "jobs": [c._asdict() for c in costs], "provenance": provenance()})
    if returncode != 0:
        sys.exit(returncode)


if __name__ == "__main__":
    main()
