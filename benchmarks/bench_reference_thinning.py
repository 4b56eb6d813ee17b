"""Exact W1 to a thinned NUTS reference against W1 to the whole one: the cost and the change.

``evaluation.max_reference_draws`` (``geobayes.samplers.thinning``) evaluates every approximation,
floor and cross-check against every ``k``-th reference draw. This script takes a finished results
tree, and for one posterior computes W1 of every approximation's samples (every anchor, method and
repetition) to the whole reference and to the thinned one, timing each in this process, and
reports the absolute and relative change and the methods' order (by mean W1 over repetitions,
per anchor) both ways.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_reference_thinning.py --workdir /path/to/quick/tree          # ~4 min
    .venv/bin/python benchmarks/bench_reference_thinning.py --workdir TREE --max-draws 5000 --posterior yu2024-banana

Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "reference_thinning.json"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workdir", type=Path, required=True, help="a results tree of a finished run")
    parser.add_argument("--posterior", default="yu2024-banana")
    parser.add_argument("--max-draws", type=int, default=5000)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    from geobayes.io import provenance, save_json
    from geobayes.metrics import wasserstein1
    from geobayes.samplers.thinning import thinned_reference

    reference_path = args.workdir / "results" / "reference" / args.posterior / "nuts.npz"
    if not reference_path.is_file():
        raise SystemExit(f"--workdir: no reference {reference_path}; run the DAG there first")
    reference = np.load(reference_path)["draws"]
    thinned = thinned_reference(reference, args.max_draws)[0]
    runs = sorted((args.workdir / "results" / "approximation" / args.posterior).glob("*/*/seed*/samples.npz"))
    if not runs:
        raise SystemExit(f"--workdir: no approximations of {args.posterior}")
    rows, by_anchor = [], defaultdict(lambda: defaultdict(lambda: {"whole": [], "thinned": []}))
    for path in runs:
        samples = np.load(path)
        theta = samples["theta"][samples["successful"].astype(bool)]
        anchor, method, seed = path.parts[-4:-1]
        row = {"anchor": anchor, "method": method, "repetition": seed}
        for name, ref in (("whole", reference), ("thinned", thinned)):
            start = time.perf_counter()
            row[f"w1_{name}"] = wasserstein1(theta, ref, num_iter_max=10**10)
            row[f"seconds_{name}"] = time.perf_counter() - start
            by_anchor[anchor][method][name].append(row[f"w1_{name}"])
        row["change"] = row["w1_thinned"] - row["w1_whole"]
        row["relative_change"] = row["change"] / row["w1_whole"]
        rows.append(row)
        print(f"{anchor:10s} {method:9s} {seed}: W1 {row['w1_whole']:.4f} ({row['seconds_whole']:.1f} s) -> "
              f"{row['w1_thinned']:.4f} ({row['seconds_thinned']:.2f} s)", flush=True)
    orders = {anchor: {name: sorted(methods, key=lambda m: statistics.mean(methods[m][name]))
                       for name in ("whole", "thinned")} for anchor, methods in by_anchor.items()}
    changes = [abs(r["change"]) for r in rows]
    relative = [abs(r["relative_change"]) for r in rows]
    summary = {"max_abs_change": max(changes), "min_abs_change": min(changes), "max_relative_change": max(relative),
               "median_seconds_whole": statistics.median(r["seconds_whole"] for r in rows),
               "median_seconds_thinned": statistics.median(r["seconds_thinned"] for r in rows),
               "same_order": all(o["whole"] == o["thinned"] for o in orders.values())}
    print(summary, orders)
    save_json(args.output, {"posterior": args.posterior, "reference_draws": int(reference.shape[0]),
                            "thinned_draws": int(thinned.shape[0]), "max_draws": args.max_draws, "summary": summary,
                            "orders": orders, "rows": rows, "provenance": provenance()})
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
