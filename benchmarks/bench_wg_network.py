"""WG's least-squares inversion (Hartmann et al. 2026, Eq. (14)) on the network posteriors: BFGS
against matrix-free and plain Levenberg-Marquardt.

The networks' WG jobs use ``approximation.wrapped_gaussian.solver: bfgs`` (the paper's choice,
Sec. 5.3.2) with up to 10,000 steps; one vmapped batch runs to its slowest sample's step count.
This script times, in one process and on the same tangent draws, the inversion
(:func:`geobayes.geometry.approximate_exponential_map.approximate_exponential_map`) with each
solver of ``--solvers`` (``name[:max_steps][@chunk_size]``; the cap defaults to the config's, the
batch is one vmapped chunk unless ``@chunk_size`` sets :class:`~geobayes.batching.Schedule`):

* ``bfgs``: gradients only, one reverse pass per step;
* ``levenberg_marquardt_lsmr``: Levenberg-Marquardt whose damped steps are LSMR solves from
  Jacobian-vector and vector-Jacobian products (no Jacobian);
* ``levenberg_marquardt``: Levenberg-Marquardt with the D-column Jacobian and QR per step.

Each solver is compiled ahead of time (``jit(...).lower(...).compile()``, timed apart), then run
``--repeats`` times; the table gives the medians: success rate (result code 0 and residual below
``residual_tol``), steps, residuals, wall seconds of the batch and per sample, seconds per step
of the batch (the batch runs ``max(steps)`` steps), the lock-step waste
(:func:`geobayes.batching.lockstep_waste`), the wall-time ratio over the first solver and the
largest distance to its points among samples both solved.

Cases: ``regression`` = ``drop23-mlp2x10var`` (142 parameters, experiments.bnn_hartmann, MAP
``results/map/drop23-mlp2x10var/euclidean.npz``); ``classifier`` = the banana classifier
(301 parameters, ``bnn_classifier``, MAP ``results/bnn_classifier/optimum0/map.npz``). The
posterior and MAP are the pipeline's (build them first)::

    GEOBAYES_DATA_MIRROR=... PYTHONPATH=src .venv/bin/snakemake --cores 1 --configfile config/quick.yaml \\
        results/map/drop23-mlp2x10var/euclidean.npz results/bnn_classifier/optimum0/map.npz
    PYTHONPATH=src .venv/bin/python benchmarks/bench_wg_network.py                  # regression, ~10 min
    PYTHONPATH=src .venv/bin/python benchmarks/bench_wg_network.py --case classifier

Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SOLVERS = "bfgs,levenberg_marquardt_lsmr:2000,levenberg_marquardt:200"


def build_case(case: str, config: dict):
    """(posterior, MAP, WG method config mapping, key name) of ``case`` as the pipeline builds them."""
    import jax.numpy as jnp

    from geobayes.io import load_npz
    from geobayes.optimize import tangent_precision

    if case == "regression":
        from geobayes.pipeline.posteriors import build_posterior

        options = config["experiments"]["bnn_hartmann"]
        posterior = build_posterior("drop23-mlp2x10var", REPO / "data/prepared/bnn_hartmann/drop23.npz", options)
        mode = load_npz(REPO / "results/map/drop23-mlp2x10var/euclidean.npz")["position"]
        settings = {**config["approximation"]["wrapped_gaussian"], **options["approximation"]["wrapped_gaussian"]}
        precision = tangent_precision("euclidean", options)
    elif case == "classifier":
        from geobayes.data.prepared import load_prepared
        from geobayes.networks.classifier_posterior import build_classifier_posterior

        options = config["bnn_classifier"]
        data = load_prepared(REPO / f"data/prepared/bnn_classifier/{options['dataset']}.npz", "banana_classification")
        posterior = build_classifier_posterior(options, data["X"], data["y"])
        mode = load_npz(REPO / "results/bnn_classifier/optimum0/map.npz", required=("position",))["position"]
        settings = dict(options["wrapped_gaussian"])
        precision = options["precision"]
    else:
        raise ValueError(f"--case: expected 'regression' or 'classifier', got {case!r}")
    return posterior, jnp.asarray(mode), {"precision": precision, "wrapped_gaussian": settings}


def parse_solvers(text: str) -> list[tuple[str, str, int | None, int | None]]:
    """``name[:max_steps][@chunk_size],...`` -> [(label, name, max_steps or None, chunk_size or None)]."""
    out = []
    for label in text.split(","):
        spec, _, chunk = label.partition("@")
        name, _, cap = spec.partition(":")
        out.append((label, name, int(cap) if cap else None, int(chunk) if chunk else None))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", default="regression", choices=["regression", "classifier"])
    parser.add_argument("--config", type=Path, default=REPO / "config" / "quick.yaml")
    parser.add_argument("--n", type=int, default=20, help="tangent draws inverted per solver")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--solvers", default=DEFAULT_SOLVERS, help="name[:max_steps],... (first = baseline)")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)

    import jax

    jax.config.update("jax_enable_x64", True)
    import numpy as np
    import yaml

    from geobayes.batching import Schedule, lockstep_waste
    from geobayes.geometry.approximate_exponential_map import ExpMapSettings, approximate_exponential_map
    from geobayes.io import provenance, save_json
    from geobayes.methods import get_method, method_config
    from geobayes.random import derive_key

    config = yaml.safe_load(args.config.read_text())
    posterior, mode, wg_config = build_case(args.case, config)
    fitted = get_method("wg").fit(posterior, method_config("wg", wg_config), None, mode=mode).approximation
    velocities = fitted.tangent.sample_velocities(derive_key(0, "bench_wg_network", args.case), args.n)
    base = fitted.settings
    output = args.output or REPO / "benchmarks" / "results" / f"wg_network_{args.case}.json"

    rows, points = [], {}
    for label, name, cap, chunk in parse_solvers(args.solvers):
        settings = ExpMapSettings(solver=name, rtol=base.rtol, atol=base.atol,
                                  max_steps=cap or base.max_steps, residual_tol=base.residual_tol,
                                  inner_max_steps=base.inner_max_steps)
        schedule = Schedule(chunk_size=chunk)
        run = jax.jit(lambda v, s=settings, c=schedule: approximate_exponential_map(fitted.log_map, v, s, c))
        start = time.perf_counter()
        compiled = run.lower(velocities).compile()
        compile_s = time.perf_counter() - start
        walls = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            result = jax.block_until_ready(compiled(velocities))
            walls.append(time.perf_counter() - start)
        ok = np.asarray(result.successful)
        steps = np.asarray(result.num_steps)
        residual = np.asarray(result.residual)
        codes, counts = np.unique(np.asarray(result.result_code), return_counts=True)
        points[label] = (np.asarray(result.points), ok)
        wall = statistics.median(walls)
        row = {"solver": label, "max_steps": settings.max_steps, "chunk_size": chunk, "samples": args.n,
               "success": float(ok.mean()), "lockstep_waste": lockstep_waste(steps, chunk),
               "result_codes": {str(int(c)): int(k) for c, k in zip(codes, counts)},
               "median_steps": float(np.median(steps)), "max_steps_taken": int(steps.max()),
               "median_residual": float(np.median(residual)), "max_residual": float(np.max(residual)),
               "compile_s": compile_s, "walls_s": walls, "wall_s": wall, "per_sample_s": wall / args.n,
               "per_batch_step_s": wall / max(int(steps.max()), 1), "load_average": os.getloadavg()}
        rows.append(row)
        print(f"{label}: {row}", flush=True)
        save_json(output, {"provenance": provenance(), "args": {k: str(v) for k, v in vars(args).items()},
                           "case": args.case, "dim": int(mode.shape[0]), "rows": rows, "complete": False})

    baseline = rows[0]
    base_points, base_ok = points[baseline["solver"]]
    for row in rows:
        row["ratio_vs_" + baseline["solver"]] = row["wall_s"] / baseline["wall_s"]
        theta, ok = points[row["solver"]]
        both = ok & base_ok
        row["max_distance_to_baseline"] = float(np.max(np.abs(theta[both] - base_points[both]))) if both.any() else None

    header = ("solver", "max_steps", "samples", "success", "median_steps", "max_steps_taken", "lockstep_waste",
              "max_residual",
              "wall_s", "per_sample_s", "ratio_vs_" + baseline["solver"])
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(f"{row[k]:.3g}" if isinstance(row[k], float) else str(row[k]) for k in header) + " |")
    save_json(output, {"provenance": provenance(), "args": {k: str(v) for k, v in vars(args).items()},
                       "case": args.case, "dim": int(mode.shape[0]), "rows": rows, "complete": True})
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
