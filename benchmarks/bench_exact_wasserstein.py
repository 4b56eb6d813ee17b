"""Wall time and peak memory of one exact Wasserstein evaluation, up to the paper's size.

An evaluation job (workflow/scripts/evaluate.py) solves the exact optimal transport problem
between ``n`` approximation draws and the ``R`` reference draws with POT's network simplex
(``ot.emd2`` through :func:`geobayes.metrics.wasserstein1`); at Yu et al.'s (2024) paper scale
``R = 20,000`` NUTS draws and ``n = 10,000`` samples, 540 such problems (issue 20, item 5). Each
case runs in a fresh interpreter, so that its peak resident memory (``ru_maxrss`` of the child)
is the evaluation's own, and is set beside the memory the ``evaluate`` rule declares to SLURM
(``wasserstein_mem_mb`` in workflow/rules/common.smk: 1,000 MB plus five float64 copies of the
``R x n`` cost matrix).

It also times POT's ``numThreads`` (the multi-threaded network simplex the issue suggests): the
same problem with 1 and 2 threads in one process, interleaved. In POT 0.9.7 the network
simplex no longer uses OpenMP and the argument is ignored (POT says so in a DeprecationWarning,
recorded here), so the two timings differ by noise only.

Draws are those of a D-dimensional standard normal (an exact sampler's against the reference).
Speed is measured here, never asserted in tests.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_exact_wasserstein.py                       # R = 2,000 ... 20,000
    .venv/bin/python benchmarks/bench_exact_wasserstein.py --sizes 1000 --repeats 1 --output /tmp/smoke.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "exact_wasserstein.json"

#: One evaluation in a child interpreter: W1 of R/2 draws against R, its wall seconds and peak RSS.
CHILD = """
import json, resource, sys, time
import numpy as np
sys.path.insert(0, {src!r})
from geobayes.metrics import wasserstein1
size, dim, seed = {size}, {dim}, {seed}
rng = np.random.default_rng(seed)
reference, draws = rng.normal(size=(size, dim)), rng.normal(size=(size // 2, dim))
wasserstein1(draws[:10], reference[:10], num_iter_max=10**10)  # imports POT outside the timing
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
value = wasserstein1(draws, reference, num_iter_max=10**10)
wall = time.perf_counter() - start
print(json.dumps({{"w1": value, "wall_s": wall, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rss_before_mb": before / 1024}}))
"""


def declared_mem_mb(reference_size: int, samples: int) -> int:
    """The ``evaluate`` rule's ``mem_mb`` (workflow/rules/common.smk, ``wasserstein_mem_mb``)."""
    return 1000 + 5 * 8 * reference_size * samples // 2**20


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=lambda s: [int(v) for v in s.split(",")], default=[2000, 5000, 10000, 20000],
                        help="reference sizes R (comma-separated); n = R/2 (default 2000,5000,10000,20000)")
    parser.add_argument("--dim", type=int, default=7, help="dimension D (default 7: the paper's largest logreg)")
    parser.add_argument("--repeats", type=int, default=3, help="evaluations per size below 20,000 (median; default 3)")
    parser.add_argument("--thread-size", type=int, default=5000, help="R of the numThreads comparison (default 5000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    return parser.parse_args(argv)


def child_evaluation(size: int, dim: int, seed: int) -> dict:
    """One evaluation in a fresh interpreter (its peak memory is its own)."""
    code = CHILD.format(src=str(REPO / "src"), size=size, dim=dim, seed=seed)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def thread_comparison(size: int, dim: int, seed: int, repeats: int) -> dict:
    """``ot.emd2`` with ``numThreads`` 1 and 2 on one problem, interleaved; POT's warnings kept."""
    import warnings

    import numpy as np
    import ot

    rng = np.random.default_rng(seed)
    reference, draws = rng.normal(size=(size, dim)), rng.normal(size=(size // 2, dim))
    cost = ot.dist(draws, reference, metric="euclidean")
    a, b = np.full(len(draws), 1 / len(draws)), np.full(len(reference), 1 / len(reference))
    times: dict[int, list[float]] = {1: [], 2: []}
    values, messages = set(), set()
    for _ in range(repeats):
        for threads in (1, 2):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                start = time.perf_counter()
                values.add(float(ot.emd2(a, b, cost, numItermax=10**10, numThreads=threads)))
                times[threads].append(time.perf_counter() - start)
            messages |= {str(w.message) for w in caught}
    one, two = statistics.median(times[1]), statistics.median(times[2])
    return {"reference_size": size, "n": size // 2, "seconds": {str(k): v for k, v in times.items()},
            "median_1_thread_s": one, "median_2_threads_s": two, "two_over_one": two / one,
            "distinct_costs": sorted(values), "pot_warnings": sorted(messages), "pot_version": ot.__version__}


def main(argv=None) -> int:
    args = parse_args(argv)
    sys.path.insert(0, str(REPO / "src"))
    from geobayes.io import provenance, save_json

    load_start = os.getloadavg()
    cases = []
    for size in args.sizes:
        repeats = 1 if size >= 20000 else args.repeats  # the paper size: about 100 s and 8 GB each
        runs = [child_evaluation(size, args.dim, args.seed) for _ in range(repeats)]
        n = size // 2
        peak = max(r["peak_rss_mb"] for r in runs)
        case = {"reference_size": size, "n": n, "dim": args.dim, "cost_matrix_mb": 8 * size * n / 2**20,
                "wall_s": [r["wall_s"] for r in runs], "median_wall_s": statistics.median(r["wall_s"] for r in runs),
                "peak_rss_mb": peak, "rss_before_mb": runs[0]["rss_before_mb"],
                "declared_mem_mb": declared_mem_mb(size, n), "w1": runs[0]["w1"]}
        case["declared_over_peak"] = case["declared_mem_mb"] / peak
        cases.append(case)
        print(f"R={size:>6} n={n:>6}: {case['median_wall_s']:8.2f} s, peak {peak:8.0f} MB "
              f"(cost matrix {case['cost_matrix_mb']:.0f} MB; declared {case['declared_mem_mb']} MB)", flush=True)
    threads = thread_comparison(args.thread_size, args.dim, args.seed, args.repeats)
    print(f"numThreads 2 / 1 at R={args.thread_size}: {threads['two_over_one']:.2f}; POT: {threads['pot_warnings']}")
    save_json(args.output, {"benchmark": "exact_wasserstein", "description": __doc__.split("\n\n")[0],
                            "cases": cases, "threads": threads, "load_average_start": load_start,
                            "load_average_end": os.getloadavg(), "cpu_count": os.cpu_count(),
                            "provenance": provenance()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
