"""Per-sample sampling cost of ELA, RLA-B and RLA-F on Bayesian logistic regression.

Yu et al. (2024), "Riemannian Laplace Approximation with the Fisher Metric", Sec. 5.3 and
Table 4 (time per sample). For each data set x input preprocessing x method this measures, in
one process and on the same compiled code:

* batched sampling, ``approximation.sample(key, n)`` jitted as a whole, for each ``n`` in ``--n``:
  a warm-up call (timed; it includes compilation), then ``--repeats`` steady-state calls with the
  same key (identical work, so the spread is the machine's);
  the median over the repeats, per sample. Compile time = first call - steady-state median;
  the JAX compile events seen during the first call are summed as a cross-check;
* the achieved ``T`` (6 x mean Diffrax steps, failed solves counted at the cap), the number of
  failed solves, and the lockstep waste ``max(num_steps) / mean(num_steps)``: under ``vmap`` the
  adaptive solve keeps stepping until its slowest sample is done, so the batch does about
  ``waste`` times the work the samples need;
* the one-sample-at-a-time baseline (the paper's Table 4 protocol): ``sample(key_i, 1)`` looped
  in Python over ``--sequential`` samples through the same jitted function, a warm-up call, then
  ``--repeats`` passes over the same keys; median pass time / samples. The ratio
  sequential / batched says what batching buys;
* the library's own ``approximation.sample(key_i, 1)`` (itself an ``eqx.filter_jit``) looped
  over ``--api-samples`` samples, one pass: what a one-at-a-time caller of the public API pays,
  including equinox's per-call dispatch.

Reference figures (the authors' code, ``benchmarks/reference_timings.csv``) are printed beside
ours. Speed is measured here and never asserted in tests.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_logreg_sampling.py               # defaults, < 10 min
    .venv/bin/python benchmarks/bench_logreg_sampling.py --n 100 --sequential 20 --repeats 3 \\
        --slow-n 100 --slow-sequential 5 --slow-repeats 1               # smoke run

Expensive cases (``--slow-cases``, default RLA-B on raw inputs: a few samples need ~3000 Diffrax
steps, ~0.1 s per sample batched) use ``--slow-n``, ``--slow-sequential`` and ``--slow-repeats``.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "logreg_sampling.json"
DEFAULT_REFERENCE = REPO / "benchmarks" / "reference_timings.csv"
EVALUATIONS_PER_STEP = 6  # Dopri5: T = 6 x Diffrax steps (Yu et al. 2024, Sec. 5)
INPUTS = ("standardised", "raw")


def _int_list(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from err
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def _name_list(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _default_data_dir() -> Path:
    mirror = os.environ.get("GEOBAYES_DATA_MIRROR", "").strip()
    return Path(mirror) if mirror else (REPO.parent / "shared" / "data")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data-dir", type=Path, default=_default_data_dir(),
                        help="data mirror holding logreg/<dataset>.npy "
                             "(default: $GEOBAYES_DATA_MIRROR, else ../shared/data next to the repo)")
    parser.add_argument("--datasets", type=_name_list, default=["heart"],
                        help="comma-separated logistic-regression data sets (default: heart)")
    parser.add_argument("--inputs", type=_name_list, default=list(INPUTS),
                        help="comma-separated preprocessing: standardised,raw (default: both)")
    parser.add_argument("--methods", type=_name_list, default=["ela", "rla_b", "rla_f"],
                        help="comma-separated methods (default: ela,rla_b,rla_f)")
    parser.add_argument("--n", type=_int_list, default=[1000, 10000],
                        help="batch sizes for the batched timings (default: 1000,10000)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="timed repeats after the warm-up call; medians are over these (default: 5)")
    parser.add_argument("--sequential", type=int, default=200,
                        help="samples in the one-at-a-time baseline (0 = skip; default: 200)")
    parser.add_argument("--slow-cases", type=_name_list, default=["rla_b:raw"],
                        help="method:inputs[:dataset] cases that use the --slow-* sizes "
                             "(default: rla_b:raw; pass '' for none)")
    parser.add_argument("--slow-n", type=_int_list, default=[1000],
                        help="batch sizes for slow cases (default: 1000)")
    parser.add_argument("--slow-sequential", type=int, default=50,
                        help="one-at-a-time samples for slow cases (default: 50)")
    parser.add_argument("--slow-repeats", type=int, default=1,
                        help="timed batched repeats for slow cases (default: 1, for the time budget; "
                             "the sequential baseline keeps --repeats)")
    parser.add_argument("--api-samples", type=int, default=20,
                        help="samples (one pass) of the public library call sample(key, 1), to show "
                             "its dispatch overhead (0 = skip; default: 20)")
    parser.add_argument("--rtol", type=float, default=1e-3)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--max-steps", type=int, default=4096)
    parser.add_argument("--map-restarts", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0, help="root of every key (fold_in)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT,
                        help=f"JSON record (default: {DEFAULT_OUTPUT.relative_to(REPO)})")
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE,
                        help="CSV of reference timings to print beside ours")
    args = parser.parse_args(argv)
    for name in ("repeats", "slow_repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    for name in ("sequential", "slow_sequential", "api_samples"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must be >= 0, got {getattr(args, name)}")
    bad = [i for i in args.inputs if i not in INPUTS]
    if bad:
        parser.error(f"--inputs: unknown {bad}; known: {', '.join(INPUTS)}")
    return args


# --------------------------------------------------------------------------------------------
# Timing helpers


class CompileEvents:
    """Sums JAX's compile-event durations (trace, lowering, backend compile) while armed."""

    NAMES = (
        "/jax/core/compile/jaxpr_trace_duration",
        "/jax/core/compile/jaxpr_to_mlir_module_duration",
        "/jax/core/compile/backend_compile_duration",
    )

    def __init__(self, jax):
        self.total = 0.0
        self.backend_compiles = 0
        jax.monitoring.register_event_duration_secs_listener(self._listen)

    def _listen(self, name, duration, **_):
        if name in self.NAMES:
            self.total += float(duration)
            self.backend_compiles += name.endswith("backend_compile_duration")

    def reset(self):
        self.total, self.backend_compiles = 0.0, 0


