"""Where a geodesic's solver steps go: one network riem-LA sample solved in segments of t.

A DAG approximation job that reports ``max_steps`` failures says only that its solves hit the cap.
This script draws one sample as such a job does (the same posterior, MAP and tangent Gaussian, the
job's repetition-0 key; for the mini-batched methods a batch drawn as the job draws them) and
integrates its geodesic
(Bergamin et al. 2023, Sec. 3; Yu et al. 2024, Eq. (1)) over ``[0, 1]`` in ``--segments`` equal
pieces with no practical step cap (``UNCAPPED`` per piece), printing after each piece its accepted and rejected steps of the job's solver (each
piece restarts the step-size controller, so the total is an upper estimate of one solve's), the
distance from the MAP, the speed ``|dc/dt|`` and the log density the metric is built on. Where the
steps per piece grow along the path, no cap makes the sample affordable; where they stay flat, a
larger cap does.

Usage (from the repository root, after the job's upstream jobs ran)::

    .venv/bin/python benchmarks/geodesic_segments.py --results results \\
        --posterior mnist_fixed_seed0-cnn --method rla_b_batched --segments 50

The record goes to ``benchmarks/results/geodesic_segments_<posterior>_<method>.json``, one row per
piece, written after every piece (a run stopped by hand keeps what it measured).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
METHODS = ("rla_b", "rla_b_batched")
#: Steps allowed in one piece: far beyond any job's cap (a piece that reaches it reports code 1).
UNCAPPED = 100_000


def geodesic_target(approximation, posterior, key, method: str, index: int = 0, count: int = 1):
    """(target whose log density defines the Monge metric, velocity) of sample ``index`` of
    ``count`` drawn as the job draws them."""
    import equinox as eqx
    import jax

    from geobayes.methods.minibatch_geodesic import MinibatchPosterior

    velocity = approximation.tangent.sample_velocities(key, count)[index]
    if method == "rla_b":
        return posterior, velocity
    # as MinibatchGeodesicLaplace.sample draws the batches
    batch = jax.vmap(approximation.batches.draw)(jax.random.split(jax.random.fold_in(key, 1), count))[index]
    data = posterior.data
    subset = eqx.tree_at(lambda d: (d.X, d.y), data, (data.X[batch], data.y[batch]))
    scale = data.X.shape[0] / approximation.batch_size
    return MinibatchPosterior(posterior.name, posterior.model, subset, scale), velocity


def load_job(results: Path, posterior_name: str, anchor: str, method: str, error):
    """``(posterior, mode, key, approximation)`` of a DAG approximation job (repetition 0), refitted
    from its sidecar's config; ``error`` reports a missing job (``parser.error``)."""
    import jax.numpy as jnp

    from geobayes.io import load_json, load_npz
    from geobayes.methods import get_method, method_config
    from geobayes.optimize import tangent_precision
    from geobayes.pipeline.posteriors import build_posterior
    from geobayes.random import derive_key

    job = results / "approximation" / posterior_name / anchor / method / "seed0" / "samples.json"
    if not job.exists():
        error(f"--results: no approximation sidecar {job}; run the job first (snakemake ... {job.with_suffix('.npz')})")
    record = load_json(job)
    options, model = dict(record["config"]["approximation"]), record["config"]["model"]
    options["precision"] = tangent_precision(anchor, model)
    network = results / "network" / f"{posterior_name}.npz"
    posterior = build_posterior(posterior_name, network if network.exists() else None, model)
    mode = jnp.asarray(load_npz(results / "map" / posterior_name / f"{anchor}.npz")["position"])
    key = derive_key(record["seed"], "approximate", posterior.name, 0)  # the job's repetition 0
    approximation = get_method(method).fit(posterior, method_config(method, options), key, mode=mode).approximation
    return posterior, mode, key, approximation


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", type=Path, default=REPO / "results", help="results/ of a DAG run")
    parser.add_argument("--posterior", required=True, help="e.g. mnist_fixed_seed0-cnn")
    parser.add_argument("--method", choices=METHODS, default="rla_b_batched")
    parser.add_argument("--anchor", default="euclidean")
    parser.add_argument("--segments", type=int, default=50)
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    output = args.output or REPO / "benchmarks" / "results" / f"geodesic_segments_{args.posterior}_{args.method}.json"

    import jax
    import jax.numpy as jnp
    import numpy as np

    import geobayes  # noqa: F401  (float64)
    from geobayes.geometry.exponential_map import solve_geodesic
    from geobayes.geometry.monge import Monge
    from geobayes.io import provenance, save_json

    posterior, mode, key, approximation = load_job(args.results, args.posterior, args.anchor, args.method, parser.error)
    target, velocity = geodesic_target(approximation, posterior, key, args.method)
    ode = approximation.ode

    uncapped = dataclasses.replace(ode, max_steps=UNCAPPED)  # the job's solver, tolerances and first step

    @jax.jit
    def piece(t0, t1, state):
        solution = solve_geodesic(Monge(alpha2=1.0), target, *state, uncapped, span=(t0, t1))
        end = (solution.ys[0][-1], solution.ys[1][-1])
        return end, solution.stats["num_accepted_steps"], solution.stats["num_rejected_steps"], solution.result._value

    rows, state, start = [], (mode, velocity), time.perf_counter()
    summary = {"posterior": args.posterior, "method": args.method, "job_max_steps": ode.max_steps,
               "rtol": ode.rtol, "atol": ode.atol, "speed_at_0": float(jnp.linalg.norm(velocity)),
               "log_density_at_map": float(target.logdensity(mode)), "provenance": provenance(), "pieces": rows}
    edges = np.linspace(0.0, 1.0, args.segments + 1)
    for t0, t1 in zip(edges[:-1], edges[1:], strict=True):
        state, accepted, rejected, code = piece(t0, t1, state)
        theta, speed = state
        rows.append({"t0": float(t0), "t1": float(t1), "accepted": int(accepted), "rejected": int(rejected),
                     "result_code": int(code), "distance_from_map": float(jnp.linalg.norm(theta - mode)),
                     "speed": float(jnp.linalg.norm(speed)), "log_density": float(target.logdensity(theta)),
                     "elapsed_s": time.perf_counter() - start})
        summary["steps_so_far"] = sum(r["accepted"] + r["rejected"] for r in rows)
        print(rows[-1], flush=True)
        save_json(output, summary)
    print(f"{args.posterior} {args.method}: {summary['steps_so_far']} steps over {args.segments} pieces -> {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
