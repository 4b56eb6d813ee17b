"""Compile seconds of WG's sampler with its fallback compiled only when needed, against one program.

``WrappedGaussian.sample`` runs the first solver's inversions as one program and the
Levenberg-Marquardt fallback on the samples it left unsolved as another, compiled and run only
for a batch that has any (:func:`geobayes.geometry.approximate_exponential_map.finish_with_fallback`).
Before, both solvers were one program: every batch compiled Levenberg-Marquardt, and on
Table 1's posteriors no batch of the quick run used it. The baseline here is that one program,
as a caller's ``jit`` around ``sample`` still builds it (the fallback inline).

For each of Table 1's posteriors (built from the mirror as ``bench_wg_sampling.py`` builds them,
at its MAP), ``--repeats`` rounds of: clear JAX's in-memory caches, then draw ``--n`` samples
with the lazy sampler and with the one program, the order alternating by round, each timed whole
(compile and run) with its compile seconds (:class:`geobayes.pipeline.compile_clock.CompileClock`).
No persistent cache is used. Medians per posterior and method, their ratio, the samples the
fallback solved, and whether both gave bit-identical draws. Speed is measured here, never asserted
in tests.

Usage (from the repository root; GEOBAYES_DATA_MIRROR or ../shared/data)::

    .venv/bin/python benchmarks/bench_wg_lazy_fallback.py --repeats 3 \
        --output benchmarks/results/wg_lazy_fallback.json
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_wg_sampling import WG_SETTINGS, table1_at_map, table1_parser  # noqa: E402

DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "wg_lazy_fallback.json"


def main(argv=None) -> int:
    parser = table1_parser(__doc__.splitlines()[0], DEFAULT_OUTPUT)
    parser.set_defaults(repeats=3)
    args = parser.parse_args(argv)

    import equinox as eqx
    import jax
    import numpy as np

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_compilation_cache_dir", None)
    from geobayes.methods import wg
    from geobayes.pipeline.compile_clock import CompileClock

    @eqx.filter_jit
    def one_program(approximation, key, n):
        return approximation.sample(key, n)  # traced: both solvers inline, as before

    rows = {}
    for name, posterior, key, mode in table1_at_map(args.models):
        fitted = wg.fit(posterior, wg.Config.from_mapping({"wrapped_gaussian": WG_SETTINGS}), key, mode=mode)
        sampler = fitted.approximation
        runs = {"lazy": lambda: sampler.sample(key, args.n), "one_program": lambda: one_program(sampler, key, args.n)}
        seconds = {label: {"total_s": [], "compile_s": []} for label in runs}
        draws = {}
        for round_ in range(args.repeats):
            for label in (list(runs) if round_ % 2 == 0 else list(reversed(runs))):
                jax.clear_caches()
                clock, start = CompileClock(), time.perf_counter()
                with clock:
                    draws[label] = jax.block_until_ready(runs[label]())
                seconds[label]["total_s"].append(time.perf_counter() - start)
                seconds[label]["compile_s"].append(clock.seconds)
        medians = {label: {k: statistics.median(v) for k, v in s.items()} for label, s in seconds.items()}
        identical = all(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)
                        for a, b in zip(draws["lazy"], draws["one_program"], strict=True) if a is not None)
        rows[name] = {**{label: {**medians[label], "calls": seconds[label]} for label in runs},
                      "compile_ratio": medians["one_program"]["compile_s"] / medians["lazy"]["compile_s"],
                      "total_ratio": medians["one_program"]["total_s"] / medians["lazy"]["total_s"],
                      "n_fallback": int(np.sum(np.asarray(draws["lazy"].fallback))),
                      "bit_identical": bool(identical)}
        print(f"{name:22s} compile {medians['one_program']['compile_s']:5.2f} -> {medians['lazy']['compile_s']:5.2f} s "
              f"({rows[name]['compile_ratio']:.2f}x), fallback {rows[name]['n_fallback']}, "
              f"identical {identical}", flush=True)

    total = {label: sum(row[label]["compile_s"] for row in rows.values()) for label in ("lazy", "one_program")}
    record = {"benchmark": "wg_lazy_fallback", "n": args.n, "repeats": args.repeats, "settings": WG_SETTINGS,
              "posteriors": rows, "compile_s_sum": total, "compile_ratio_sum": total["one_program"] / total["lazy"],
              "platform": platform.platform(), "jax": jax.__version__}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(record, indent=2) + "\n")
    print(f"sum of medians: one program {total['one_program']:.1f} s, lazy {total['lazy']:.1f} s "
          f"({record['compile_ratio_sum']:.2f}x); wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