def _draw(approximation, key, n):
    return approximation.sample(key, n)


_JITTED = {}


def jitted_sample(jax):
    """``sample(key, n)`` jitted as a whole (velocity draw + Exp map), ``n`` static.

    Both protocols call this one function, so batched and one-at-a-time differ only in ``n``.
    The library's ``approximation.sample`` draws the velocities eagerly (op by op) before the
    jitted Exp map; that dispatch overhead is measured separately (``sequential_api``).
    """
    if "fn" not in _JITTED:
        _JITTED["fn"] = jax.jit(_draw, static_argnums=2)
    return _JITTED["fn"]


def timed(jax, fn):
    """Wall time of ``fn()`` until its outputs are ready, and the outputs."""
    start = time.perf_counter()
    out = jax.block_until_ready(fn())
    return time.perf_counter() - start, out


# --------------------------------------------------------------------------------------------
# Reference timings


def load_reference(path: Path) -> list[dict]:
    """Rows of the reference CSV (``#`` lines are the citation header)."""
    if not path.exists():
        print(f"note: reference file {path} not found; no reference figures", file=sys.stderr)
        return []
    with open(path, encoding="utf-8") as handle:
        rows = list(csv.DictReader(line for line in handle if not line.lstrip().startswith("#")))
    required = {"dataset", "inputs", "method", "protocol", "seconds_per_sample", "source"}
    if rows and not required <= set(rows[0]):
        raise ValueError(f"{path}: expected columns {sorted(required)}, got {sorted(rows[0])}")
    for row in rows:
        row["seconds_per_sample"] = float(row["seconds_per_sample"])
    return rows


def matching_reference(reference, dataset, inputs, method, protocol):
    return [r for r in reference if (r["dataset"], r["inputs"], r["method"], r["protocol"])
            == (dataset, inputs, method, protocol)]


# --------------------------------------------------------------------------------------------
# Machine description


def machine_info(jax) -> dict:
    model = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = None
    return {
        "cpu_model": model,
        "cpu_count": os.cpu_count(),
        "usable_cpus": usable,
        "machine": platform.machine(),
        "jax_devices": [str(d) for d in jax.devices()],
        "jax_enable_x64": bool(jax.config.jax_enable_x64),
        "XLA_FLAGS": os.environ.get("XLA_FLAGS"),
    }


# --------------------------------------------------------------------------------------------
# Measurements


def summarise(draws, summarise_draws) -> dict:
    import numpy as np

    summary = summarise_draws(draws, EVALUATIONS_PER_STEP)
    mean = summary["mean_steps"]
    summary["lockstep_waste"] = (summary["max_steps_taken"] / mean) if mean > 0 else None
    summary["num_steps_quantiles"] = {
        q: float(np.quantile(np.asarray(draws.num_steps), float(q))) for q in ("0.5", "0.9", "0.99")
    }
    return summary


