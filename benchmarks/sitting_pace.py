"""How fast is this sitting? The same jobs with a recorded run's code, now, against that run's record.

A quick DAG run's minutes depend on the sitting: the same jobs of the same code took 1.2-1.5x as long on one day as on
another on this machine kind (benchmarks/README, "The fifth run" onwards), so a whole run's wall time against issue
16's 45 minutes says little without its sitting's pace. This measures it. A fixed set of targets (default: the ten
logistic-regression posteriors' data, MAP, ELA and NUTS reference, 45 jobs, about two minutes on 2 cores) runs from an
empty results tree, by turns with the code of a recorded run (a clone checked out at the commit its record names,
that clone's library first on ``PYTHONPATH``) and with the current commit, ``--rounds`` times each (baseline, current,
baseline, current, ...). Over the jobs both runs and both records hold (rules in ``--exclude-rules`` apart), each
job's median over the rounds is summed, and three ratios of job seconds are reported:

* ``baseline_now / baseline_record``: this sitting's pace against the baseline record's sitting, the same code;
* ``current_now / current_record``: this sitting against the current record's sitting;
* ``current_now / baseline_now``: the code's change on the same jobs, same machine, same sitting.

So the current record's wall time at the baseline sitting's pace is about ``wall x (baseline_record /
baseline_now) x (current_now / current_record)``. The ratio holds for the jobs run (NUTS-heavy by default), not
necessarily for every rule. Uncommitted changes are not measured: the current code is a clone of ``HEAD``.

Usage::

    python benchmarks/sitting_pace.py --baseline-record benchmarks/results/quick_dag_eded258.json \\
        --current-record benchmarks/results/quick_dag.json --output benchmarks/results/sitting_pace.json
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from compare_dag_records import load_record
from job_costs import model_experiments, read_job_costs

from geobayes.io import provenance, save_json

REPO = Path(__file__).resolve().parents[1]


def default_targets(config: dict) -> list[str]:
    """Every logistic-regression posterior's MAP, ELA draws (repetition ``seed``) and NUTS reference (the config's
    ``experiments.logreg`` data sets x inputs: ten at quick scale)."""
    logreg, targets = config["experiments"]["logreg"], []
    for dataset in logreg["datasets"]:
        for inputs in logreg["inputs"]:
            posterior = f"{dataset}_{inputs}-logreg"
            targets += [f"results/map/{posterior}/euclidean.npz", f"results/reference/{posterior}/nuts.json",
                        f"results/approximation/{posterior}/euclidean/ela/seed{config['seed']}/samples.json"]
    return targets


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-record", type=Path, required=True,
                        help="a bench_quick_dag.py record; its provenance names the commit rerun as the baseline")
    parser.add_argument("--current-record", type=Path, required=True, help="the record of the current code's run")
    parser.add_argument("--targets", nargs="+", default=None, help="Snakemake targets (default: the logistic regressions)")
    parser.add_argument("--config", default="config/quick.yaml", help="the runs' config, relative to each clone")
    parser.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE",
                        help="Snakemake --config overrides for both codes' runs (e.g. warm_start=False)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each code, by turns")
    parser.add_argument("--exclude-rules", nargs="*", default=["download"],
                        help="rules left out of the sums (download: copies from the mirror, seconds of start-up)")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--output", type=Path, required=True, help="JSON record")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be >= 1; got {args.rounds}")
    return args


def recorded_commit(record: dict, path: Path) -> str:
    """The commit a record's run used (its provenance), or one line naming the record."""
    commit = (record.get("provenance") or {}).get("git_commit")
    if not commit:
        sys.exit(f"sitting_pace: {path} names no commit (provenance.git_commit): cannot rerun its code")
    return commit


def clone_at(commit: str, into: Path) -> Path:
    """A clone of this repository checked out at ``commit``; one line naming it if it is unknown."""
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(into)], check=True)
    checkout = subprocess.run(["git", "-C", str(into), "checkout", "--quiet", commit], capture_output=True, text=True)
    if checkout.returncode != 0:
        sys.exit(f"sitting_pace: commit {commit} is not in {REPO} ({checkout.stderr.strip().splitlines()[-1]})")
    return into


def run_round(clone: Path, targets: list[str], args, env: dict) -> dict[str, tuple[str, float]]:
    """The targets from an empty results tree with the clone's code: benchmark path -> (rule, wall seconds)."""
    for tree in ("results", "logs", "data", ".snakemake"):
        shutil.rmtree(clone / tree, ignore_errors=True)
    command = [str(Path(sys.executable).with_name("snakemake")), *targets, "--cores", str(args.cores),
               "--configfile", args.config, *(["--config", *args.set] if args.set else [])]
    run_env = {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(clone / "src"), env.get("PYTHONPATH")]))}
    done = subprocess.run(command, cwd=clone, env=run_env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"sitting_pace: the targets failed with the code of {clone.name}: {snakemake_error(done.stderr)}")
    config = yaml.safe_load((clone / args.config).read_text())
    return {cost.path: (cost.rule, cost.wall_s) for cost in read_job_costs(clone, clone, model_experiments(config))}


