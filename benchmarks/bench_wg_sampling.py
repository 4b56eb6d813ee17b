"""Seconds per sample of the closed-form wrapped Gaussian against LA, RLA-F and NUTS.

Hartmann et al. (2026) claim WG is "orders of magnitude faster" than ODE-based wrapped
Gaussians (Riemannian Laplace) but time it only against NUTS (notes Sec. 4, claim 1). For each
case this builds the posterior from the data mirror exactly as the DAG does, finds the MAP,
and times, in one process and at the same sample count ``--n``:

* WG with the pipeline's ``auto`` solver (Newton for affine embeddings, Levenberg-Marquardt
  otherwise), and with each solver forced (``approximation.wrapped_gaussian.solver``),
  LA (``ela``) and RLA-F (``rla_f``, Yu et al. 2024): one compile call, then ``--repeats``
  batched calls, median per sample (:func:`geobayes.metrics.equal_count_timing.time_approximation`);
* one NUTS chain of ``--warmup`` + ``--n`` iterations, compilation included
  (:func:`~geobayes.metrics.equal_count_timing.time_nuts`).

Ratios are WG (``auto``) per-sample seconds over each other's. Speed is measured here and never
asserted in tests.

Usage (from the repository root; GEOBAYES_DATA_MIRROR or ../shared/data)::

    .venv/bin/python benchmarks/bench_wg_sampling.py            # defaults, a few minutes
    .venv/bin/python benchmarks/bench_wg_sampling.py --n 100 --repeats 1   # smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "wg_sampling.json"


def build_cases(mirror: Path):
    """(name, posterior) for the benchmark cases, prepared as the DAG prepares them."""
    from geobayes.data.glm_subsets import prepare_glm_subset, regression_subset_size, subset_indices
    from geobayes.data.logistic_growth import load_growth_csv
    from geobayes.data.logreg import load_logreg_raw
    from geobayes.dataset import Dataset
    from geobayes.pipeline.posteriors import build_model
    from geobayes.posterior import Posterior

    glm = {"prior_variance": 100.0, "kernel": {"variance": 100.0, "lengthscale": 1000.0, "jitter": 1e-6}}
    features, labels = load_logreg_raw(mirror / "logreg" / "heart.npy")
    cases = []
    for kind, model, size in (("regression", "bernreg", regression_subset_size(labels.size, 0.3)),
                              ("gp", "berngp", 100)):
        subset = prepare_glm_subset(features, labels, subset_indices(labels.size, size, 0),
                                    standardise=True, intercept=kind == "regression")
        arrays = {"X": subset.X, "y": subset.y}
        cases.append((f"heart-{model}", Posterior(f"heart-{model}", build_model(model, glm, arrays),
                                                  Dataset(subset.X, subset.y))))
    t, y = load_growth_csv(mirror / "logistic_growth" / "LogisticData_highcurvature.csv")
    growth = build_model("growth", {"prior_variance": 10.0}, {"X": t[:, None], "y": y})
    cases.append(("sharp2022-growth", Posterior("sharp2022-growth", growth, Dataset(t[:, None], y))))
    return cases


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="samples per method and NUTS draws")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1000, help="NUTS warm-up iterations")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    from geobayes.methods import get_method, method_config
    from geobayes.metrics.equal_count_timing import time_approximation, time_nuts
    from geobayes.optimize import anchor_objective, find_map
    from geobayes.whitened_target import whitened

    mirror = Path(os.environ.get("GEOBAYES_DATA_MIRROR", REPO.parent / "shared" / "data"))
    wg_settings = {"solver": "auto", "rtol": 1e-8, "atol": 1e-8, "max_steps": 256, "residual_tol": 1e-6}
    ode = {"solver": "dopri5", "rtol": 1e-3, "atol": 1e-6, "max_steps": 4096}
    results = []
    for name, posterior in build_cases(mirror):
        key = jax.random.PRNGKey(0)
        white = whitened(posterior)
        target = posterior if white is None else white
        mode = find_map(anchor_objective("euclidean"), target, posterior.dim, key, restarts=2).position
        mode = jnp.asarray(mode if white is None else white.to_theta(mode))
        row = {"case": name, "dim": posterior.dim, "n": args.n, "methods": {}}
        configs = {"wg": ("wg", {"wrapped_gaussian": wg_settings}),
                   "wg_lm": ("wg", {"wrapped_gaussian": {**wg_settings, "solver": "levenberg_marquardt"}}),
                   "wg_newton": ("wg", {"wrapped_gaussian": {**wg_settings, "solver": "newton"}}),
                   "ela": ("ela", {}), "rla_f": ("rla_f", {"ode": ode})}
        for label, (method, extra) in configs.items():
            row["methods"][label] = time_approximation(get_method(method).fit, posterior, mode,
                                                       method_config(method, {"precision": "hessian", **extra}),
                                                       key, args.n, args.repeats)
        row["nuts"] = time_nuts(posterior, mode, key, warmup=args.warmup, samples=args.n, target_accept=0.8,
                                max_tree_depth=10, dense_mass=False)
        wg = row["methods"]["wg"]["per_sample_s"]
        row["ratios"] = {f"wg/{k}": wg / v["per_sample_s"] for k, v in row["methods"].items() if k != "wg"}
        row["ratios"]["wg/nuts"] = wg / row["nuts"]["per_sample_s"]
        results.append(row)
        print(f"{name} (D={posterior.dim}): " + ", ".join(
            f"{k} {v['per_sample_s'] * 1e3:.3f} ms" for k, v in row["methods"].items())
              + f", nuts {row['nuts']['per_sample_s'] * 1e3:.3f} ms; ratios "
              + ", ".join(f"{k} {v:.3g}" for k, v in row["ratios"].items()), flush=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                                                   "python": sys.version.split()[0]},
                                       "args": {k: str(v) for k, v in vars(args).items()},
                                       "results": results}, indent=1))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
