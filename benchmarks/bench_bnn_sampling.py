"""Seconds per sample of every network approximation, batched and one at a time, against the papers.

The three network papers time their samplers one sample at a time: Yu et al. (2024, Supp. 16.5)
report 0.8 s per RLA-F sample and 34 s per RLA-B sample on Snelson's 1-10-1 network (SciPy
``solve_ivp``); Bergamin et al.'s public torch code took 2.5-4 s per riem-LA sample on the 1x15
network and 3-9 s on the 2x10 network, run on a machine like ours (issue 5); Hartmann et al.
(2026, Sec. 5.3.2) report 4 h for 6,000 WG samples on the 142-parameter network. Those figures
live in ``benchmarks/reference_timings.csv``, never here.

This script replays the DAG's own approximation jobs: for every approximation sidecar of a
network posterior under ``--results`` (a finished ``snakemake`` run, e.g. the quick config), it
rebuilds the posterior from the trained-network file, the MAP and the job's recorded config
(``approximation`` and ``model`` blocks of the sidecar), and times in one process:

* **batched**: ``approximation.sample(key, n)`` (one compile call, then ``--repeats`` calls;
  median per sample);
* **sequential**: the same jitted ``sample`` with ``n = 1`` over ``--sequential`` keys (one
  warm-up call first), the papers' protocol.

* **SciPy baseline** (geodesic methods, ``--scipy`` samples): the papers' solver,
  ``scipy.integrate.solve_ivp(method="RK45")`` at the job's tolerances, one sample at a time on
  the *same* jitted vector field and the same velocities. Its ``nfev`` beside Diffrax's
  evaluations (6 per step) tells whether a step count comes from the problem or from the
  solver; its seconds per sample are the in-process baseline of the speed-up (what Diffrax's
  compiled loop buys over a Python-driven solver, on this machine, at this moment).

Ratios: sequential / batched (what batching buys), SciPy / ours, and ours / the paper's
seconds per sample. Speed is measured here and never asserted in tests.

Usage (from the repository root)::

    .venv/bin/snakemake --cores 2 --configfile config/quick.yaml tables/yu2024_table5.tex
    .venv/bin/python benchmarks/bench_bnn_sampling.py --results results
    .venv/bin/python benchmarks/bench_bnn_sampling.py --results results --n 100 --sequential 3 --repeats 1
    .venv/bin/python benchmarks/bench_bnn_sampling.py --results results --methods rla_b --scipy 5 \
        --ode rtol=1e-6,atol=1e-3   # Bergamin et al.'s code tolerances instead of the job's
    python3 benchmarks/bench_bnn_sampling.py --results results --schedule chunk_size=0,refill=false  # one batch (GPU)
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "bnn_sampling.json"
REFERENCES = REPO / "benchmarks" / "reference_timings_bnn.csv"


def network_jobs(results: Path, methods: set[str] | None):
    """(sidecar path, sidecar) of each repetition-0 approximation job of a network posterior."""
    from geobayes.io import load_json

    for path in sorted(results.glob("approximation/*/*/*/seed0/samples.json")):
        record = load_json(path)
        posterior = record["posterior"]
        if not (results / "network" / f"{posterior}.npz").exists() and "networks" not in record["config"]["model"]:
            continue
        if methods is not None and record["method"] not in methods:
            continue
        yield path, record


def data_file(results: Path, posterior: str, options: dict) -> Path:
    """The trained-network file where the DAG wrote one, else the prepared split (as common.smk)."""
    from geobayes.posterior import split_posterior_name

    trained = results / "network" / f"{posterior}.npz"
    if trained.exists():
        return trained
    split, model = split_posterior_name(posterior)
    experiment = next(e for e in ("bnn_yu", "bnn_bergamin", "bnn_hartmann")
                      if (results.parent / "data" / "prepared" / e / f"{split}.npz").exists())
    return results.parent / "data" / "prepared" / experiment / f"{split}.npz"


def load_references() -> list[dict]:
    with REFERENCES.open() as handle:
        return list(csv.DictReader(row for row in handle if not row.startswith("#")))


def reference_for(references: list[dict], posterior: str, method: str) -> dict | None:
    """The cited per-sample time of the same network and method, if a paper gives one."""
    from geobayes.posterior import split_posterior_name

    split, model = split_posterior_name(posterior)
    for row in references:
        if row["model"] == model and row["method"] == method and (not row["split"] or row["split"] == split):
            return row
    return None


def scipy_baseline(approximation, key, samples: int, evaluations_per_step: int) -> dict | None:
    """Seconds per sample and ``nfev`` of SciPy's RK45 on the approximation's own geodesic IVP.

    The vector field ``[v, -Gamma_theta(v, v)]`` is the library's, jitted once; SciPy drives it
    from Python one sample at a time, as the papers' code does. The same velocities go through
    the Diffrax exponential map, so ``diffrax_evaluations`` (the job's ``evaluations_per_step``
    per step, rejected steps included) is the like-for-like count. ``None`` for a method without a geodesic exponential map.
    """
    import jax
    import jax.numpy as jnp
    import numpy as np
    from scipy.integrate import solve_ivp

    from geobayes.geometry.exponential_map import exponential_map
    from geobayes.methods.geodesic_laplace import GeodesicLaplace

    if not isinstance(approximation, GeodesicLaplace) or samples < 1:
        return None
    metric, posterior, mode, ode = (approximation.metric, approximation.posterior,
                                    approximation.tangent.mode, approximation.ode)
    dim = mode.shape[0]
    field = jax.jit(lambda y: jnp.concatenate([y[dim:], -metric.christoffel(posterior, y[:dim], y[dim:])]))
    velocities = approximation.tangent.sample_velocities(key, samples)
    field(jnp.concatenate([mode, velocities[0]])).block_until_ready()  # compile outside the clock
    seconds, nfev, succeeded = [], [], []
    for velocity in np.asarray(velocities):
        start = time.perf_counter()
        solution = solve_ivp(lambda t, y: np.asarray(field(jnp.asarray(y))), (0.0, 1.0),
                             np.concatenate([np.asarray(mode), velocity]), method="RK45",
                             rtol=ode.rtol, atol=ode.atol)
        seconds.append(time.perf_counter() - start)
        nfev.append(int(solution.nfev))
        succeeded.append(bool(solution.success))
    ours = exponential_map(metric, posterior, mode, velocities, ode)
    return {"scipy_per_sample_s": statistics.median(seconds), "scipy_samples": samples,
            "scipy_nfev": nfev, "scipy_failed": samples - sum(succeeded),
            "diffrax_evaluations": [evaluations_per_step * int(s) for s in np.asarray(ours.num_steps)],
            "scipy_rtol": ode.rtol, "scipy_atol": ode.atol}


def time_job(posterior, mode, method: str, config: dict, key, n: int, repeats: int, sequential: int,
             scipy_samples: int = 0) -> dict:
    import jax

    from geobayes.methods import get_method, method_config

    fitted = get_method(method).fit(posterior, method_config(method, config), key, mode=mode)
    approximation = fitted.approximation

    def timed(fn):
        start = time.perf_counter()
        out = jax.block_until_ready(fn())
        return time.perf_counter() - start, out

    compile_s, _ = timed(lambda: approximation.sample(key, n))
    batched = []
    for _ in range(repeats):
        seconds, draws = timed(lambda: approximation.sample(key, n))
        batched.append(seconds / n)
    keys = jax.random.split(key, sequential + 1)
    timed(lambda: approximation.sample(keys[0], 1))  # compile the n = 1 shape
    one_at_a_time = [timed(lambda k=k: approximation.sample(k, 1))[0] for k in keys[1:]]
    failed = int(n - int(jax.numpy.sum(draws.successful))) if hasattr(draws, "successful") else 0
    row = {"compile_s": compile_s, "batched_per_sample_s": statistics.median(batched),
           "sequential_per_sample_s": statistics.median(one_at_a_time), "n": n, "failed": failed,
           "batched_raw_s": batched, "sequential_raw_s": one_at_a_time}
    baseline = scipy_baseline(approximation, key, scipy_samples, int(config["evaluations_per_step"]))
    if baseline is not None:
        row.update(baseline)
        row["scipy/ours_sequential"] = baseline["scipy_per_sample_s"] / row["sequential_per_sample_s"]
    return row


def with_override(approximation: dict, block: str, override: dict) -> dict:
    """The job's approximation block with ``override`` merged into its ``block`` settings
    (``ode`` or ``schedule``)."""
    if not override:
        return approximation
    unknown = set(override) - set(approximation[block])
    if unknown:
        raise SystemExit(f"--{block}: unknown approximation.{block} keys {sorted(unknown)}; "
                         f"known: {sorted(approximation[block])}")
    return {**approximation, block: {**approximation[block], **override}}


def parse_override(text: str | None) -> dict:
    """``"rtol=1e-6,atol=1e-3"`` -> ``{"rtol": 1e-06, "atol": 0.001}``; integers stay integers,
    ``true``/``false`` become booleans, other words stay strings (``solver=bosh3``)."""
    if text is None:
        return {}

    def value(raw: str):
        if raw in ("true", "false"):
            return raw == "true"
        if raw.lstrip("-").isdigit():
            return int(raw)
        try:
            return float(raw)
        except ValueError:
            return raw

    return {name: value(raw) for name, raw in (item.split("=") for item in text.split(","))}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", type=Path, default=REPO / "results", help="results/ of a finished DAG run")
    parser.add_argument("--methods", default=None, help="comma-separated method names (default: all found)")
    parser.add_argument("--n", type=int, default=500, help="samples per batched call")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sequential", type=int, default=5, help="samples drawn one at a time")
    parser.add_argument("--scipy", type=int, default=0,
                        help="samples of the in-process SciPy RK45 baseline (geodesic methods; 0 = none)")
    parser.add_argument("--ode", default=None,
                        help="override the job's approximation.ode, e.g. rtol=1e-6,atol=1e-3")
    parser.add_argument("--schedule", default=None,
                        help="override the job's approximation.schedule, e.g. chunk_size=0,refill=false "
                             "(one batch, as on a GPU)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    ode_override, schedule_override = parse_override(args.ode), parse_override(args.schedule)

    import jax.numpy as jnp

    import geobayes  # noqa: F401  (float64)
    from geobayes.io import load_npz, provenance, save_json
    from geobayes.pipeline.posteriors import build_posterior
    from geobayes.random import derive_key

    references = load_references()
    methods = None if args.methods is None else set(args.methods.split(","))
    rows = []
    for path, record in network_jobs(args.results, methods):
        posterior_name, method, anchor = record["posterior"], record["method"], record["anchor"]
        options = record["config"]["model"]
        posterior = build_posterior(posterior_name, str(data_file(args.results, posterior_name, options)), options)
        mode = jnp.asarray(load_npz(args.results / "map" / posterior_name / f"{anchor}.npz")["position"])
        key = derive_key(0, "bench_bnn_sampling", posterior_name)
        row = {"posterior": posterior_name, "dim": int(posterior.dim), "method": method,
               **time_job(posterior, mode, method,
                          with_override(with_override(record["config"]["approximation"], "ode", ode_override),
                                        "schedule", schedule_override),
                          key, args.n, args.repeats, args.sequential, args.scipy)}
        row["sequential/batched"] = row["sequential_per_sample_s"] / row["batched_per_sample_s"]
        reference = reference_for(references, posterior_name, method)
        if reference is not None:
            paper = float(reference["seconds_per_sample"])
            row["reference"] = reference
            row["paper/ours_batched"] = paper / row["batched_per_sample_s"]
            row["paper/ours_sequential"] = paper / row["sequential_per_sample_s"]
        rows.append(row)
        ref = (f"; paper {float(reference['seconds_per_sample']):.3g} s -> {row['paper/ours_batched']:.0f}x "
               f"(batched), {row['paper/ours_sequential']:.0f}x (one at a time)") if reference else ""
        scipy = (f"; SciPy RK45 {row['scipy_per_sample_s'] * 1e3:.0f} ms ({row['scipy/ours_sequential']:.1f}x ours), "
                 f"nfev median {statistics.median(row['scipy_nfev']):.0f} vs Diffrax "
                 f"{statistics.median(row['diffrax_evaluations']):.0f}") if "scipy_nfev" in row else ""
        print(f"{posterior_name:32s} D={row['dim']:4d} {method:18s} batched {row['batched_per_sample_s'] * 1e3:9.3f} ms"
              f"  one-at-a-time {row['sequential_per_sample_s'] * 1e3:9.3f} ms  failed {row['failed']}{ref}{scipy}",
              flush=True)
    if not rows:
        print(f"no network approximation sidecars under {args.results}/approximation", file=sys.stderr)
        return 1
    save_json(args.output, {"provenance": provenance(), "args": {k: str(v) for k, v in vars(args).items()},
                            "results": rows})
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
