"""RLA-BLog's shooting log map: the chord corrector against Newton's, on the pipeline's posteriors.

The log map of RLA-BLog (Yu et al. 2024, Algorithm 2) is solved by shooting with continuation
(:func:`geobayes.geometry.logarithmic_map.logarithmic_map`). Each continuation stage corrects its
predicted velocity either by Newton's method (a forward-mode Jacobian of the shot, ``D`` tangent
ODE solves, every iteration) or by the chord method (the Jacobian of the last accepted stage,
which the branch tangent needs anyway, reused for every iteration). This script solves, in one
process and on the pipeline's own targets (``m + thetabar`` with the key the ``approximate`` job
folds for repetition 0), the log maps of ``--n`` targets with each corrector of ``--correctors``
(``name[:stage_max_steps[:max_steps]]``; missing values are the config's), compiled ahead of time
and run ``--repeats`` times interleaved. Per case and corrector it records: solved targets, those
Newton's fallback solved again (``fallbacks``; the records of stop 43 predate this field), result
codes, median and max corrector iterations, the median seconds per target, and, against the first
corrector, the targets whose velocities agree to ``--agree`` (max norm) and, where both solved but
disagree, the difference of the geodesics' lengths ``|v|`` (the metric is ``I`` at the mode, so
``|v|`` is the length): negative = the other corrector found the shorter geodesic.

Cases are ``experiment:posterior:data`` (``data`` a path, or ``-`` for a closed-form target); the
model options are the experiment's in ``--config`` and the MAP is the pipeline's
(``results/map/<posterior>/euclidean.npz``). Build them first, e.g. at quick scale::

    GEOBAYES_DATA_MIRROR=... .venv/bin/snakemake --cores 2 --configfile config/quick.yaml -- \\
        results/map/d10-gaussian/euclidean.npz results/map/gap_raw-mlp1x10/euclidean.npz ...
    .venv/bin/python benchmarks/bench_log_map.py --n 20 --repeats 2                 # low_dim, ~2 min
    .venv/bin/python benchmarks/bench_log_map.py --preset networks --n 8           # ~25 min

Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: The posteriors RLA-BLog runs on at quick scale with a low dimension, and the standardised
#: logistic regressions it runs on at paper scale (D = 2-25).
LOW_DIMENSIONAL_CASES = ",".join([
    "banana:yu2024-banana:data/prepared/banana/yu2024.npz",
    "gaussian:d2-gaussian:-",
    "gaussian:d5-gaussian:-",
    "gaussian:d10-gaussian:-",
    "logreg:pima_standardised-logreg:data/prepared/logreg/pima_standardised.npz",
    "logreg:heart_standardised-logreg:data/prepared/logreg/heart_standardised.npz",
    "logreg:german_standardised-logreg:data/prepared/logreg/german_standardised.npz",
])
#: Yu et al.'s four Snelson networks (D = 31).
NETWORK_CASES = ",".join(
    f"bnn_yu:{split}-mlp1x10:results/network/{split}-mlp1x10.npz"
    for split in ("complete_standardised", "gap_standardised", "complete_raw", "gap_raw")
)
#: Each case set against Newton's corrector as the configs ran it before the chord's:
#: 5 iterations a stage and a budget of 128 (global), 10 and 1024 on the networks (bnn_yu).
PRESETS = {
    "low_dim": (LOW_DIMENSIONAL_CASES, "newton:5:128,chord"),
    "networks": (NETWORK_CASES, "newton:10:1024,chord"),
}


def parse_correctors(text: str) -> list[tuple[str, dict]]:
    """``name[:stage_max_steps[:max_steps]],...`` -> [(label, log_map overrides)]."""
    out = []
    for label in text.split(","):
        name, *caps = label.split(":")
        overrides = {"corrector": name}
        for key, value in zip(("stage_max_steps", "max_steps"), caps, strict=False):
            overrides[key] = int(value)
        out.append((label, overrides))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", type=Path, default=REPO / "config" / "quick.yaml")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="low_dim",
                        help="cases and correctors (low_dim: ~2 min; networks: ~25 min)")
    parser.add_argument("--cases", default=None, help="experiment:posterior:data,... (default: the preset's)")
    parser.add_argument("--correctors", default=None,
                        help="name[:stage_max_steps[:max_steps]],... (first = baseline; default: the preset's)")
    parser.add_argument("--n", type=int, default=8, help="targets per case")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--agree", type=float, default=1e-5, help="max-norm distance of velocities that agree")
    parser.add_argument("--output", type=Path, default=None,
                        help="default: benchmarks/results/log_map_<preset>.json")
    args = parser.parse_args(argv)
    if args.n < 1 or args.repeats < 1:
        parser.error(f"--n and --repeats must be >= 1; got {args.n}, {args.repeats}")
    cases, correctors = PRESETS[args.preset]
    args.cases, args.correctors = args.cases or cases, args.correctors or correctors
    args.output = args.output or REPO / "benchmarks" / "results" / f"log_map_{args.preset}.json"

    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import yaml

    from geobayes.geometry.logarithmic_map import logarithmic_map
    from geobayes.io import load_npz, provenance, save_json
    from geobayes.methods import get_method, method_config
    from geobayes.optimize import tangent_precision
    from geobayes.pipeline.posteriors import build_posterior
    from geobayes.random import derive_key

    config = yaml.safe_load(args.config.read_text())
    correctors = parse_correctors(args.correctors)
    rows = []
    for case in args.cases.split(","):
        experiment, name, data = case.split(":")
        options = config["experiments"][experiment]
        map_path = REPO / "results" / "map" / name / "euclidean.npz"
        if not map_path.is_file():
            print(f"error: {map_path} not found: build it with snakemake first (see the docstring)", file=sys.stderr)
            return 2
        posterior = build_posterior(name, None if data == "-" else REPO / data, options)
        mode = jnp.asarray(load_npz(map_path)["position"])
        log_map = {**config["approximation"]["log_map"], **options.get("approximation", {}).get("log_map", {})}
        key = derive_key(config["seed"], "approximate", posterior.name, 0)
        results = {}
        for label, overrides in correctors:
            method = method_config("rla_blog", {"precision": tangent_precision("euclidean", options),
                                                "log_map": {**log_map, **overrides}})
            approximation = get_method("rla_blog").fit(posterior, method, key, mode=mode).approximation
            targets = mode + approximation.tangent.sample_velocities(key, args.n)
            metric, settings = approximation.gaussian_metric, approximation.log_map
            start = time.perf_counter()
            solve = jax.jit(lambda x, metric=metric, settings=settings:
                            logarithmic_map(metric, None, mode, x, settings))
            compiled = solve.lower(targets).compile()
            results[label] = {"compiled": compiled, "targets": targets, "compile_s": time.perf_counter() - start,
                              "times": [], "settings": settings}
        for _ in range(args.repeats):  # interleaved: the machine's drift hits every corrector alike
            for label, entry in results.items():
                start = time.perf_counter()
                entry["log"] = jax.block_until_ready(entry["compiled"](entry["targets"]))
                entry["times"].append(time.perf_counter() - start)
        baseline = results[correctors[0][0]]
        for label, entry in results.items():
            row = compare(entry, baseline, args.agree)
            row = {"experiment": experiment, "posterior": name, "dim": int(mode.shape[0]), "corrector": label,
                   "n": args.n, **row}
            rows.append(row)
            print(f"{name:32s} D={row['dim']:3d} {label:16s} solved {row['solved']:3d}/{args.n} "
                  f"(fallback {row['fallbacks']}) codes {row['result_codes']} steps {row['steps_median']:7.1f} "
                  f"(max {row['steps_max']:5d}) {row['s_per_target']:8.4f} s/target "
                  f"x{row['speedup_over_baseline']:6.2f} "
                  f"agree {row['agree_with_baseline']:3d} differ {row['differ_from_baseline']:3d} "
                  f"dlen {['%.1e' % x for x in row['length_minus_baseline_where_differ']]}", flush=True)
    arguments = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}
    save_json(args.output, {"cases": rows, "args": arguments, "provenance": provenance()})
    print(f"wrote {args.output}")
    return 0


def compare(entry: dict, baseline: dict, agree: float) -> dict:
    """One corrector's row: outcome, iterations, time, and agreement with the baseline's velocities."""
    import numpy as np

    log, reference = entry["log"], baseline["log"]
    ok, steps = np.asarray(log.successful), np.asarray(log.num_steps)
    both = ok & np.asarray(reference.successful)
    velocities, reference_velocities = np.asarray(log.velocities), np.asarray(reference.velocities)
    distance = np.max(np.abs(velocities - reference_velocities), axis=1)
    lengths = np.linalg.norm(velocities, axis=1) - np.linalg.norm(reference_velocities, axis=1)
    differ = both & (distance > agree)
    seconds = statistics.median(entry["times"])
    return {
        "stage_max_steps": entry["settings"].stage_max_steps, "max_steps": entry["settings"].max_steps,
        "solved": int(ok.sum()), "fallbacks": int(np.asarray(log.fallback).sum()),
        "result_codes": sorted({int(c) for c in np.asarray(log.result_code)}),
        "steps_median": float(np.median(steps)), "steps_max": int(steps.max()),
        "s_per_target": seconds / len(ok), "compile_s": entry["compile_s"],
        "speedup_over_baseline": statistics.median(baseline["times"]) / seconds,
        "agree_with_baseline": int((both & (distance <= agree)).sum()),
        "differ_from_baseline": int(differ.sum()),
        "length_minus_baseline_where_differ": [float(x) for x in lengths[differ]],
    }


if __name__ == "__main__":
    sys.exit(main())
