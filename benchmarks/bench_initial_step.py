"""The geodesic solve's first step (``approximation.ode.initial_step``): automatic vs a given one.

Issue 20, lever 1b. On the identical vector field Diffrax 0.7 starts the geodesic IVP at about
0.01 of the unit interval where the authors' Diffrax 0.4 started at 0.11-0.13, so every RLA-F
solve on the standardised logistic regressions took one step more than theirs (T = 18 against
Yu et al. 2024's 12-14). This runs, in one process and for each data set x inputs x method,
the automatic first step (``None``, today's default) and each ``--steps`` value on the same MAP,
key and batch, interleaved over ``--repeats``, and records per setting: mean and max Diffrax
steps, ``T = 6 x mean steps``, failed solves, the median batched time per sample (compile
excluded: one warm-up call), and the largest difference of the draws from the automatic
setting's (to be read against the ODE tolerance, rtol 1e-3). Speed is measured, never asserted.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_initial_step.py                 # defaults, ~15 min
    .venv/bin/python benchmarks/bench_initial_step.py --n 100 --repeats 1 --datasets ripley
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "initial_step.json"
EVALUATIONS_PER_STEP = 6  # Dopri5: T = 6 x Diffrax steps (Yu et al. 2024, Sec. 5)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="directory holding logreg/<name>.npy (default: $GEOBAYES_DATA_MIRROR or ../shared/data)")
    parser.add_argument("--datasets", default="ripley,pima,heart")
    parser.add_argument("--inputs", default="standardised,raw")
    parser.add_argument("--methods", default="rla_f,rla_b")
    parser.add_argument("--steps", default="1.0,0.1", help="first steps tried besides the automatic one")
    parser.add_argument("--skip", default="heart:raw:rla_b",
                        help="dataset:inputs:method cases left out (default: RLA-B on raw Heart, ~0.5 s a sample, "
                             "thousands of steps per solve; bench_lockstep.py times it)")
    parser.add_argument("--n", type=int, default=1000, help="samples per batch")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    if args.n < 1 or args.repeats < 1:
        parser.error(f"--n and --repeats must be >= 1; got {args.n}, {args.repeats}")
    try:
        args.steps = [float(x) for x in args.steps.split(",") if x.strip()]
    except ValueError:
        parser.error(f"--steps: expected comma-separated numbers, got {args.steps!r}")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    import os

    import jax
    import numpy as np

    jax.config.update("jax_enable_x64", True)
    from geobayes.data.logreg import load_logreg_raw, prepare_logreg
    from geobayes.dataset import Dataset
    from geobayes.io import provenance, save_json
    from geobayes.methods import get_method, method_config
    from geobayes.models import LogisticRegression
    from geobayes.optimize import find_map
    from geobayes.posterior import Posterior

    data_dir = args.data_dir or Path(os.environ.get("GEOBAYES_DATA_MIRROR", REPO.parent / "shared" / "data"))
    root = jax.random.PRNGKey(args.seed)
    cases = []
    settings = [None, *args.steps]
    for d_index, dataset in enumerate(args.datasets.split(",")):
        path = data_dir / "logreg" / f"{dataset}.npy"
        if not path.is_file():
            print(f"error: {path} not found (set --data-dir or GEOBAYES_DATA_MIRROR)", file=sys.stderr)
            return 2
        features, labels = load_logreg_raw(path)
        for i_index, inputs in enumerate(args.inputs.split(",")):
            prepared = prepare_logreg(features, labels, standardise=(inputs == "standardised"))
            posterior = Posterior(f"{dataset}_{inputs}-logreg", LogisticRegression(), Dataset(prepared.X, prepared.y))
            case_key = jax.random.fold_in(jax.random.fold_in(root, d_index), i_index)
            mode = find_map(lambda th, p: p.logdensity(th), posterior, posterior.dim,
                            jax.random.fold_in(case_key, 0), restarts=5).position
            for method in args.methods.split(","):
                if f"{dataset}:{inputs}:{method}" in args.skip.split(","):
                    continue
                samplers = {}
                for step in settings:
                    config = method_config(method, {"ode": {"initial_step": step}})
                    approximation = get_method(method).fit(posterior, config, jax.random.fold_in(case_key, 1),
                                                           mode=mode).approximation
                    samplers[step] = jax.jit(lambda k, a=approximation: a.sample(k, args.n))
                key = jax.random.fold_in(case_key, 2)
                draws = {step: jax.block_until_ready(fn(key)) for step, fn in samplers.items()}  # warm-up
                times = {step: [] for step in settings}
                for _ in range(args.repeats):  # interleaved: the machine's drift hits every setting alike
                    for step, fn in samplers.items():
                        start = time.perf_counter()
                        jax.block_until_ready(fn(key))
                        times[step].append(time.perf_counter() - start)
                reference = np.asarray(draws[None].theta)
                for step in settings:
                    steps = np.asarray(draws[step].num_steps)
                    ok = np.asarray(draws[step].successful)
                    both = ok & np.asarray(draws[None].successful)
                    row = {
                        "dataset": dataset, "inputs": inputs, "method": method, "initial_step": step,
                        "n": args.n, "steps_mean": float(steps.mean()), "steps_max": int(steps.max()),
                        "T": EVALUATIONS_PER_STEP * float(steps.mean()), "failures": int((~ok).sum()),
                        "ms_per_sample": 1e3 * statistics.median(times[step]) / args.n,
                        "max_abs_diff_to_automatic": float(np.max(np.abs(np.asarray(draws[step].theta)[both]
                                                                           - reference[both]), initial=0.0)),
                    }
                    cases.append(row)
                    print(f"{dataset:8s} {inputs:12s} {method:6s} {str(step):5s} steps {row['steps_mean']:8.2f} "
                          f"(max {row['steps_max']:5d}) T {row['T']:8.1f} fail {row['failures']:3d} "
                          f"{row['ms_per_sample']:8.4f} ms/sample  max|diff| {row['max_abs_diff_to_automatic']:.2e}",
                          flush=True)
    save_json(args.output, {"cases": cases, "args": {k: (str(v) if isinstance(v, Path) else v)
                                                      for k, v in vars(args).items()},
                            "provenance": provenance()})
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
