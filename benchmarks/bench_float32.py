"""Per-sample cost of RLA-F and RLA-B in float64 (geobayes' default) and float32 (the papers' code).

Issue 20, item 3: ``approximation.dtype`` (geobayes.floating_point) runs the approximation stage
in float32, as Yu et al.'s (2024) public code does (JAX's default precision). For each data set x
input preprocessing x method this fits the method once per precision (same MAP), then times
batched sampling, ``approximation.sample(key, n)``: a warm-up call (compilation), then
``--repeats`` rounds that time float64 and float32 one after the other (interleaved, so that the
machine's load falls on both alike); the median per sample of each, their ratio float64 / float32,
and each precision's mean solver steps and failed solves. The draws of the two precisions are not
the same samples (JAX's normal draws use 64 or 32 random bits), so the steps are compared as means.
Speed is measured here, never asserted in tests.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_float32.py                       # Pima and Heart, both inputs
    .venv/bin/python benchmarks/bench_float32.py --datasets pima --inputs standardised --n 200 --repeats 1 \\
        --output /tmp/smoke.json                                       # smoke run
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "float32.json"
DTYPES = ("float64", "float32")


def parse_args(argv=None) -> argparse.Namespace:
    names = lambda text: [x.strip() for x in text.split(",") if x.strip()]  # noqa: E731
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("GEOBAYES_DATA_MIRROR",
                                                                             REPO.parent / "shared" / "data")))
    parser.add_argument("--datasets", type=names, default=["pima", "heart"])
    parser.add_argument("--inputs", type=names, default=["standardised", "raw"])
    parser.add_argument("--methods", type=names, default=["rla_f", "rla_b"])
    parser.add_argument("--n", type=int, default=2000, help="samples per batched call (default 2000)")
    parser.add_argument("--slow-n", type=int, default=200,
                        help="samples per call of RLA-B on raw inputs (thousands of steps a sample; default 200)")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved timed rounds (median; default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    sys.path.insert(0, str(REPO / "src"))
    import jax
    import jax.numpy as jnp
    import numpy as np

    from geobayes.data.logreg import load_logreg_raw, prepare_logreg
    from geobayes.dataset import Dataset
    from geobayes.floating_point import floating_point
    from geobayes.io import provenance, save_json
    from geobayes.methods import get_method, method_config
    from geobayes.models import LogisticRegression
    from geobayes.optimize import find_map
    from geobayes.posterior import Posterior
    from geobayes.random import derive_key

    load_start, cases = os.getloadavg(), []
    for dataset in args.datasets:
        features, labels = load_logreg_raw(args.data_dir / "logreg" / f"{dataset}.npy")
        for inputs in args.inputs:
            prepared = prepare_logreg(features, labels, standardise=inputs == "standardised")
            name = f"{dataset}_{inputs}-logreg"

            def posterior():
                return Posterior(name, LogisticRegression(), Dataset(np.asarray(prepared.X), np.asarray(prepared.y)))

            key = derive_key(args.seed, "bench_float32", name)
            mode = np.asarray(find_map(lambda theta, p: p.logdensity(theta), posterior(), prepared.X.shape[1],
                                       key, restarts=5).position)
            for method in args.methods:
                n = args.slow_n if (method == "rla_b" and inputs == "raw") else args.n
                fitted, steps, failed, times = {}, {}, {}, {dtype: [] for dtype in DTYPES}
                for dtype in DTYPES:
                    with floating_point(dtype):
                        config = method_config(method, {"precision": "hessian"})
                        fitted[dtype] = get_method(method).fit(posterior(), config, key,
                                                               mode=jnp.asarray(mode)).approximation
                        draws = jax.block_until_ready(fitted[dtype].sample(key, n))  # compiles
                        steps[dtype] = float(np.mean(np.asarray(draws.num_steps)))
                        failed[dtype] = int(np.sum(~np.asarray(draws.successful)))
                for _ in range(args.repeats):
                    for dtype in DTYPES:
                        with floating_point(dtype):
                            start = time.perf_counter()
                            jax.block_until_ready(fitted[dtype].sample(key, n))
                            times[dtype].append((time.perf_counter() - start) / n)
                median = {dtype: statistics.median(times[dtype]) for dtype in DTYPES}
                case = {"posterior": name, "method": method, "n": n, "seconds_per_sample": times,
                        "median_s": median, "float64_over_float32": median["float64"] / median["float32"],
                        "mean_steps": steps, "failed": failed, "load_average": os.getloadavg()}
                cases.append(case)
                print(f"{name:28s} {method:6s} n={n:5d}: float64 {1e3 * median['float64']:.3f} ms, float32 "
                      f"{1e3 * median['float32']:.3f} ms per sample (x{case['float64_over_float32']:.2f}); "
                      f"steps {steps['float64']:.2f} / {steps['float32']:.2f}; failed {failed}", flush=True)
    save_json(args.output, {"benchmark": "float32", "description": __doc__.split("\n\n")[0], "cases": cases,
                            "settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()
                                         if k != "output"},
                            "load_average_start": load_start, "load_average_end": os.getloadavg(),
                            "cpu_count": os.cpu_count(), "provenance": provenance()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