def bench_batched(jax, events, approximation, key, n, repeats, summarise_draws) -> dict:
    """Warm-up (first) call, then ``repeats`` steady-state calls with the same key."""
    sample = jitted_sample(jax)
    events.reset()
    first, draws = timed(jax, lambda: sample(approximation, key, n))
    compile_events, backend_compiles = events.total, events.backend_compiles
    steady = [timed(jax, lambda: sample(approximation, key, n))[0] for _ in range(repeats)]
    median = statistics.median(steady)
    return {
        "n": n,
        "repeats": repeats,
        "first_call_s": first,
        "steady_s": steady,
        "median_s": median,
        "per_sample_s": median / n,
        "compile_s": first - median,
        "compile_events_s": compile_events,
        "backend_compiles_in_first_call": backend_compiles,
        "draws": summarise(draws, summarise_draws),
    }


def bench_sequential(jax, events, approximation, key, m, repeats, summarise_draws,
                     sample=None) -> dict:
    """``sample(approximation, key_i, 1)`` looped over ``m`` keys: warm-up, ``repeats`` passes.

    ``sample`` defaults to the jitted whole-sample function; pass the public
    ``lambda a, k, n: a.sample(k, n)`` to measure the library call as users make it.
    """
    import jax.numpy as jnp

    from geobayes.methods import ApproximateDraws

    sample = sample or jitted_sample(jax)
    keys = [jax.random.fold_in(key, i) for i in range(m)]
    events.reset()
    first, _ = timed(jax, lambda: sample(approximation, keys[0], 1))
    compile_events, backend_compiles = events.total, events.backend_compiles
    passes, last = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = [jax.block_until_ready(sample(approximation, k, 1)) for k in keys]
        passes.append(time.perf_counter() - start)
        last = out
    draws = ApproximateDraws(*(jnp.concatenate([getattr(d, f) for d in last]) for f in ApproximateDraws._fields))
    median = statistics.median(passes)
    per_sample = median / m
    return {
        "n": m,
        "repeats": repeats,
        "first_call_s": first,
        "pass_s": passes,
        "median_pass_s": median,
        "per_sample_s": per_sample,
        "compile_s": first - per_sample,
        "compile_events_s": compile_events,
        "backend_compiles_in_first_call": backend_compiles,
        "draws": summarise(draws, summarise_draws),
    }


def comparable(ref_row, batched, sequential):
    """Our measurement to hold against a reference row: the sequential baseline, or the batched
    run with the reference's batch size (else our largest batch)."""
    if ref_row["protocol"] == "sequential":
        return sequential
    if not batched:
        return None
    wanted = ref_row.get("n_samples") or ""
    same = [b for b in batched if wanted.isdigit() and b["n"] == int(wanted)]
    return same[0] if same else max(batched, key=lambda b: b["n"])


def is_slow(slow_cases, method, inputs, dataset) -> bool:
    for case in slow_cases:
        parts = case.split(":")
        if parts[0] == method and (len(parts) < 2 or parts[1] == inputs) and (
            len(parts) < 3 or parts[2] == dataset
        ):
            return True
    return False


# --------------------------------------------------------------------------------------------
# Output


def _ms(x):
    return "-" if x is None else f"{1e3 * x:.3g}"


def _f(x, fmt):
    return "-" if x is None else format(x, fmt)


PREFIX = 10 + 1 + 12 + 1 + 6 + 1 + 10 + 1 + 6 + 1 + 9 + 1 + 10 + 1 + 8 + 1 + 6 + 1 + 6 + 1 + 8 + 1


def _source(ref):
    if not ref:
        return ""
    return f"{ref['source']} ({ref.get('precision') or '?'}, n={ref.get('n_samples') or '?'})"


