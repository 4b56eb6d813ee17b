"""RLA-BLog's log map with the shot's Jacobian from the variational equations, against forward-mode AD.

The shooting log map (:func:`geobayes.geometry.logarithmic_map.logarithmic_map`, Yu et al. 2024,
Algorithm 2) needs ``J = d Exp_base(v) / d v`` once per accepted continuation stage (chord) or per
iteration (Newton's fallback). It was ``jax.jacfwd`` of the whole Diffrax solve; it is now
:func:`geobayes.geometry.geodesic_jacobian.exponential_map_jacobian`, the geodesic integrated with
its ``D`` Jacobi fields along the shot's own steps. Measured here in one process, per case (the
pipeline's posterior, MAP and the ``approximate`` job's targets for repetition 0, as
``bench_log_map.py``):

* one Jacobian at ``v = (x - m) / 2`` of the first target: forward mode vs variational, each
  compiled first, ``--repeats`` interleaved calls; the shot alone for scale; the largest entry
  difference of the two matrices;
* the whole log map of ``--n`` targets (the config's settings) with the forward-mode Jacobian
  patched in (before) and as it is (now), compiled ahead of time and called once, then
  ``--log-repeats`` interleaved calls (the order reversed every other round): seconds per
  target, solved targets, corrector iterations, and how many velocities agree to ``--agree``
  (max norm).

Build the cases' MAPs (and networks) first, as for ``bench_log_map.py``; ``--tree`` is the results
tree that holds them (default: this checkout). Speed is measured here, never asserted.

Usage::

    .venv/bin/python benchmarks/bench_log_map_jacobian.py --tree /path/to/quick/run --n 4
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import yaml

from geobayes.geometry.geodesic_jacobian import exponential_map_jacobian
from geobayes.io import load_npz, provenance, save_json
from geobayes.methods import get_method, method_config
from geobayes.optimize import tangent_precision
from geobayes.pipeline.posteriors import build_posterior
from geobayes.random import derive_key

jax.config.update("jax_enable_x64", True)
REPO = Path(__file__).resolve().parents[1]
#: The module itself (``geobayes.geometry.logarithmic_map`` the name is its function), patched below.
LOG_MAP = importlib.import_module("geobayes.geometry.logarithmic_map")
CASES = ",".join([
    "gaussian:d10-gaussian:-",
    "banana:yu2024-banana:data/prepared/banana/yu2024.npz",
    *(f"bnn_yu:{split}-mlp1x10:results/network/{split}-mlp1x10.npz"
      for split in ("complete_standardised", "gap_standardised", "complete_raw", "gap_raw")),
])


def forward_mode_jacobian(velocity, args):
    """The Jacobian as it was: ``jax.jacfwd`` through the whole solve (``diffrax.ForwardMode``)."""
    return jax.jacfwd(LOG_MAP._shot_residual)(velocity, args)


def interleaved(functions: dict, argument, repeats: int) -> dict[str, list[float]]:
    """Wall seconds of ``repeats`` rounds of every (compiled) function, round by round, the order
    reversed every other round (so that neither variant always runs first)."""
    seconds = {name: [] for name in functions}
    for round_ in range(repeats):
        for name, function in (functions.items() if round_ % 2 == 0 else reversed(functions.items())):
            start = time.perf_counter()
            jax.block_until_ready(function(argument))
            seconds[name].append(time.perf_counter() - start)
    return seconds


def compiled_log_map(metric, mode, targets, settings, jacobian):
    """The log map of ``targets`` compiled with ``jacobian`` as the shot's Jacobian."""
    saved = LOG_MAP._shot_jacobian
    LOG_MAP._shot_jacobian = jacobian
    try:
        return jax.jit(lambda x: LOG_MAP.logarithmic_map(metric, None, mode, x, settings)).lower(targets).compile()
    finally:
        LOG_MAP._shot_jacobian = saved