def snakemake_error(stderr: str) -> str:
    """The line of Snakemake's output that names what went wrong, with the one after it (e.g.
    ``MissingRuleException: No rule to produce ...``, ``Error in rule map: jobid: 3``)."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    first = next((i for i, line in enumerate(lines) if "Error" in line or "Exception" in line), None)
    return " ".join(lines[first:first + 2]) if first is not None else (lines[-1] if lines else "no output")


def job_seconds(rounds: list[dict[str, tuple[str, float]]]) -> dict[str, tuple[str, float]]:
    """Each job's median wall seconds over the rounds (jobs every round ran)."""
    shared = set.intersection(*(set(one) for one in rounds))
    return {path: (rounds[0][path][0], statistics.median(one[path][1] for one in rounds)) for path in shared}


def compare(baseline_now: dict, current_now: dict, baseline_record: dict, current_record: dict,
            exclude_rules=("download",)) -> dict:
    """Job seconds by rule over the jobs all four hold, and the three pace ratios (see the module docstring).

    ``*_now``: path -> (rule, seconds) of this sitting; ``*_record``: bench_quick_dag.py records.
    """
    recorded = [{job["path"]: job["wall_s"] for job in record["jobs"]} for record in (baseline_record, current_record)]
    paths = set(baseline_now) & set(current_now) & set(recorded[0]) & set(recorded[1])
    paths = sorted(path for path in paths if baseline_now[path][0] not in exclude_rules)
    if not paths:
        sys.exit("sitting_pace: the runs and the records share no job: were the targets in both records' runs?")
    columns = {"baseline_now": lambda p: baseline_now[p][1], "current_now": lambda p: current_now[p][1],
               "baseline_record": lambda p: recorded[0][p], "current_record": lambda p: recorded[1][p]}
    rules: dict[str, dict[str, float]] = {}
    for path in paths:
        row = rules.setdefault(baseline_now[path][0], {"jobs": 0, **dict.fromkeys(columns, 0.0)})
        row["jobs"] += 1
        for name, seconds in columns.items():
            row[name] += seconds(path)
    totals = {name: sum(row[name] for row in rules.values()) for name in columns}
    return {
        "jobs": len(paths),
        "excluded_rules": list(exclude_rules),
        "unmatched_jobs": len((set(baseline_now) | set(current_now)) - set(paths)),
        "rules": rules,
        "job_seconds": totals,
        "ratios": {
            "baseline_now_over_record": totals["baseline_now"] / totals["baseline_record"],
            "current_now_over_record": totals["current_now"] / totals["current_record"],
            "current_over_baseline_now": totals["current_now"] / totals["baseline_now"],
        },
    }


def main(argv=None) -> int:
    args = parse_args(argv)
    records = {label: load_record(path) for label, path in
               (("baseline", args.baseline_record), ("current", args.current_record))}
    baseline_commit = recorded_commit(records["baseline"], args.baseline_record)
    current_commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True,
                                    text=True, check=True).stdout.strip()
    targets = args.targets or default_targets(yaml.safe_load((REPO / args.config).read_text()))
    env = dict(os.environ)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sitting_pace_") as scratch:
        clones = {"baseline": clone_at(baseline_commit, Path(scratch) / "baseline"),
                  "current": clone_at(current_commit, Path(scratch) / "current")}
        rounds: dict[str, list] = {"baseline": [], "current": []}
        for index in range(args.rounds):
            for label in ("baseline", "current"):
                began = time.perf_counter()
                rounds[label].append(run_round(clones[label], targets, args, env))
                print(f"[{time.perf_counter() - started:7.1f}s] round {index + 1} {label}: "
                      f"{time.perf_counter() - began:.1f} s", flush=True)
    comparison = compare(job_seconds(rounds["baseline"]), job_seconds(rounds["current"]), records["baseline"],
                         records["current"], tuple(args.exclude_rules))
    record = {
        "benchmark": "sitting_pace",
        "baseline": {"record": str(args.baseline_record), "commit": baseline_commit},
        "current": {"record": str(args.current_record), "commit": current_commit},
        "targets": targets, "config": args.config, "set": args.set, "rounds": args.rounds, "cores": args.cores,
        **comparison,
        "load_average_end": list(os.getloadavg()),
        "total_wall_s": time.perf_counter() - started,
        "provenance": provenance(),
    }
    save_json(args.output, record)
    ratios = comparison["ratios"]
    print(f"{comparison['jobs']} jobs: baseline now / its record {ratios['baseline_now_over_record']:.2f}, "
          f"current now / its record {ratios['current_now_over_record']:.2f}, "
          f"current / baseline now {ratios['current_over_baseline_now']:.2f}; wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
