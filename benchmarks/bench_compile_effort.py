"""Compile and run seconds of approximation jobs with optimised and with fast XLA programs.

A job's compile effort (config ``fast_compile``, :mod:`geobayes.pipeline.compile_effort`) is set
per process before JAX starts, so each (job, effort) runs in a fresh interpreter: the job's first
repetition replayed from a results tree of the pipeline (its posterior, MAP and the recorded
``approximation`` and ``model`` config of its sidecar, its data file as Snakemake's metadata in the
tree recorded it, run as ``workflow/scripts/approximate.py`` runs it), with no persistent
compilation cache, pinned to one CPU (``--cpu``). ``--repeats`` rounds, the efforts' order
alternating by round; per job and effort the median compile seconds (JAX's tracing, lowering and
XLA's compilation of fit and sample, :class:`geobayes.pipeline.compile_clock.CompileClock`) and
run seconds (the rest of fit and sample), their ratios, and the largest difference between the
two efforts' draws. Speed is measured here, never asserted in tests.

Usage (from the repository root; a tree with the jobs' results, e.g. a quick run's)::

    .venv/bin/python benchmarks/bench_compile_effort.py --tree /path/to/quick_run --repeats 2 \
        --output benchmarks/results/compile_effort.json
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from replayed_job import missing_job, replay_arguments, run_child, save_record

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "compile_effort.json"
#: posterior/anchor/method of the quick run, compile-bound and run-bound kinds side by side.
DEFAULT_JOBS = (
    "d5-gaussian/euclidean/rla_b", "d5-gaussian/euclidean/rla_f", "d5-gaussian/euclidean/ela",
    "d5-gaussian/euclidean/rla_blog", "neal-funnel/hausdorff/rla_f", "hartmann-squiggle/hausdorff/wg",
    "hartmann-squiggle/hausdorff/svgd", "pima-bernreg/euclidean/wg", "pima-bernreg/euclidean/ela",
    "pima-poisgp/euclidean/wg", "pima_standardised-logreg/euclidean/rla_f", "heart_raw-logreg/euclidean/rla_b",
)

CHILD = r"""
import json, sys, time
sys.path.insert(0, "benchmarks")
from replayed_job import load_job
from geobayes.pipeline.compile_effort import use_compile_effort
tree, job, effort, out = sys.argv[1:5]
use_compile_effort(effort)
import jax, jax.numpy as jnp, numpy as np
import geobayes  # float64
from geobayes.floating_point import floating_point
from geobayes.io import load_npz
from geobayes.methods import get_method, method_config
from geobayes.optimize import tangent_precision
from geobayes.pipeline.compile_clock import CompileClock
from geobayes.pipeline.posteriors import build_posterior
from geobayes.random import derive_key
name, anchor, method = job.split("/")
side, approximation, data = load_job(tree, job)  # its sidecar and the data file Snakemake recorded
cfg = {**approximation, "precision": tangent_precision(anchor, side["config"]["model"])}
with floating_point(cfg["dtype"]):
    posterior = build_posterior(name, data, side["config"]["model"])
    mode = jnp.asarray(load_npz(f"{tree}/results/map/{name}/{anchor}.npz")["position"])
    key = derive_key(side["seed"], "approximate", posterior.name, 0)
    clock = CompileClock()
    start = time.perf_counter()
    with clock:
        fitted = get_method(method).fit(posterior, method_config(method, cfg), key, mode=mode)
        draws = jax.block_until_ready(fitted.approximation.sample(key, cfg["samples"]))
    total = time.perf_counter() - start
np.save(out, np.asarray(draws.theta))
print(json.dumps({"compile_s": clock.seconds, "run_s": total - clock.seconds}))
"""


def run_job(tree: Path, job: str, effort: str, out: Path, cpu: int) -> dict:
    """One job's first repetition in a fresh interpreter at ``effort``: its compile and run seconds."""
    return run_child(CHILD, [str(tree), job, effort, str(out)], cpu, f"{job} at {effort}",
                     drop_env=("JAX_COMPILATION_CACHE", "XLA_FLAGS", "JAX_PERSISTENT_CACHE"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    replay_arguments(parser, DEFAULT_JOBS, DEFAULT_OUTPUT)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    missing = missing_job(args.tree, args.jobs)
    if missing:
        raise SystemExit(f"error: no results of {missing} under {args.tree} (run its approximation first)")

    import numpy as np

    efforts = ("optimised", "fast")
    start, rows = time.perf_counter(), []
    with tempfile.TemporaryDirectory() as tmp:
        for job in args.jobs:
            calls = {effort: [] for effort in efforts}
            draws = {}
            for round_ in range(args.repeats):
                for effort in (efforts if round_ % 2 == 0 else efforts[::-1]):
                    out = Path(tmp) / f"{effort}.npy"
                    calls[effort].append(run_job(args.tree, job, effort, out, args.cpu))
                    draws[effort] = np.load(out)
            row = {"job": job}
            for effort in efforts:
                for part in ("compile_s", "run_s"):
                    row[f"{effort}_{part}"] = statistics.median(call[part] for call in calls[effort])
            row["compile_ratio"] = row["optimised_compile_s"] / row["fast_compile_s"]
            row["run_ratio"] = row["optimised_run_s"] / max(row["fast_run_s"], 1e-9)
            row["total_ratio"] = ((row["optimised_compile_s"] + row["optimised_run_s"])
                                  / (row["fast_compile_s"] + row["fast_run_s"]))
            row["max_abs_diff"] = float(np.max(np.abs(draws["fast"] - draws["optimised"])))
            rows.append(row)
            print(f"[{time.perf_counter() - start:6.0f}s] {job:45s} compile {row['optimised_compile_s']:6.2f} -> "
                  f"{row['fast_compile_s']:6.2f} s, run {row['optimised_run_s']:6.2f} -> {row['fast_run_s']:6.2f} s, "
                  f"total {row['total_ratio']:.2f}x, max |diff| {row['max_abs_diff']:.1e}", flush=True)
    save_record(args, "compile_effort", __doc__.split("\n\n")[0], rows, start)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
