"""The wall time of a DAG run replayed as a list schedule from a record's per-job costs.

Takes a ``bench_quick_dag.py`` record (every job's wall seconds, keyed by its benchmark file) and
the DAG of a dry run (``snakemake -n --forceall``: each job's rule, inputs, outputs and benchmark
file), and schedules the jobs greedily on ``--cores`` cores: a job starts once its inputs are made
and its threads are free, in the dry run's order. ``--timing-threads`` sets the cores a timing
job (rules ``time_*``) holds, so one record gives the wall time with the timing jobs alone on both
cores and beside the others. Replaying the sixth quick run (9318deb) gave 4,139 s against its
measured 4,181 s with the timing jobs on two cores, and 3,810 s on one (its job costs unchanged).

Usage (from the repository root; the dry run in a copy of the workflow, as ``bench_quick_dag.py`` makes)::

    .venv/bin/snakemake -n --forceall --cores 2 --configfile config/quick.yaml > /tmp/dag.log
    .venv/bin/python benchmarks/simulate_schedule.py benchmarks/results/quick_dag.json /tmp/dag.log

Only reads its inputs; prints the replayed wall times.
"""

from __future__ import annotations

import argparse
import heapq
import json
import re
from collections import defaultdict
from pathlib import Path

#: A job block of Snakemake's dry-run output.
JOB_BLOCK = re.compile(r"^(?:local)?rule (\w+):\n((?:[ \t]+.*\n?)*)", re.M)


def dag_jobs(dry_run: str) -> list[dict]:
    """Every job of a dry run: rule, inputs, outputs and benchmark file."""
    jobs = []
    for rule, body in JOB_BLOCK.findall(dry_run):
        field = {name: re.search(rf"^\s+{name}: (.*)$", body, re.M) for name in ("input", "output", "benchmark")}
        jobs.append({"rule": rule, "benchmark": field["benchmark"].group(1) if field["benchmark"] else None,
                     **{name: field[name].group(1).split(", ") if field[name] else []
                        for name in ("input", "output")}})
    return jobs


def replay(jobs: list[dict], seconds: dict[str, float], cores: int, timing_threads: int,
           default_s: float) -> float:
    """Greedy list schedule of ``jobs`` on ``cores``; the time the last one ends."""
    producer = {path: i for i, job in enumerate(jobs) for path in job["output"]}
    waiting = [len({producer[p] for p in job["input"] if p in producer}) for job in jobs]
    children = defaultdict(list)
    for i, job in enumerate(jobs):
        for parent in {producer[p] for p in job["input"] if p in producer}:
            children[parent].append(i)
    ready = sorted(i for i, n in enumerate(waiting) if n == 0)
    now, free, running, finished = 0.0, cores, [], 0
    while finished < len(jobs):
        for i in list(ready):
            threads = min(timing_threads if jobs[i]["rule"].startswith("time_") else 1, cores)
            if threads <= free:
                ready.remove(i)
                free -= threads
                heapq.heappush(running, (now + seconds.get(jobs[i]["benchmark"], default_s), i, threads))
        now, i, threads = heapq.heappop(running)
        free += threads
        finished += 1
        for child in children[i]:
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)
        ready.sort()
    return now


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("record", type=Path, help="a bench_quick_dag.py record")
    parser.add_argument("dry_run", type=Path, help="the output of snakemake -n --forceall for the same config")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--timing-threads", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--default-s", type=float, default=0.5, help="seconds of a job the record lacks")
    args = parser.parse_args(argv)
    record = json.loads(args.record.read_text())
    seconds = {job["path"]: job["wall_s"] for job in record["jobs"]}
    jobs = dag_jobs(args.dry_run.read_text())
    lacking = sum(job["benchmark"] not in seconds for job in jobs)
    print(f"{len(jobs)} jobs ({lacking} without a recorded cost, {args.default_s} s each); "
          f"recorded wall {record['wall_s']:.0f} s, job time {sum(seconds.values()):.0f} s")
    for threads in args.timing_threads:
        wall = replay(jobs, seconds, args.cores, threads, args.default_s)
        print(f"timing jobs on {threads} core(s): replayed wall {wall:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
