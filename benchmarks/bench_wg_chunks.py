"""WG's first solve in chunks (``approximation.wrapped_gaussian.chunk_size``) against one batch.

The closed-form wrapped Gaussian (Hartmann et al. 2026, Eq. (14)) inverts its log map for every
tangent draw under ``vmap``. On a CPU one batch of a few hundred per-sample solver states (for
Broyden's method a D x D inverse Jacobian each, plus the residuals over the data) outgrows the
cache, and the batch runs slower than the same draws in chunks. For each Table 1 posterior
(prepared from the mirror as ``bench_wg_sampling.py`` prepares them, MAP found here) this times,
in one process, WG with ``chunk_size`` 0 (one batch) and each size of ``--chunks``, every variant
compiled ahead of time and called ``--repeats`` times round-robin
(:func:`geobayes.metrics.equal_count_timing.time_approximations`). It reports the median and
fastest call per sample, each chunk size's speed-up over one batch, and the largest difference of
its draws from one batch's (round-off: the draws do not depend on the chunks).

Usage (from the repository root; GEOBAYES_DATA_MIRROR or ../shared/data)::

    .venv/bin/python benchmarks/bench_wg_chunks.py --output benchmarks/results/wg_chunks.json   # ~5 min

Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_wg_sampling import WG_SETTINGS, table1_at_map, table1_parser  # noqa: E402


def main(argv=None) -> int:
    parser = table1_parser(__doc__.split("\n\n")[0], REPO / "benchmarks" / "results" / "wg_chunks.json")
    parser.add_argument("--chunks", type=int, nargs="+", default=[25, 50, 100])
    args = parser.parse_args(argv)

    import jax

    jax.config.update("jax_enable_x64", True)
    import numpy as np

    from geobayes.io import provenance
    from geobayes.methods import get_method, method_config
    from geobayes.metrics.equal_count_timing import time_approximations

    settings = WG_SETTINGS
    results = []
    for name, posterior, key, mode in table1_at_map(args.models):
        fits = {f"chunk_{c}": (lambda c=c: get_method("wg").fit(
                    posterior, method_config("wg", {"precision": "hessian", "schedule": {"chunk_size": 0},
                                                    "wrapped_gaussian": {**settings, "chunk_size": c}}), key, mode=mode))
                for c in [0, *args.chunks]}
        rows, draws = time_approximations(fits, key, args.n, args.repeats)
        one_batch = rows["chunk_0"]
        for label, row in rows.items():
            row["speedup_median"] = one_batch["per_sample_s"] / row["per_sample_s"]
            row["speedup_fastest"] = one_batch["min_per_sample_s"] / row["min_per_sample_s"]
            diff = np.abs(np.asarray(draws[label].theta) - np.asarray(draws["chunk_0"].theta))
            row["max_diff_from_one_batch"] = float(np.nanmax(diff))
            row["n_failed"] = int(np.sum(~np.asarray(draws[label].successful)))
        solver = str(fits["chunk_0"]().approximation.settings.solver)
        results.append({"case": name, "dim": posterior.dim, "n_data": int(posterior.data.X.shape[0]), "solver": solver,
                        "n": args.n, "variants": rows})
        print(f"{name} (D={posterior.dim}, N={posterior.data.X.shape[0]}, {solver}): one batch "
              f"{one_batch['per_sample_s'] * 1e6:.1f} us/sample; " + ", ".join(
                  f"{c}: {rows[f'chunk_{c}']['speedup_median']:.2f}x (fastest {rows[f'chunk_{c}']['speedup_fastest']:.2f}x, "
                  f"diff {rows[f'chunk_{c}']['max_diff_from_one_batch']:.1e})" for c in args.chunks), flush=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"provenance": provenance(), "machine": {"platform": platform.platform(),
                                                                             "cpus": os.cpu_count()},
                                       "args": {k: str(v) for k, v in vars(args).items()}, "results": results},
                                      indent=1))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
