"""Two one-thread jobs side by side, with and without a CPU each (config ``pin_cpus``).

XLA's CPU runtime sizes its thread pool from the CPUs a process may run on, not from the threads
Snakemake gave the job (:mod:`geobayes.pipeline.cpu_slots`). This times one compute-bound job, the
quick run's RLA-B draws on a raw-input logistic regression (Monge metric, refilled lanes of the
quick config's ``approximation.schedule``), in real processes:

* ``alone``: one job, unpinned (XLA's pool on every CPU, the other CPUs idle);
* ``side by side``: two identical jobs at once, unpinned (as ``--cores 2`` ran them before);
* ``side by side, pinned``: two identical jobs at once, each on a CPU of its own
  (:func:`geobayes.pipeline.cpu_slots.claim_cpus`, a private lock directory).

Each job builds the posterior, finds the MAP, fits RLA-B and compiles its sampler ahead of time,
then times one call (``sample(key, n)``). The three layouts go by turns, ``--rounds`` times, so a
burst of load hits them alike. Reported: each layout's median seconds per job, the ratio
unpinned / pinned side by side (work per second gained by pinning), and the largest difference
of the draws between layouts (XLA's threaded kernels round differently for another pool size).
Speed is measured here and never asserted in tests.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_cpu_slots.py                      # ~2 min on 2 cores
    .venv/bin/python benchmarks/bench_cpu_slots.py --case pima:raw:500 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "cpu_slots.json"
LAYOUTS = ("alone", "side by side", "side by side, pinned")


def _default_data_dir() -> Path:
    mirror = os.environ.get("GEOBAYES_DATA_MIRROR", "").strip()
    return Path(mirror) if mirror else (REPO.parent / "shared" / "data")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="heart:raw:500", help="dataset:raw|standardised:n (default heart:raw:500)")
    parser.add_argument("--lanes", type=int, default=250, help="refilled lanes (the quick config's chunk_size)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--data-dir", type=Path, default=_default_data_dir())
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--worker", nargs=2, metavar=("PIN", "DRAWS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    parts = args.case.split(":")
    if len(parts) != 3 or parts[1] not in ("raw", "standardised") or not parts[2].isdigit():
        parser.error(f"--case: expected dataset:raw|standardised:n, got {args.case!r}")
    return args


def worker(args) -> None:
    """One job: pinned or not, draw and time; print a JSON line, save the draws."""
    pin, draws_path = args.worker
    if pin == "1":
        from geobayes.pipeline.cpu_slots import claim_cpus

        cpus, exclusive = claim_cpus(1)
    else:
        cpus, exclusive = tuple(sorted(os.sched_getaffinity(0))), False
    import jax
    import jax.numpy as jnp
    import numpy as np

    import geobayes  # noqa: F401  (float64)
    from geobayes.batching import Schedule
    from geobayes.data.logreg import load_logreg_raw, prepare_logreg
    from geobayes.dataset import Dataset
    from geobayes.methods import get_method, method_config
    from geobayes.metrics.compiled_sampler import ready_sampler
    from geobayes.models import LogisticRegression
    from geobayes.optimize import find_map
    from geobayes.posterior import Posterior

    dataset, inputs, n = args.case.split(":")
    features, labels = load_logreg_raw(args.data_dir / "logreg" / f"{dataset}.npy")
    prepared = prepare_logreg(features, labels, standardise=inputs == "standardised")
    posterior = Posterior(f"{dataset}_{inputs}-logreg", LogisticRegression(), Dataset(prepared.X, prepared.y))
    key = jax.random.PRNGKey(0)
    mode = jnp.asarray(find_map(lambda th, p: p.logdensity(th), posterior, posterior.dim,
                                jax.random.fold_in(key, 0), restarts=5).position)
    config = method_config("rla_b", {"schedule": {"chunk_size": args.lanes, "sort_by_difficulty": True,
                                                  "refill": True}})
    approximation = get_method("rla_b").fit(posterior, config, key, mode=mode).approximation
    sample_key = jax.random.fold_in(key, 1)
    ready = ready_sampler(approximation.sample, sample_key, int(n))
    start = time.perf_counter()
    draws = jax.block_until_ready(ready.sample(sample_key, int(n)))
    seconds = time.perf_counter() - start
    np.save(draws_path, np.asarray(draws.theta))
    print(json.dumps({"seconds": seconds, "compile_s": ready.compile_s, "cpus": list(cpus), "exclusive": exclusive,
                      "mean_steps": float(np.mean(np.asarray(draws.num_steps)))}), flush=True)


def run_layout(args, layout: str, directory: Path, index: int) -> list[dict]:
    """The layout's jobs, started together; their records (with the path of their draws)."""
    count, pin = (1, "0") if layout == "alone" else (2, "1" if layout.endswith("pinned") else "0")
    locks = directory / f"locks{index}"
    env = dict(os.environ, GEOBAYES_CPU_LOCKS=str(locks))
    jobs = []
    for job in range(count):
        draws = directory / f"draws{index}_{job}.npy"
        command = [sys.executable, __file__, "--case", args.case, "--lanes", str(args.lanes),
                   "--data-dir", str(args.data_dir), "--worker", pin, str(draws)]
        jobs.append((subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True), draws))
    records = []
    for process, draws in jobs:
        out, _ = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"error: a {layout!r} job failed with status {process.returncode}")
        records.append({**json.loads(out.strip().splitlines()[-1]), "draws": str(draws)})
    return records


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.worker:
        worker(args)
        return 0
    import numpy as np

    from geobayes.io import provenance, save_json

    if len(os.sched_getaffinity(0)) < 2:
        raise SystemExit("error: bench_cpu_slots.py needs at least 2 CPUs (two jobs side by side)")
    t_start, load_start = time.perf_counter(), os.getloadavg()
    results = {layout: [] for layout in LAYOUTS}
    with tempfile.TemporaryDirectory() as scratch:
        directory, index, first_draws = Path(scratch), 0, {}
        for round_ in range(args.rounds):
            order = LAYOUTS[round_ % 3:] + LAYOUTS[:round_ % 3]
            for layout in order:
                records = run_layout(args, layout, directory, index)
                index += 1
                for record in records:
                    draws = record.pop("draws")
                    if layout not in first_draws:
                        first_draws[layout] = np.load(draws)
                results[layout].extend(records)
                print(f"[{time.perf_counter() - t_start:6.1f}s] round {round_ + 1} {layout}: "
                      + ", ".join(f"{r['seconds']:.2f} s on CPUs {r['cpus']}" for r in records), flush=True)
        reference = first_draws["alone"]
        differences = {layout: float(np.max(np.abs(draws - reference))) for layout, draws in first_draws.items()}
    medians = {layout: statistics.median(r["seconds"] for r in records) for layout, records in results.items()}
    ratio = medians["side by side"] / medians["side by side, pinned"]
    for layout in LAYOUTS:
        print(f"{layout:<22} median {medians[layout]:6.2f} s a job   draws differ from alone's by "
              f"{differences[layout]:.3g}")
    print(f"side by side, unpinned / pinned: {ratio:.2f}x the work per second")
    save_json(args.output, {
        "benchmark": "bench_cpu_slots", "description": __doc__.splitlines()[0],
        "settings": {"case": args.case, "lanes": args.lanes, "rounds": args.rounds},
        "machine": provenance(), "load_average_start": load_start, "load_average_end": os.getloadavg(),
        "jobs": results, "median_s": medians, "unpinned_over_pinned_side_by_side": ratio,
        "max_abs_diff_from_alone": differences, "total_wall_s": time.perf_counter() - t_start,
    })
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
