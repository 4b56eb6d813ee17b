"""How accurate a riem-LA geodesic is at each ODE tolerance: the drift of its conserved speed.

Along an exact geodesic the metric speed ``|c'(t)|_G`` is constant (``Metric.squared_speed``),
and under the Monge metric of RLA-B (``alpha^2 = 1``) it bounds the log density's rate, so a
geodesic of length ``|v|_G`` changes ``l`` by at most ``|v|_G`` (Bergamin et al. 2023, Sec. 3).
This script draws ``--samples`` samples as a DAG approximation job draws them (the job's posterior,
MAP, tangent Gaussian and repetition-0 key; for the mini-batched methods the batches the job
draws; ``benchmarks/geodesic_segments.py``'s ``load_job``) and solves each geodesic at every
``--tolerances`` pair with the job's solver and first step, saving ``--points`` points of the
path. Per solve it records the result code and steps, the largest and the final ratio
``|c'(t)|^2_G / |v|^2_G``, the change of ``l`` against the bound ``|v|_G``, and the endpoint's
distance from the tightest tolerance's endpoint (relative to ``|v|``).

Usage (from the repository root, after the job's upstream jobs ran)::

    .venv/bin/python benchmarks/geodesic_energy.py --results results \\
        --posterior mnist_fixed_seed0-cnn --posterior mnist_optimised_seed0-cnn \\
        --method rla_b_batched --samples 2 --tolerances 1e-6:1e-3 1e-5:1e-5 1e-7:1e-7

Each pair is ``rtol:atol``; the first is usually the job's own (``--tolerances job`` names it).
The record goes to ``benchmarks/results/geodesic_energy_<method>.json`` (``--output``), written
after every solve.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path

from geodesic_segments import METHODS, geodesic_target, load_job

REPO = Path(__file__).resolve().parents[1]


def tolerance_pair(text: str) -> tuple[float, float] | str:
    """``"rtol:atol"`` -> (rtol, atol); ``"job"`` stays the job's own pair."""
    if text == "job":
        return text
    try:
        rtol, atol = (float(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--tolerances: expected rtol:atol (e.g. 1e-7:1e-7) or job, got {text!r}") from None
    return rtol, atol


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", type=Path, default=REPO / "results", help="results/ of a DAG run")
    parser.add_argument("--posterior", action="append", required=True, help="e.g. mnist_fixed_seed0-cnn (repeatable)")
    parser.add_argument("--method", choices=METHODS, default="rla_b_batched")
    parser.add_argument("--anchor", default="euclidean")
    parser.add_argument("--samples", type=int, default=2)
    parser.add_argument("--tolerances", type=tolerance_pair, nargs="+", default=["job", (1e-5, 1e-5), (1e-7, 1e-7)])
    parser.add_argument("--max-steps", type=int, default=8000, help="step cap of every solve")
    parser.add_argument("--points", type=int, default=21, help="saved points of each path")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    output = args.output or REPO / "benchmarks" / "results" / f"geodesic_energy_{args.method}.json"

    import diffrax
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    import geobayes  # noqa: F401  (float64)
    from geobayes.geometry.exponential_map import solve_geodesic
    from geobayes.geometry.monge import Monge
    from geobayes.io import provenance, save_json

    metric = Monge(alpha2=1.0)
    times = jnp.linspace(0.0, 1.0, args.points)

    @eqx.filter_jit
    def solve(target, mode, velocity, ode):
        solution = solve_geodesic(metric, target, mode, velocity, ode, saveat=diffrax.SaveAt(ts=times))
        path, speeds = solution.ys
        squared = jax.vmap(lambda th, v: metric.squared_speed(target, th, v))(path, speeds)
        return (path, squared, jax.vmap(target.logdensity)(path), solution.result._value,
                solution.stats["num_steps"])

    rows = []
    summary = {"method": args.method, "anchor": args.anchor, "max_steps": args.max_steps, "points": args.points,
               "provenance": provenance(), "solves": rows}
    for name in args.posterior:
        posterior, mode, key, approximation = load_job(args.results, name, args.anchor, args.method, parser.error)
        job_ode = approximation.ode
        pairs = [(job_ode.rtol, job_ode.atol) if pair == "job" else pair for pair in args.tolerances]
        tightest = min(range(len(pairs)), key=lambda i: pairs[i][0] + pairs[i][1])
        for index in range(args.samples):
            target, velocity = geodesic_target(approximation, posterior, key, args.method, index, args.samples)
            solved = []
            for rtol, atol in pairs:
                ode = dataclasses.replace(job_ode, rtol=rtol, atol=atol, max_steps=args.max_steps)
                start = time.perf_counter()
                path, squared, logdensity, code, steps = jax.block_until_ready(solve(target, mode, velocity, ode))
                solved.append((time.perf_counter() - start, path, squared, logdensity, int(code), int(steps), rtol, atol))
            reference = solved[tightest][1][-1]
            for seconds, path, squared, logdensity, code, steps, rtol, atol in solved:
                length = float(jnp.sqrt(squared[0]))
                finite = bool(jnp.all(jnp.isfinite(path[-1])))
                rows.append({
                    "posterior": name, "sample": index, "rtol": rtol, "atol": atol,
                    "job_tolerances": (rtol, atol) == (job_ode.rtol, job_ode.atol),
                    "result_code": code, "steps": steps, "seconds_with_compile": seconds,
                    "length": length, "euclidean_speed": float(jnp.linalg.norm(velocity)),
                    "max_speed_ratio": float(jnp.nanmax(squared / squared[0])),
                    "end_speed_ratio": float(squared[-1] / squared[0]) if finite else None,
                    "logdensity_change": float(logdensity[-1] - logdensity[0]) if finite else None,
                    "logdensity_change_over_length": float(abs(logdensity[-1] - logdensity[0]) / length) if finite else None,
                    "distance_to_tightest_over_speed": (float(jnp.linalg.norm(path[-1] - reference) / jnp.linalg.norm(velocity))
                                                        if finite else None),
                    "path_logdensity": [float(x) for x in logdensity], "path_speed_ratio": [float(x) for x in squared / squared[0]],
                })
                print({k: v for k, v in rows[-1].items() if not k.startswith("path_")}, flush=True)
                save_json(output, summary)
    print(f"{len(rows)} solves -> {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