def print_table(cases: list[dict]) -> None:
    header = (f"{'dataset':<10} {'inputs':<12} {'method':<6} {'protocol':<10} {'n':>6} "
              f"{'compile s':>9} {'ms/sample':>10} {'T':>8} {'failed':>6} {'waste':>6} "
              f"{'seq/this':>8} {'ref ms':>8} {'ours/ref':>8}  ref source")
    print(header)
    print("-" * len(header))
    for case in cases:
        seq = case.get("sequential")
        rows = [("batched", b) for b in case["batched"]] + ([("sequential", seq)] if seq else [])
        if case.get("sequential_api"):
            rows.append(("seq(api)", case["sequential_api"]))
        for protocol, r in rows:
            refs = [ref for ref in case["reference"].get(protocol, [])
                    if comparable(ref, case["batched"], seq) is r]
            ratio = (seq["per_sample_s"] / r["per_sample_s"]) if (seq and protocol == "batched") else None
            ref = refs[0] if refs else None
            print(f"{case['dataset']:<10} {case['inputs']:<12} {case['method']:<6} {protocol:<10} "
                  f"{r['n']:>6} {r['compile_s']:>9.2f} {_ms(r['per_sample_s']):>10} "
                  f"{r['draws']['T']:>8.1f} {r['draws']['n_failed']:>6} "
                  f"{_f(r['draws']['lockstep_waste'], '.2f') if protocol == 'batched' else '':>6} "
                  f"{_f(ratio, '.2f'):>8} "
                  f"{_ms(ref['seconds_per_sample']) if ref else '-':>8} "
                  f"{_f(r['per_sample_s'] / ref['seconds_per_sample'] if ref else None, '.2f'):>8}  "
                  f"{_source(ref)}")
            for extra in refs[1:]:
                print(f"{'':<{PREFIX}}{_ms(extra['seconds_per_sample']):>8} "
                      f"{r['per_sample_s'] / extra['seconds_per_sample']:>8.2f}  {_source(extra)}")
    print()
    print("compile s: first call - steady-state median (0 when the executable was compiled by an")
    print("  earlier case of the same shapes). T: 6 x mean Diffrax steps (failed at the cap).")
    print("waste: max(num_steps)/mean(num_steps) of the batch (lockstep cost of vmap).")
    print("seq/this: one-at-a-time ms/sample / this batched ms/sample (same process, same code).")
    print("seq(api): the public approximation.sample(key, 1) (an eqx.filter_jit) looped, one")
    print("  pass: what a one-at-a-time caller of the API pays, dispatch included.")
    print("ours/ref: our ms/sample / the reference's (<1 = we are faster); references are from")
    print("  other machines/precisions (see benchmarks/reference_timings.csv).")


