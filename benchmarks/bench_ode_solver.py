"""Seconds, steps and accuracy of geodesic approximation jobs with each explicit Runge-Kutta solver.

Dopri5 (the papers' solver) spends 6 new vector-field evaluations an accepted or rejected step,
Bogacki-Shampine 3(2) (``bosh3``) 3. Where a geodesic's step size is capped by the solver's
stability rather than its accuracy (raw-input logistic regression: a thousand steps a geodesic at
``rtol = 1e-3``), Bosh3 takes about as many steps as Dopri5 and so costs about half. This replays a
finished run's geodesic approximation jobs (their posterior, MAP and recorded ``approximation``
and ``model`` config, their data file as Snakemake's metadata recorded it, as
``workflow/scripts/approximate.py`` runs them; ``bench_compile_effort.py``'s replay) with each
solver at the job's own tolerances, in one fresh interpreter per job pinned to one CPU:

* **time**: the job's first repetition (its ``samples`` draws under its schedule), one warm-up
  (compile) call per solver, then ``--repeats`` timed calls by turns; medians and the ratio to
  Dopri5;
* **steps**: the mean Diffrax steps (accepted and rejected) a draw, and the failed solves;
* **accuracy**: the first ``--accuracy-samples`` draws of every solver against a tight Dopri5 solve
  of the same velocities (``rtol = atol = --reference-tol``): the error ``|theta - theta_ref|``,
  relative to the geodesic's displacement ``|theta_ref - mode|``, median and largest.

Speed is measured here, never asserted in tests.

Usage (from the repository root; a tree with the jobs' results, e.g. a quick run's)::

    .venv/bin/python benchmarks/bench_ode_solver.py --tree /path/to/quick_run \
        --output benchmarks/results/ode_solver.json
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from replayed_job import missing_job, replay_arguments, run_child, save_record

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "ode_solver.json"
#: posterior/anchor/method of the quick run: the raw-input regressions' RLA-B, a standardised one, RLA-F, networks.
DEFAULT_JOBS = (
    "heart_raw-logreg/euclidean/rla_b", "pima_raw-logreg/euclidean/rla_b", "australian_raw-logreg/euclidean/rla_b",
    "german_raw-logreg/euclidean/rla_b", "heart_standardised-logreg/euclidean/rla_b",
    "heart_raw-logreg/euclidean/rla_f", "complete_raw-mlp1x10/euclidean/rla_b",
    "random-mlp1x15/euclidean/rla_b", "vehicle_optimised_seed0-softmax50/euclidean/rla_b",
)

CHILD = r"""
import json, statistics, sys, time
sys.path.insert(0, "benchmarks")
from replayed_job import load_job
import jax, jax.numpy as jnp, numpy as np
import geobayes  # float64
from geobayes.floating_point import floating_point
from geobayes.io import load_npz
from geobayes.methods import get_method, method_config
from geobayes.optimize import tangent_precision
from geobayes.pipeline.posteriors import build_posterior
from geobayes.random import derive_key
tree, job, solvers, repeats, accuracy_samples, reference_tol = sys.argv[1:7]
solvers, repeats, accuracy_samples, reference_tol = solvers.split(","), int(repeats), int(accuracy_samples), float(reference_tol)
name, anchor, method = job.split("/")
side, approximation, data = load_job(tree, job)  # its sidecar and the data file Snakemake recorded
cfg = {**approximation, "precision": tangent_precision(anchor, side["config"]["model"])}
with floating_point(cfg["dtype"]):
    posterior = build_posterior(name, data, side["config"]["model"])
    mode = jnp.asarray(load_npz(f"{tree}/results/map/{name}/{anchor}.npz")["position"])
    key = derive_key(side["seed"], "approximate", posterior.name, 0)

    def sampler(ode):
        fitted = get_method(method).fit(posterior, method_config(method, {**cfg, "ode": {**cfg["ode"], **ode}}), key, mode=mode)
        return lambda n: jax.block_until_ready(fitted.approximation.sample(key, n))

    samplers = {solver: sampler({"solver": solver}) for solver in solvers}
    n = int(side["n_samples"])
    row = {"job": job, "samples": n, "ode": cfg["ode"], "solvers": {}}
    for solver in solvers:
        start = time.perf_counter()
        draws = samplers[solver](n)
        steps = np.asarray(draws.num_steps)
        row["solvers"][solver] = {"first_call_s": time.perf_counter() - start, "times_s": [],
                                  "mean_steps": float(steps.mean()), "max_steps": int(steps.max()),
                                  "n_failed": int(np.sum(~np.asarray(draws.successful)))}
    for _ in range(repeats):
        for solver in solvers:
            start = time.perf_counter()
            samplers[solver](n)
            row["solvers"][solver]["times_s"].append(time.perf_counter() - start)
    tight = sampler({"solver": "dopri5", "rtol": reference_tol, "atol": reference_tol, "max_steps": 1_000_000})
    reference = tight(accuracy_samples)
    ref = np.asarray(reference.theta)
    displacement = np.linalg.norm(ref - np.asarray(mode), axis=1)
    row["reference"] = {"tol": reference_tol, "samples": accuracy_samples,
                        "n_failed": int(np.sum(~np.asarray(reference.successful)))}
    for solver in solvers:
        error = np.linalg.norm(np.asarray(samplers[solver](accuracy_samples).theta) - ref, axis=1)
        entry = row["solvers"][solver]
        entry["median_s"] = statistics.median(entry["times_s"])
        entry["error_median"], entry["error_max"] = float(np.median(error)), float(np.max(error))
        relative = error / np.maximum(displacement, 1e-300)
        entry["relative_error_median"], entry["relative_error_max"] = float(np.median(relative)), float(np.max(relative))
