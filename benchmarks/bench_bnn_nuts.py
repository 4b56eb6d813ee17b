"""Seconds per NUTS draw and per gradient on a network posterior, against Hartmann et al.'s 19 h.

Hartmann et al. (2026, Sec. 5.3.2) report about 19 h for 6,000 NUTS draws on the 142-parameter
network of their Fig. 5 (AdvancedHMC.jl, maximum tree depth 13, which the sampler "frequently"
hit): 11.4 s per draw (``benchmarks/reference_timings_bnn.csv``, never used as output). The
DAG's reference job for that posterior (``drop23-mlp2x10var``) runs thousands of iterations;
this script times a short run of the same sampler on the same posterior instead, in three
phases, so compile time and adaptation are apart from the steady cost:

1. **warm-up**: ``--warmup`` adaptation iterations (NumPyro's windowed step size and diagonal
   mass adaptation, the reference job's settings), compile included;
2. **sampling, first call**: ``--samples`` iterations from the adapted state (compiles the
   sampling loop);
3. **sampling, steady**: ``--samples`` more iterations from where phase 2 stopped, same
   shapes, nothing to compile. Seconds per draw and per leapfrog step (one gradient of the
   log density each) come from this phase.

Reported with the leapfrog steps per draw and how many draws hit the depth limit
(:func:`geobayes.samplers.nuts.trajectory_lengths`) and the ratio paper / ours (the paper's
6,000 draws take 19 h / that ratio at our rate). The step count per draw depends on
the adaptation a short warm-up reaches, so the per-gradient time is the figure that compares
across runs; ``depth_limited_per_draw_s`` is what a draw costs when it hits depth 13
(``2**13 - 1`` gradients), the paper's frequent case.

The posterior is rebuilt from a finished DAG run (``--results``): the reference job's sidecar
gives its model options, the MAP its start. Speed is measured here and never asserted in tests.

Usage (from the repository root)::

    .venv/bin/snakemake --cores 2 --configfile config/quick.yaml results/reference/drop23-mlp2x10var/nuts.npz
    .venv/bin/python benchmarks/bench_bnn_nuts.py --results results
    .venv/bin/python benchmarks/bench_bnn_nuts.py --results results --warmup 50 --samples 20 --max-tree-depth 10
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bnn_sampling import data_file, load_references, reference_for  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "bnn_nuts.json"


def timed_nuts(posterior, start, key, config) -> dict:
    """Warm-up, a first and a steady sampling call of one NUTS chain (the reference job's
    sampler, :func:`geobayes.samplers.nuts.nuts_mcmc`), each timed."""
    import jax
    import numpy as np

    from geobayes.samplers.nuts import nuts_mcmc, trajectory_lengths

    mcmc, args = nuts_mcmc(posterior, config)

    def lengths():
        return trajectory_lengths(np.asarray(mcmc.get_extra_fields()["num_steps"]), config.max_tree_depth)

    phases = {}
    clock = time.perf_counter()
    mcmc.warmup(key, *args, init_params=start, extra_fields=("num_steps",), collect_warmup=True)
    jax.block_until_ready(mcmc.last_state)
    phases["warmup"] = {"seconds": time.perf_counter() - clock, **lengths()}
    for phase in ("first_sampling", "steady_sampling"):
        clock = time.perf_counter()
        mcmc.run(mcmc.post_warmup_state.rng_key, *args, extra_fields=("num_steps",))
        jax.block_until_ready(mcmc.get_samples())
        phases[phase] = {"seconds": time.perf_counter() - clock, **lengths()}
        mcmc.post_warmup_state = mcmc.last_state
    steady = phases["steady_sampling"]
    per_gradient = steady["seconds"] / steady["leapfrog_steps_total"]
    return {"phases": phases, "step_size": float(mcmc.last_state.adapt_state.step_size),
            "per_draw_s": steady["seconds"] / config.samples, "per_gradient_s": per_gradient,
            "leapfrog_steps_per_draw": steady["leapfrog_steps_mean"],
            "depth_limited_per_draw_s": per_gradient * (2**config.max_tree_depth - 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", type=Path, default=REPO / "results", help="results/ of a DAG run")
    parser.add_argument("--posterior", default="drop23-mlp2x10var")
    parser.add_argument("--warmup", type=int, default=200, help="adaptation iterations")
    parser.add_argument("--samples", type=int, default=50, help="iterations of each sampling call")
    parser.add_argument("--max-tree-depth", type=int, default=13, help="13: Hartmann et al.'s setting")
    parser.add_argument("--target-accept", type=float, default=None,
                        help="default: the DAG reference job's target_accept")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    import jax.numpy as jnp

    import geobayes  # noqa: F401  (float64)
    from geobayes.io import load_json, load_npz, provenance, save_json
    from geobayes.pipeline.posteriors import build_posterior
    from geobayes.random import derive_key
    from geobayes.samplers.nuts import NutsConfig

    sidecar_path = args.results / "reference" / args.posterior / "nuts.json"
    map_path = args.results / "map" / args.posterior / "euclidean.npz"
    for path, what in ((map_path, "MAP"), (sidecar_path, "reference sidecar")):
        if not path.is_file():
            print(f"no {what} at {path}: run the DAG's jobs for {args.posterior} first (see --help)",
                  file=sys.stderr)
            return 1
    record = load_json(sidecar_path)
    options, job = record["config"]["model"], record["config"]["reference"]
    # The job's sampler (target_accept, mass matrix) on one chain, at the benchmark's lengths and depth.
    config = NutsConfig(chains=1, warmup=args.warmup, samples=args.samples, thin=1,
                        target_accept=job["target_accept"] if args.target_accept is None else args.target_accept,
                        max_tree_depth=args.max_tree_depth, dense_mass=job["dense_mass"])
    posterior = build_posterior(args.posterior, str(data_file(args.results, args.posterior, options)), options)
    start = jnp.asarray(load_npz(map_path)["position"])
    key = derive_key(args.seed, "bench_bnn_nuts", args.posterior)
    row = {"posterior": args.posterior, "dim": int(posterior.dim), "nuts": config.to_dict(),
           **timed_nuts(posterior, start, key, config)}
    reference = reference_for(load_references(), args.posterior, "nuts")
    if reference is not None:
        paper = float(reference["seconds_per_sample"])
        row["reference"] = reference
        row["paper/ours_per_draw"] = paper / row["per_draw_s"]
        row["paper/ours_depth_limited"] = paper / row["depth_limited_per_draw_s"]
    phases = row["phases"]
    print(f"{args.posterior} D={row['dim']} max depth {args.max_tree_depth}: warm-up {args.warmup} it "
          f"{phases['warmup']['seconds']:.1f} s (mean {phases['warmup']['leapfrog_steps_mean']:.0f} steps); "
          f"first sampling call {phases['first_sampling']['seconds']:.1f} s; steady {row['per_draw_s']:.3f} s/draw, "
          f"{row['leapfrog_steps_per_draw']:.0f} leapfrog steps/draw "
          f"({phases['steady_sampling']['tree_depth_hits']}/{args.samples} at the depth limit), "
          f"{row['per_gradient_s'] * 1e6:.1f} us/gradient; a depth-limited draw {row['depth_limited_per_draw_s']:.2f} s",
          flush=True)
    if reference is not None:
        print(f"paper {paper:.3g} s/draw -> {row['paper/ours_per_draw']:.1f}x ours per draw, "
              f"{row['paper/ours_depth_limited']:.1f}x ours if every draw hit depth {args.max_tree_depth}")
    save_json(args.output, {"provenance": provenance(), "args": {k: str(v) for k, v in vars(args).items()},
                            "results": [row]})
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
