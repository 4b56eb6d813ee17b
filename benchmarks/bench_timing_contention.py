"""Timing jobs alone on two cores against one core beside a busy job: what ``timing_threads`` costs.

The timing rules (``time_sampling``, ``time_wg``, ``time_bnn_scalability``) hold
``timing_threads`` cores. At 2, the papers' protocol (Yu et al. 2024 timed each task on two
cores), a 2-core run holds them alone, and every second of theirs is a second of wall time;
at 1 they run beside another job. This script reruns a few timing jobs of an existing results
tree (a finished quick run: their inputs must be there) under three conditions, interleaved
round by round so that a drift of the machine's pace hits all three alike:

* ``alone_2``: ``timing_threads`` 2, nothing else running (the papers' protocol);
* ``alone_1``: ``timing_threads`` 1, nothing else running;
* ``beside_1``: ``timing_threads`` 1 beside a CPU-bound single-thread JAX loop standing in
  for the other job a 2-core run gives it.

Per job and method it records each round's seconds per sample and reports the medians, the
ratio of each condition to ``alone_2``, and, as the scale of run-to-run noise, the spread of
``alone_2`` over its rounds (max / min).

Usage (from the repository root, on an idle machine; each round reruns every job three times)::

    .venv/bin/python benchmarks/bench_timing_contention.py --workdir /path/to/quick/tree   # ~15 min
    .venv/bin/python benchmarks/bench_timing_contention.py --workdir TREE --rounds 1 \\
        --targets results/timing_wg/heart-bernreg.json --output /tmp/smoke.json

Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "timing_contention.json"
DEFAULT_TARGETS = (
    "results/timing_wg/heart-bernreg.json",
    "results/timing_wg/usps357-multigp.json",
    "results/timing/heart_raw-logreg/rla_b.json",
    "results/timing/heart_raw-logreg/rla_f.json",
    "results/bnn_scalability/timing/h10_n1000_rep0/rla_b.json",
    "results/bnn_scalability/timing/h10_n1000_rep0/rla_f.json",
)
CONDITIONS = {"alone_2": (2, False), "alone_1": (1, False), "beside_1": (1, True)}

#: The busy neighbour: one thread of jitted dense layers, as most of the pipeline's jobs are.
BURNER = textwrap.dedent("""
    import os, time
    os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    import jax, jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)
    w = jax.random.normal(jax.random.PRNGKey(0), (64, 64))
    @jax.jit
    def step(x):
        for _ in range(20):
            x = jnp.tanh(x @ w) * 0.5
        return x
    x = jnp.ones((256, 64))
    while True:
        x = step(x).block_until_ready()
""")


def rule_of(target: str) -> str:
    """The timing rule that writes ``target``."""
    if target.startswith("results/timing_wg/"):
        return "time_wg"
    if target.startswith("results/timing/"):
        return "time_sampling"
    if target.startswith("results/bnn_scalability/timing/"):
        return "time_bnn_scalability"
    raise SystemExit(f"--targets: {target} is not an output of a timing rule")


def seconds_per_sample(record: dict) -> dict[str, float]:
    """Per-method seconds per sample of one timing record (``time_wg``: every method and NUTS;
    the others: one at a time and batched)."""
    if "per_method" in record:
        return {entry["method"]: entry["per_sample_s"] for entry in record["per_method"]}
    return {"one_at_a_time": record["per_sample_s"], "batched": record["batched_s_per_sample"]}


def rerun(workdir: Path, target: str, threads: int, config: str) -> dict[str, float]:
    """Rerun the job writing ``target`` with ``timing_threads`` = ``threads``; its seconds per sample."""
    command = [sys.executable, "-m", "snakemake", "--cores", "2", "--rerun-triggers", "mtime",
               "--config", f"timing_threads={threads}", "--forcerun", target, "--configfile", config,
               "--", target]
    done = subprocess.run(command, cwd=workdir, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"rerunning {target} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return seconds_per_sample(json.loads((workdir / target).read_text()))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workdir", type=Path, required=True,
                        help="a results tree of a finished run (its timing jobs are rerun in place)")
    parser.add_argument("--config", default="config/quick.yaml", help="the run's config file, relative to --workdir")
    parser.add_argument("--targets", nargs="+", default=list(DEFAULT_TARGETS))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    for target in args.targets:
        rule_of(target)
        if not (args.workdir / target).exists():
            raise SystemExit(f"--targets: {args.workdir / target} does not exist; run the DAG in --workdir first")

    from geobayes.io import provenance, save_json

    measured: dict[str, dict[str, dict[str, list[float]]]] = {}
    for round_index in range(args.rounds):
        for condition, (threads, busy) in CONDITIONS.items():
            burner = subprocess.Popen([sys.executable, "-c", BURNER]) if busy else None
            try:
                if burner is not None:
                    time.sleep(3.0)  # past its compilation
                for target in args.targets:
                    for method, value in rerun(args.workdir, target, threads, args.config).items():
                        measured.setdefault(target, {}).setdefault(method, {}).setdefault(condition, []).append(value)
            finally:
                if burner is not None:
                    burner.kill()
                    burner.wait()
            print(f"round {round_index + 1}/{args.rounds}: {condition} done", flush=True)

    rows = []
    for target, methods in measured.items():
        for method, by_condition in methods.items():
            medians = {c: statistics.median(v) for c, v in by_condition.items()}
            alone = by_condition["alone_2"]
            rows.append({
                "target": target, "rule": rule_of(target), "method": method,
                "seconds_per_sample": by_condition,
                "median_s": medians,
                "ratio_to_alone_2": {c: medians[c] / medians["alone_2"] for c in medians},
                "alone_2_spread": max(alone) / min(alone),
            })
            ratios = " ".join(f"{c}={r:.2f}" for c, r in rows[-1]["ratio_to_alone_2"].items())
            print(f"{target:60s} {method:14s} {ratios}  alone_2 spread {rows[-1]['alone_2_spread']:.2f}")
    save_json(args.output, {"rounds": args.rounds, "conditions": {c: {"timing_threads": t, "beside_busy_job": b}
                                                                   for c, (t, b) in CONDITIONS.items()},
                            "workdir_config": args.config, "rows": rows, "provenance": provenance()})
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("GEOBAYES_DATA_MIRROR", str(REPO.parent / "shared" / "data"))
    raise SystemExit(main())