# --------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    args = parse_args(argv)
    t_start = time.perf_counter()
    load_start = os.getloadavg()

    import jax
    import jax.numpy as jnp

    import geobayes  # noqa: F401  (enables float64)
    from geobayes.data.logreg import load_logreg_raw, prepare_logreg
    from geobayes.dataset import Dataset
    from geobayes.io import provenance, save_json
    from geobayes.methods import get_method, method_config, summarise_draws
    from geobayes.models import LogisticRegression
    from geobayes.optimize import find_map
    from geobayes.posterior import Posterior

    events = CompileEvents(jax)
    reference = load_reference(args.reference)
    ode = {"solver": "dopri5", "rtol": args.rtol, "atol": args.atol, "max_steps": args.max_steps}
    root = jax.random.PRNGKey(args.seed)

    # Resolve every data file up front so a missing one fails before any timing.
    files = {}
    for dataset in args.datasets:
        path = args.data_dir / "logreg" / f"{dataset}.npy"
        if not path.exists():
            raise SystemExit(
                f"error: data file {path} not found (--data-dir {args.data_dir}; set --data-dir "
                "or GEOBAYES_DATA_MIRROR to the mirror holding logreg/<dataset>.npy)"
            )
        files[dataset] = path

    maps, cases = {}, []
    for d_index, dataset in enumerate(args.datasets):
        features, labels = load_logreg_raw(files[dataset])
        for inputs in args.inputs:
            prepared = prepare_logreg(features, labels, standardise=(inputs == "standardised"))
            name = f"{dataset}_{inputs}-logreg"
            posterior = Posterior(name, LogisticRegression(), Dataset(prepared.X, prepared.y))
            case_key = jax.random.fold_in(jax.random.fold_in(root, d_index), INPUTS.index(inputs))

            events.reset()
            map_time, estimate = timed(jax, lambda: find_map(
                lambda th, p: p.logdensity(th), posterior, posterior.dim,
                jax.random.fold_in(case_key, 0), restarts=args.map_restarts))
            maps[name] = {"time_s": map_time, "compile_events_s": events.total,
                          "converged": estimate.converged, "logdensity": estimate.logdensity,
                          "grad_norm": estimate.grad_norm}
            print(f"[{time.perf_counter() - t_start:7.1f}s] {name}: D={posterior.dim} "
                  f"N={prepared.X.shape[0]} MAP in {map_time:.2f}s (converged={estimate.converged})",
                  flush=True)
            mode = jnp.asarray(estimate.position)

            for method in args.methods:
                approximation = get_method(method).fit(
                    posterior, method_config(method, {"ode": ode}), jax.random.fold_in(case_key, 1), mode=mode
                ).approximation
                slow = is_slow(args.slow_cases, method, inputs, dataset)
                sizes = args.slow_n if slow else args.n
                repeats = args.slow_repeats if slow else args.repeats
                m = args.slow_sequential if slow else args.sequential
                sample_key = jax.random.fold_in(case_key, 2)
                batched = []
                for n in sizes:
                    result = bench_batched(jax, events, approximation, sample_key, n, repeats,
                                           summarise_draws)
                    batched.append(result)
                    print(f"[{time.perf_counter() - t_start:7.1f}s]   {method:<6} batched n={n:<6} "
                          f"{1e3 * result['per_sample_s']:.4g} ms/sample "
                          f"(compile {result['compile_s']:.2f}s, T={result['draws']['T']:.1f}, "
                          f"failed={result['draws']['n_failed']})", flush=True)
                sequential = None
                if m > 0:
                    sequential = bench_sequential(jax, events, approximation,
                                                  jax.random.fold_in(case_key, 3), m, args.repeats,
                                                  summarise_draws)
                    print(f"[{time.perf_counter() - t_start:7.1f}s]   {method:<6} sequential m={m:<4} "
                          f"{1e3 * sequential['per_sample_s']:.4g} ms/sample", flush=True)
                sequential_api = None
                m_api = min(m, args.api_samples)
                if m_api > 0:
                    sequential_api = bench_sequential(
                        jax, events, approximation, jax.random.fold_in(case_key, 3), m_api, 1,
                        summarise_draws, sample=lambda a, k, n: a.sample(k, n))
                    print(f"[{time.perf_counter() - t_start:7.1f}s]   {method:<6} library sample(key, 1) "
                          f"m={m_api:<4} {1e3 * sequential_api['per_sample_s']:.4g} ms/sample",
                          flush=True)
                ratios = {
                    f"sequential_over_batched_n{b['n']}": sequential["per_sample_s"] / b["per_sample_s"]
                    for b in batched
                } if sequential else {}
                refs = {p: matching_reference(reference, dataset, inputs, method, p)
                        for p in ("batched", "sequential")}
                ours_over_ref = {}
                for protocol, ref_rows in refs.items():
                    for row in ref_rows:
                        ours = comparable(row, batched, sequential)
                        if ours is not None:
                            ours_over_ref[f"{protocol}_{row['source']}"] = {
                                "ours_per_sample_s": ours["per_sample_s"], "ours_n": ours["n"],
                                "reference_per_sample_s": row["seconds_per_sample"],
                                "ratio": ours["per_sample_s"] / row["seconds_per_sample"],
                            }
                cases.append({
                    "dataset": dataset, "inputs": inputs, "method": method, "posterior": name,
                    "dim": posterior.dim, "n_data": int(prepared.X.shape[0]), "slow_case": slow,
                    "batched": batched, "sequential": sequential,
                    "sequential_api": sequential_api, "ratios": ratios,
                    "load_average": os.getloadavg(),
                    "reference": refs, "ours_over_reference": ours_over_ref,
                })

    total = time.perf_counter() - t_start
    print()
    print_table(cases)
    print(f"\ntotal wall time {total:.1f}s; load average (1/5/15 min) at start "
          f"{'/'.join(f'{x:.2f}' for x in load_start)}, at end "
          f"{'/'.join(f'{x:.2f}' for x in os.getloadavg())} (other processes share the cores)")

    record = {
        "benchmark": "logreg_sampling",
        "description": __doc__.split("\n\n")[0],
        "provenance": provenance(),
        "machine": {**machine_info(jax), "load_average_start": load_start,
                    "load_average_end": os.getloadavg()},
        "settings": {
            "data_dir": str(args.data_dir), "datasets": args.datasets, "inputs": args.inputs,
            "methods": args.methods, "n": args.n, "repeats": args.repeats,
            "sequential": args.sequential, "slow_cases": args.slow_cases, "slow_n": args.slow_n,
            "slow_sequential": args.slow_sequential, "slow_repeats": args.slow_repeats,
            "api_samples": args.api_samples,
            "ode": ode, "map_restarts": args.map_restarts, "seed": args.seed,
            "evaluations_per_step": EVALUATIONS_PER_STEP,
            "dtype": "float64" if jax.config.jax_enable_x64 else "float32",
            "protocol": ("batched: warm-up call then `repeats` calls of jax.jit(approximation.sample)(key, n) "
                         "with the same key, median; sequential: warm-up then `repeats` passes of "
                         "sample(fold_in(key, i), 1) for i < m, median pass / m; compile_s = first "
                         "call - steady median; lockstep_waste = max(num_steps)/mean(num_steps)"),
        },
        "reference_file": str(args.reference),
        "maps": maps,
        "cases": cases,
        "total_wall_s": total,
    }
    path = save_json(args.output, record)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
