"""Lock-step waste of vmapped adaptive Exp-map solves, and what chunking and sorting buy.

Under ``jax.vmap`` Diffrax's ``while_loop`` advances every sample of a batch until the slowest
one is done; a sample that finished early is carried along (its state masked) at full cost. For
RLA-B (Bergamin et al. 2023; Yu et al. 2024, Sec. 3 and Table 4) on raw-input logistic
regression the per-sample step counts spread over an order of magnitude, so most of a batch's
work is wasted. For each posterior this measures, in one process, on the same draws (same key,
so every schedule solves the same geodesics), the schedules of :class:`geobayes.batching.Schedule`:

* ``full``: one ``vmap`` over all ``n`` samples (the library's behaviour before issue 6);
* ``chunk k``: ``jax.lax.map`` over chunks of ``k`` samples, each chunk stopping at its own
  slowest sample;
* ``sorted k``: the same after ordering the samples by ``|v|_G``, the length of the geodesic
  (``geobayes.geometry.exponential_map.metric_speeds``), results put back in the original order;
* ``refill k`` and ``refill sorted k``: ``k`` lanes stepped together, one Diffrax step per
  iteration, each lane taking the next sample when its solve ends (``Schedule.refill``,
  :mod:`geobayes.geometry.refilled_lanes`); sorted: the longest geodesics first. Waste
  ``1 - sum(num_steps) / (k * iterations)`` (:func:`geobayes.batching.refill_waste`);
* ``chunk 1``: one sample at a time inside one compiled loop (no lock-step waste at all, no
  vectorisation either);
* ``refill sorted k <solver>``: with ``--solvers dopri5 bosh3``, the refilled schedule again with
  each further solver at the same tolerances (``approximation.ode.solver``; Bogacki-Shampine 3(2)
  spends 3 vector-field evaluations a step against Dopri5's 6). Its draws differ from Dopri5's by
  the solvers' errors, so its "largest difference from the full batch" is that, not round-off.

Per schedule: the median wall time of ``--repeats`` calls after a warm-up (compile) call (the
timed calls go round-robin over the schedules, so that a burst of load on a shared machine hits
them alike), the
measured waste ``1 - sum(num_steps) / sum_chunks(|chunk| * max num_steps in it)``, the ratio of
the full batch's median time to this schedule's, and the largest difference of the draws from
the full batch's (0 up to float64 round-off; result codes and step counts must be equal).
Speed is measured here and never asserted in tests.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_lockstep.py              # defaults, ~5 min on 2 cores
    .venv/bin/python benchmarks/bench_lockstep.py --cases ripley:raw:64 --chunks 8 --repeats 1 \\
        --output /tmp/smoke.json                                # smoke run
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "lockstep.json"


def _default_data_dir() -> Path:
    mirror = os.environ.get("GEOBAYES_DATA_MIRROR", "").strip()
    return Path(mirror) if mirror else (REPO.parent / "shared" / "data")


def _case(text: str) -> tuple[str, str, int]:
    parts = text.split(":")
    if len(parts) != 3 or parts[1] not in ("raw", "standardised") or not parts[2].isdigit():
        raise argparse.ArgumentTypeError(f"expected dataset:raw|standardised:n, got {text!r}")
    return parts[0], parts[1], int(parts[2])


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, default=_default_data_dir())
    parser.add_argument("--cases", type=_case, nargs="+",
                        default=[_case("heart:raw:64"), _case("pima:raw:128")],
                        help="dataset:inputs:n of RLA-B cases (default: heart:raw:64 pima:raw:128)")
    parser.add_argument("--chunks", type=int, nargs="+", default=[16],
                        help="chunk sizes, each run unsorted and sorted (default: 16)")
    parser.add_argument("--sequential", action=argparse.BooleanOptionalAction, default=True,
                        help="also time chunk size 1 (default: on)")
    parser.add_argument("--repeats", type=int, default=3, help="timed calls after the warm-up (median)")
    parser.add_argument("--solvers", nargs="+", default=["dopri5"], choices=["dopri5", "tsit5", "bosh3"],
                        help="dopri5 (every schedule) then further solvers (refill sorted only)")
    parser.add_argument("--map-restarts", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    if args.repeats < 1 or any(k < 1 for k in args.chunks):
        parser.error("--repeats and --chunks must be >= 1")
    if args.solvers[0] != "dopri5":
        parser.error("--solvers must start with dopri5 (the schedules' solver)")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    t_start = time.perf_counter()
    load_start = os.getloadavg()

    import jax
    import jax.numpy as jnp
    import numpy as np

    import geobayes  # noqa: F401  (float64)
    from geobayes.batching import Schedule, lockstep_waste, refill_waste
    from geobayes.data.logreg import load_logreg_raw, prepare_logreg
    from geobayes.dataset import Dataset
    from geobayes.geometry.exponential_map import metric_speeds
    from geobayes.geometry.monge import Monge
    from geobayes.io import provenance, save_json
    from geobayes.methods import get_method, method_config
    from geobayes.models import LogisticRegression
    from geobayes.optimize import find_map
    from geobayes.posterior import Posterior

    root = jax.random.PRNGKey(args.seed)
    cases = []
    for index, (dataset, inputs, n) in enumerate(args.cases):
        path = args.data_dir / "logreg" / f"{dataset}.npy"
        if not path.exists():
            raise SystemExit(f"error: data file {path} not found (set --data-dir or GEOBAYES_DATA_MIRROR)")
        features, labels = load_logreg_raw(path)
        prepared = prepare_logreg(features, labels, standardise=inputs == "standardised")
        name = f"{dataset}_raw-logreg" if inputs == "raw" else f"{dataset}-logreg"
        posterior = Posterior(name, LogisticRegression(), Dataset(prepared.X, prepared.y))
        key = jax.random.fold_in(root, index)
        estimate = find_map(lambda th, p: p.logdensity(th), posterior, posterior.dim,
                            jax.random.fold_in(key, 0), restarts=args.map_restarts)
        mode = jnp.asarray(estimate.position)
        approximation = get_method("rla_b").fit(posterior, method_config("rla_b"), key, mode=mode).approximation
        others = {solver: get_method("rla_b").fit(posterior, method_config("rla_b", {"ode": {"solver": solver}}), key,
                                                  mode=mode).approximation for solver in args.solvers[1:]}
        sample_key = jax.random.fold_in(key, 1)
        velocities = approximation.tangent.sample_velocities(sample_key, n)
        order = np.argsort(np.asarray(metric_speeds(Monge(), posterior, mode, velocities)), kind="stable")
        # refill's sorted order: longest first (exponential_map: argsort of -|v|_G)
        longest_first = np.asarray(jnp.argsort(-metric_speeds(Monge(), posterior, mode, velocities), stable=True))

        schedules = [("full", Schedule(None), approximation)]
        for k in args.chunks:
            schedules += [(f"chunk {k}", Schedule(k), approximation),
                          (f"sorted {k}", Schedule(k, sort_by_difficulty=True), approximation),
                          (f"refill {k}", Schedule(k, refill=True), approximation),
                          (f"refill sorted {k}", Schedule(k, sort_by_difficulty=True, refill=True), approximation)]
            schedules += [(f"refill sorted {k} {solver}", Schedule(k, sort_by_difficulty=True, refill=True), other)
                          for solver, other in others.items()]
        if args.sequential:
            schedules.append(("chunk 1", Schedule(1), approximation))

        # Warm-up (compile) call of every schedule, then the timed calls round-robin: on a shared
        # machine a burst of load then hits every schedule alike instead of one.
        calls, rows, reference = {}, [], None
        for label, schedule, approx in schedules:
            calls[label] = (lambda s, a: lambda: jax.block_until_ready(a.sample(sample_key, n, s)))(schedule, approx)
            start = time.perf_counter()
            draws = calls[label]()
            first = time.perf_counter() - start
            steps = np.asarray(draws.num_steps)
            if reference is None:
                reference = draws
            same_codes = bool(np.array_equal(steps, np.asarray(reference.num_steps))
                              and np.array_equal(np.asarray(draws.result_code), np.asarray(reference.result_code)))
            rows.append({
                "schedule": label, "chunk_size": schedule.chunk_size, "solver": str(approx.ode.solver),
                "sort_by_difficulty": schedule.sort_by_difficulty, "first_call_s": first, "times_s": [],
                "refill": schedule.refill,
                "waste": (refill_waste(steps, schedule.chunk_for(n) or n,
                                       longest_first if schedule.sort_by_difficulty else None)
                          if schedule.refill else
                          lockstep_waste(steps, schedule.chunk_for(n), order if schedule.sort_by_difficulty else None)),
                "max_abs_diff_from_full": float(np.max(np.abs(np.asarray(draws.theta) - np.asarray(reference.theta)))),
                "same_codes_and_steps_as_full": same_codes,
            })
            print(f"[{time.perf_counter() - t_start:7.1f}s] {name} n={n} {label:<10} first call {first:.2f}s "
                  f"waste {rows[-1]['waste']:.3f}", flush=True)
        for repeat in range(args.repeats):
            for row in rows:
                start = time.perf_counter()
                calls[row["schedule"]]()
                row["times_s"].append(time.perf_counter() - start)
            print(f"[{time.perf_counter() - t_start:7.1f}s] {name} repeat {repeat + 1}: "
                  + ", ".join(f"{r['schedule']} {r['times_s'][-1]:.2f}s" for r in rows), flush=True)
        for row in rows:
            row["median_s"] = statistics.median(row["times_s"])
        load_case = os.getloadavg()
        full = rows[0]["median_s"]
        for row in rows:
            row["speedup_over_full"] = full / row["median_s"]
        steps = np.asarray(reference.num_steps)
        speeds = np.asarray(metric_speeds(Monge(), posterior, mode, velocities))
        from scipy.stats import spearmanr

        cases.append({
            "posterior": name, "method": "rla_b", "dim": posterior.dim, "n_data": int(prepared.X.shape[0]),
            "n": n, "map_converged": bool(estimate.converged),
            "num_steps": {"min": int(steps.min()), "median": float(np.median(steps)), "mean": float(steps.mean()),
                          "max": int(steps.max()), "quantiles_0.9_0.99": [float(np.quantile(steps, q)) for q in (0.9, 0.99)]},
            "n_failed": int(np.sum(~np.asarray(reference.successful))),
            "spearman_speed_vs_steps": float(spearmanr(speeds, steps).correlation),
            "oracle_waste_sorted_by_true_steps": {str(k): lockstep_waste(steps, k, np.argsort(steps, kind="stable"))
                                                  for k in args.chunks},
            "schedules": rows,
            "load_average_after": load_case,
        })

    print()
    print(f"{'posterior':<20} {'n':>5} {'schedule':<17} {'median s':>9} {'waste':>6} {'full/this':>9} {'same':>5}")
    for case in cases:
        for row in case["schedules"]:
            print(f"{case['posterior']:<20} {case['n']:>5} {row['schedule']:<17} {row['median_s']:>9.2f} "
                  f"{row['waste']:>6.3f} {row['speedup_over_full']:>9.2f} {str(row['same_codes_and_steps_as_full']):>5}")
    total = time.perf_counter() - t_start
    print(f"\ntotal {total:.0f}s; load average at start {load_start}, at end {os.getloadavg()}")
    record = {
        "benchmark": "lockstep",
        "description": __doc__.split("\n\n")[0],
        "provenance": provenance(),
        "machine": {"cpu_count": os.cpu_count(), "jax_devices": [str(d) for d in jax.devices()],
                    "load_average_start": load_start, "load_average_end": os.getloadavg()},
        "settings": {"cases": [list(c) for c in args.cases], "chunks": args.chunks, "repeats": args.repeats,
                     "sequential": args.sequential, "map_restarts": args.map_restarts, "seed": args.seed,
                     "ode": "OdeSettings() defaults: dopri5, rtol 1e-3, atol 1e-6, max_steps 4096", "solvers": args.solvers,
                     "protocol": "warm-up call then `repeats` calls of approximation.sample(key, n, schedule) "
                                 "with the same key; median; waste = 1 - sum(steps)/sum_chunks(|c| max steps)"},
        "cases": cases,
        "total_wall_s": total,
    }
    print(f"wrote {save_json(args.output, record)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
