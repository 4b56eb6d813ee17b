"""Compilation shared across posteriors of equal shapes: a library against an earlier one.

The persistent compilation cache (config ``compilation_cache``) lets a job load the executable an
earlier job compiled, but only where the two programs are the same. A scalar hyperparameter held
as a Python float (a prior or noise variance) is a constant in the program, so posteriors that
differ only in it, such as Bergamin et al.'s optimised and fixed priors and one optimised prior
per seed, compiled separately; :mod:`geobayes.hyperparameter` makes it an argument instead.

With ``--rule reference`` it does the same for the NUTS reference jobs: NumPyro's compiled loop
closed over the posterior, so its data were constants of the program and a data set's raw and
standardised references compiled apart; :func:`geobayes.samplers.nuts.nuts_mcmc` passes them as
an argument (no compile seconds are logged there: job seconds only).

This script reruns the approximation jobs of some posteriors of a finished run (``--workdir``),
in place, once with each library (``--baseline``, e.g. a ``git worktree`` of an older commit's
``src``, then ``--source``), each time from an empty compilation cache, and reports per library
the jobs' compile seconds (the ``compile_s`` of each job's first repetition: tracing, lowering
and the XLA compilations it did not load), their job seconds (Snakemake's benchmark files) and
the run's wall time, per method and in all; and whether the two libraries drew the same samples
(bit for bit). The results tree is left with the last library's draws.

Usage (from the repository root, after a quick run kept with ``bench_quick_dag.py --workdir``)::

    git worktree add /tmp/before <old commit>
    .venv/bin/python benchmarks/bench_shared_compilation.py --workdir /path/to/quick/tree \\
        --baseline /tmp/before/src                                # ~8 min on 2 cores
    .venv/bin/python benchmarks/bench_shared_compilation.py --workdir /path/to/quick/tree \\
        --baseline /tmp/before/src --rule reference --posteriors heart_raw-logreg heart_standardised-logreg \\
        --output benchmarks/results/shared_compilation_reference.json

Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "shared_compilation.json"
#: Bergamin et al.'s classifiers of the quick run: two priors x two seeds (banana, ionosphere), two
#: priors (pinwheel), every approximation each.
DEFAULT_POSTERIORS = tuple(
    [f"banana_{prior}_seed{seed}-softmax16x16" for prior in ("optimised", "fixed") for seed in (0, 1)]
    + [f"ionosphere_{prior}_seed{seed}-softmax50" for prior in ("optimised", "fixed") for seed in (0, 1)]
    + [f"pinwheel_{prior}_seed0-softmax20x20" for prior in ("optimised", "fixed")])
_COMPILE = re.compile(r"rep 0: .*'compile_s': ([0-9.]+)")


def approximation_targets(workdir: Path, posteriors, anchor: str) -> list[tuple[str, str, str]]:
    """(posterior, method, first repetition's draws file) of every approximation of ``posteriors``
    that the run in ``workdir`` made at ``anchor``."""
    targets = []
    for posterior in posteriors:
        folder = workdir / "results" / "approximation" / posterior / anchor
        if not folder.is_dir():
            raise SystemExit(f"--posteriors: {folder} does not exist; run the DAG in --workdir first")
        for method in sorted(p.name for p in folder.iterdir() if (p / "seed0" / "samples.npz").exists()):
            targets.append((posterior, method, f"results/approximation/{posterior}/{anchor}/{method}/seed0/samples.npz"))
    return targets


def reference_targets(workdir: Path, posteriors) -> list[tuple[str, str, str]]:
    """(posterior, ``nuts``, draws file) of the NUTS reference of each of ``posteriors`` in ``workdir``."""
    targets = []
    for posterior in posteriors:
        target = f"results/reference/{posterior}/nuts.npz"
        if not (workdir / target).exists():
            raise SystemExit(f"--posteriors: {workdir / target} does not exist; run the DAG in --workdir first")
        targets.append((posterior, "nuts", target))
    return targets


def job_files(workdir: Path, rule: str, posterior: str, method: str, anchor: str) -> tuple[Path, Path]:
    """The log and the Snakemake benchmark file of one job of ``rule``."""
    if rule == "reference":
        return (workdir / "logs" / "reference" / f"{posterior}.{method}.log",
                workdir / "logs" / "benchmarks" / "reference" / f"{posterior}.{method}.tsv")
    return (workdir / "logs" / "approximation" / posterior / anchor / f"{method}.log",
            workdir / "logs" / "benchmarks" / "approximation" / posterior / anchor / f"{method}.tsv")


def rerun(workdir: Path, library: Path, targets, args) -> dict:
    """Rerun ``targets`` with ``library`` on the import path and an empty compilation cache."""
    files = [t for _, _, t in targets]
    with tempfile.TemporaryDirectory(prefix="bench_shared_compilation_") as cache:
        env = {**os.environ, "PYTHONPATH": str(library), "JAX_COMPILATION_CACHE_DIR": cache}
        command = [sys.executable, "-m", "snakemake", "--cores", str(args.cores), "--configfile", args.config,
                   "--quiet", "--allowed-rules", args.rule, "--forcerun", *files, "--", *files]
        start = time.perf_counter()
        done = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"rerunning with {library} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    jobs = []
    for posterior, method, target in targets:
        log, benchmark = job_files(workdir, args.rule, posterior, method, args.anchor)
        found = _COMPILE.search(log.read_text())
        job_s = float(benchmark.read_text().splitlines()[1].split("\t")[0])
        with np.load(workdir / target) as draws:
            arrays = {key: draws[key].copy() for key in draws.files}
        jobs.append({"posterior": posterior, "method": method, "compile_s": float(found.group(1)) if found else None,
                     "job_s": job_s, "draws": arrays})
    return {"library": str(library), "wall_s": wall, "jobs": jobs}


def totals(run: dict) -> dict:
    """Compile and job seconds of a rerun, in all and per method."""
    per_method: dict[str, dict[str, float]] = {}
    for job in run["jobs"]:
        entry = per_method.setdefault(job["method"], {"jobs": 0, "compile_s": 0.0, "job_s": 0.0})
        entry["jobs"] += 1
        entry["compile_s"] += job["compile_s"] or 0.0
        entry["job_s"] += job["job_s"]
    logged = any(job["compile_s"] is not None for job in run["jobs"])  # reference jobs log none
    return {"library": run["library"], "wall_s": run["wall_s"], "jobs": len(run["jobs"]),
            "compile_s": sum(m["compile_s"] for m in per_method.values()) if logged else None,
            "job_s": sum(m["job_s"] for m in per_method.values()), "per_method": per_method,
            "per_job": [{k: v for k, v in job.items() if k != "draws"} for job in run["jobs"]]}


def _seconds(value) -> str:
    """``value`` to one decimal, or ``--`` where no compile seconds were logged."""
    return "--" if value is None else f"{value:.1f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workdir", type=Path, required=True, help="a results tree of a finished run")
    parser.add_argument("--config", default="config/quick.yaml", help="the run's config file, relative to --workdir")
    parser.add_argument("--baseline", type=Path, required=True, help="the earlier library (a checkout's src)")
    parser.add_argument("--source", type=Path, default=REPO / "src", help="the library measured (default: this one)")
    parser.add_argument("--posteriors", nargs="+", default=list(DEFAULT_POSTERIORS))
    parser.add_argument("--anchor", default="euclidean")
    parser.add_argument("--rule", choices=("approximate", "reference"), default="approximate",
                        help="rerun the posteriors' approximations (every method) or their NUTS references")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    for library in (args.baseline, args.source):
        if not (library / "geobayes" / "__init__.py").exists():
            raise SystemExit(f"{library}: not a library source folder (no geobayes/__init__.py in it)")

    from geobayes.io import provenance, save_json

    targets = (reference_targets(args.workdir, args.posteriors) if args.rule == "reference"
               else approximation_targets(args.workdir, args.posteriors, args.anchor))
    runs = []
    for library in (args.baseline, args.source):
        runs.append(rerun(args.workdir, library, targets, args))
        summary = totals(runs[-1])
        print(f"{library}: {summary['jobs']} jobs, compile {_seconds(summary['compile_s'])} s, "
              f"job time {summary['job_s']:.1f} s, wall {summary['wall_s']:.1f} s", flush=True)
    before, after = (totals(run) for run in runs)
    identical = [a["draws"].keys() == b["draws"].keys()
                 and all(np.array_equal(a["draws"][k], b["draws"][k]) for k in a["draws"])
                 for a, b in zip(runs[0]["jobs"], runs[1]["jobs"])]
    # Where not bit-identical: each job's largest absolute difference over its float arrays of equal shape.
    differences = [max([float(np.max(np.abs(a["draws"][k] - b["draws"][k]))) for k in a["draws"]
                        if k in b["draws"] and a["draws"][k].shape == b["draws"][k].shape
                        and np.issubdtype(a["draws"][k].dtype, np.floating) and a["draws"][k].size], default=0.0)
                   for a, b in zip(runs[0]["jobs"], runs[1]["jobs"])]
    difference = max(differences, default=0.0)
    for job, value in zip(after["per_job"], differences):
        job["max_abs_difference_to_before"] = value
        print(f"{job['posterior']} {job['method']}: largest difference to the earlier library {value:.3g}")
    print("| method | jobs | compile s before | after | job s before | after |")
    print("|---|---|---|---|---|---|")
    for method, entry in before["per_method"].items():
        new = after["per_method"][method]
        print(f"| {method} | {entry['jobs']} | {_seconds(before['compile_s'] and entry['compile_s'])} | "
              f"{_seconds(after['compile_s'] and new['compile_s'])} | "
              f"{entry['job_s']:.1f} | {new['job_s']:.1f} |")
    print(f"| all | {before['jobs']} | {_seconds(before['compile_s'])} | {_seconds(after['compile_s'])} | "
          f"{before['job_s']:.1f} | {after['job_s']:.1f} |")
    print(f"draws bit-identical in {sum(identical)} of {len(identical)} jobs; largest difference {difference:.3g}")
    save_json(args.output, {"provenance": provenance(), "rule": args.rule, "posteriors": args.posteriors,
                            "anchor": args.anchor,
                            "cores": args.cores, "before": before, "after": after,
                            "compile_ratio": (before["compile_s"] / after["compile_s"]
                                              if before["compile_s"] and after["compile_s"] else None),
                            "job_time_ratio": before["job_s"] / after["job_s"],
                            "draws_identical": {"jobs": len(identical), "identical": sum(identical),
                                                "max_abs_difference": difference},
                            "load_average_end": os.getloadavg()})
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("GEOBAYES_DATA_MIRROR", str(REPO.parent / "shared" / "data"))
    raise SystemExit(main())