def case_row(case: str, args, config) -> dict:
    experiment, name, data = case.split(":")
    options = config["experiments"][experiment]
    posterior = build_posterior(name, None if data == "-" else args.tree / data, options)
    mode = jnp.asarray(load_npz(args.tree / "results" / "map" / name / "euclidean.npz")["position"])
    settings_map = {**config["approximation"]["log_map"], **options.get("approximation", {}).get("log_map", {})}
    key = derive_key(config["seed"], "approximate", posterior.name, 0)
    method = method_config("rla_blog", {"precision": tangent_precision("euclidean", options), "log_map": settings_map})
    approximation = get_method("rla_blog").fit(posterior, method, key, mode=mode).approximation
    targets = mode + approximation.tangent.sample_velocities(key, args.n)
    metric, settings = approximation.gaussian_metric, approximation.log_map
    shot_args = (metric, None, mode, targets[0], settings.ode)
    velocity = 0.5 * (targets[0] - mode)

    jacobians = {"forward mode (before)": jax.jit(lambda v: forward_mode_jacobian(v, shot_args)),
                 "variational (now)": jax.jit(lambda v: exponential_map_jacobian(metric, None, mode, v, settings.ode)[0]),
                 "shot": jax.jit(lambda v: LOG_MAP._shot_residual(v, shot_args))}
    matrices = {name: np.asarray(function(velocity)) for name, function in jacobians.items()}
    jacobian_s = interleaved(jacobians, velocity, args.repeats)
    medians = {name: statistics.median(values) for name, values in jacobian_s.items()}

    log_maps = {"forward mode (before)": compiled_log_map(metric, mode, targets, settings, forward_mode_jacobian),
                "variational (now)": compiled_log_map(metric, mode, targets, settings, LOG_MAP._shot_jacobian)}
    results = {name: function(targets) for name, function in log_maps.items()}
    log_s = interleaved(log_maps, targets, args.log_repeats)
    log_medians = {name: statistics.median(values) / args.n for name, values in log_s.items()}
    before, now = results["forward mode (before)"], results["variational (now)"]
    both = np.asarray(before.successful & now.successful)
    agree = np.max(np.abs(np.asarray(before.velocities) - np.asarray(now.velocities)), axis=1) <= args.agree
    row = {
        "posterior": name, "dim": int(mode.shape[0]), "n": args.n,
        "jacobian_median_s": {k: v for k, v in medians.items()},
        "jacobian_ratio_before_over_now": medians["forward mode (before)"] / medians["variational (now)"],
        "jacobian_over_shot": {k: medians[k] / medians["shot"] for k in ("forward mode (before)", "variational (now)")},
        "jacobian_max_abs_difference": float(np.max(np.abs(matrices["forward mode (before)"]
                                                           - matrices["variational (now)"]))),
        "jacobian_max_abs_entry": float(np.max(np.abs(matrices["forward mode (before)"]))),
        "log_map_s_per_target": log_medians,
        "log_map_ratio_before_over_now": log_medians["forward mode (before)"] / log_medians["variational (now)"],
        "solved": {k: int(np.sum(r.successful)) for k, r in results.items()},
        "fallbacks": {k: int(np.sum(r.fallback)) for k, r in results.items()},
        "iterations": {k: np.asarray(r.num_steps).tolist() for k, r in results.items()},
        "velocities_agree": int(np.sum(agree & both)), "both_solved": int(np.sum(both)),
    }
    print(f"{name:32s} D={row['dim']:3d} Jacobian {medians['forward mode (before)']:.4f} -> "
          f"{medians['variational (now)']:.4f} s (x{row['jacobian_ratio_before_over_now']:.1f}; "
          f"shot {medians['shot']:.4f} s; |diff| {row['jacobian_max_abs_difference']:.1e}); log map "
          f"{log_medians['forward mode (before)']:.3f} -> {log_medians['variational (now)']:.3f} s/target "
          f"(x{row['log_map_ratio_before_over_now']:.2f}); solved {row['solved']}; agree "
          f"{row['velocities_agree']}/{row['both_solved']}", flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=REPO, help="results tree holding the MAPs and networks")
    parser.add_argument("--config", type=Path, default=REPO / "config" / "quick.yaml")
    parser.add_argument("--cases", default=CASES, help="experiment:posterior:data,... (data relative to --tree, or -)")
    parser.add_argument("--n", type=int, default=4, help="targets per log map")
    parser.add_argument("--repeats", type=int, default=5, help="Jacobian calls per variant")
    parser.add_argument("--log-repeats", type=int, default=2, help="log-map calls per variant")
    parser.add_argument("--agree", type=float, default=1e-6, help="max-norm tolerance of equal velocities")
    parser.add_argument("--output", type=Path, default=REPO / "benchmarks" / "results" / "log_map_jacobian.json")
    args = parser.parse_args()
    config = yaml.safe_load(args.config.read_text())
    rows = [case_row(case, args, config) for case in args.cases.split(",")]
    arguments = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}
    save_json(args.output, {"cases": rows, "args": arguments, "provenance": provenance()})
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