print(json.dumps(row))
"""


def run_job(tree: Path, job: str, solvers: list[str], repeats: int, accuracy_samples: int, reference_tol: float,
            cpu: int) -> dict:
    """One job's solvers compared in a fresh interpreter on CPU ``cpu``."""
    return run_child(CHILD, [str(tree), job, ",".join(solvers), str(repeats), str(accuracy_samples), str(reference_tol)],
                     cpu, job, drop_env=("JAX_COMPILATION_CACHE", "JAX_PERSISTENT_CACHE"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    replay_arguments(parser, DEFAULT_JOBS, DEFAULT_OUTPUT)
    parser.add_argument("--solvers", nargs="+", default=["dopri5", "bosh3"], choices=["dopri5", "tsit5", "bosh3"])
    parser.add_argument("--repeats", type=int, default=2, help="timed calls per solver after the warm-up")
    parser.add_argument("--accuracy-samples", type=int, default=16)
    parser.add_argument("--reference-tol", type=float, default=1e-9)
    args = parser.parse_args(argv)
    if args.solvers[0] != "dopri5":
        parser.error("--solvers must start with dopri5 (the baseline of the ratios)")
    missing = missing_job(args.tree, args.jobs)
    if missing:
        raise SystemExit(f"error: no results of {missing} under {args.tree} (run its approximation first)")

    start, rows = time.perf_counter(), []
    for job in args.jobs:
        row = run_job(args.tree, job, args.solvers, args.repeats, args.accuracy_samples, args.reference_tol, args.cpu)
        base = row["solvers"]["dopri5"]
        for entry in row["solvers"].values():
            entry["speedup_over_dopri5"] = base["median_s"] / entry["median_s"]
        rows.append(row)
        print(f"[{time.perf_counter() - start:6.0f}s] {job}", flush=True)
        for solver, entry in row["solvers"].items():
            print(f"    {solver:7s} {entry['median_s']:8.2f} s ({entry['speedup_over_dopri5']:.2f}x), "
                  f"{entry['mean_steps']:8.1f} steps, {entry['n_failed']} failed, relative error median "
                  f"{entry['relative_error_median']:.1e} max {entry['relative_error_max']:.1e}", flush=True)
    save_record(args, "ode_solver", __doc__.split("\n\n")[0], rows, start)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
