"""Seconds per sample of the closed-form wrapped Gaussian against LA, RLA-F and NUTS.

Hartmann et al. (2026) claim WG is "orders of magnitude faster" than ODE-based wrapped
Gaussians (Riemannian Laplace) but time it only against NUTS (notes Sec. 4, claim 1). For each
case this builds the posterior from the data mirror exactly as the DAG does, finds the MAP,
and times, in one process and at the same sample count ``--n``:

* WG with the pipeline's ``auto`` solver (for affine embeddings the fixed-point iteration from 50
  parameters on, i.e. on the latent GPs, and Broyden's quasi-Newton root find below, i.e. on the
  regressions; Levenberg-Marquardt otherwise) and its Levenberg-Marquardt fallback for the samples
  the first solver leaves unsolved; ``wg_no_fallback``, the same without the fallback;
  ``wg_newton``, Newton with the fallback (``auto`` below 50 parameters before Broyden, and
  everywhere before the fixed-point iteration); with ``--cases default`` also Levenberg-Marquardt forced
  (``approximation.wrapped_gaussian.solver``);
* LA (``ela``) and RLA-F (``rla_f``, Yu et al. 2024);

every one compiled ahead of time, then ``--repeats`` batched calls of each, **round-robin** over
the methods so that a burst of load on the shared machine hits all of them, the order rotated
each round (a call right after a long one runs slower), median and fastest call per sample
(:func:`geobayes.metrics.equal_count_timing.time_approximations`, as the pipeline's ``time_wg``).
Each WG variant records its steps (median, max) and its largest difference from ``wg_newton``'s
draws where both solved;
* unless ``--no-nuts``, one NUTS chain of ``--warmup`` + ``--n`` iterations, compilation
  included (:func:`~geobayes.metrics.equal_count_timing.time_nuts`).

``--cases table1`` runs every GLM posterior of Hartmann et al.'s Table 1 (five data sets x
Bernoulli/Poisson regression and latent GP) instead of the three default cases. Ratios are WG
(``auto``) per-sample seconds over each other's. Speed is measured here and never asserted in
tests.

Usage (from the repository root; GEOBAYES_DATA_MIRROR or ../shared/data)::

    .venv/bin/python benchmarks/bench_wg_sampling.py            # defaults, a few minutes
    .venv/bin/python benchmarks/bench_wg_sampling.py --n 100 --repeats 1   # smoke run
    .venv/bin/python benchmarks/bench_wg_sampling.py --cases table1 --models bernreg poisreg --n 500 \
        --repeats 2 --no-nuts --output benchmarks/results/wg_table1.json     # Table 1's regressions
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


TABLE1_DATASETS = ("australian", "german", "heart", "pima", "ripley")
TABLE1_MODELS = ("bernreg", "poisreg", "berngp", "poisgp")


def build_cases(mirror: Path, which: str = "default", models=TABLE1_MODELS):
    """(name, posterior) for the benchmark cases, prepared as the DAG prepares them (config.yaml's
    glm settings: standardised, 30 % regression subset, 100 GP points)."""
    from geobayes.data.glm_subsets import prepare_glm_subset, regression_subset_size, subset_indices
    from geobayes.data.logistic_growth import load_growth_csv
    from geobayes.data.logreg import load_logreg_raw
    from geobayes.dataset import Dataset
    from geobayes.pipeline.posteriors import build_model
    from geobayes.posterior import Posterior

    glm = {"prior_variance": 100.0, "kernel": {"variance": 100.0, "lengthscale": 1000.0, "jitter": 1e-6}}
    grid = ([(d, m) for d in TABLE1_DATASETS for m in models] if which == "table1"
            else [("heart", "bernreg"), ("heart", "berngp")])
    cases = []
    for dataset, model in grid:
        features, labels = load_logreg_raw(mirror / "logreg" / f"{dataset}.npy")
        regression = model.endswith("reg")
        size = regression_subset_size(labels.size, 0.3) if regression else 100
        subset = prepare_glm_subset(features, labels, subset_indices(labels.size, size, 0),
                                    standardise=True, intercept=regression)
        arrays = {"X": subset.X, "y": subset.y}
        cases.append((f"{dataset}-{model}", Posterior(f"{dataset}-{model}", build_model(model, glm, arrays),
                                                      Dataset(subset.X, subset.y))))
    if which == "table1":
        return cases
    t, y = load_growth_csv(mirror / "logistic_growth" / "LogisticData_highcurvature.csv")
    growth = build_model("growth", {"prior_variance": 10.0}, {"X": t[:, None], "y": y})
    cases.append(("sharp2022-growth", Posterior("sharp2022-growth", growth, Dataset(t[:, None], y))))
    return cases


#: WG's least-squares settings in these benchmarks: the configs' solver, tolerances and step cap.
WG_SETTINGS = {"solver": "auto", "rtol": 1e-8, "atol": 1e-8, "max_steps": 256, "residual_tol": 1e-6}


def mirror_path() -> Path:
    """The data mirror: ``GEOBAYES_DATA_MIRROR``, else ``../shared/data`` beside the repository."""
    return Path(os.environ.get("GEOBAYES_DATA_MIRROR", REPO.parent / "shared" / "data"))


def table1_parser(description: str, output: Path) -> argparse.ArgumentParser:
    """The options of a benchmark over Table 1's posteriors: ``--n`` draws a call, ``--repeats`` calls,
    ``--models`` and ``--output`` (default ``output``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--n", type=int, default=200, help="tangent draws per call (the quick timing table's count)")
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--models", nargs="+", choices=TABLE1_MODELS, default=list(TABLE1_MODELS))
    parser.add_argument("--output", type=Path, default=output)
    return parser


def table1_at_map(models):
    """``(name, posterior, key, MAP)`` for each of Table 1's posteriors with ``models``, prepared from the
    mirror as :func:`build_cases` prepares them; key ``PRNGKey(0)``, MAP by :func:`map_estimate`."""
    import jax

    for name, posterior in build_cases(mirror_path(), "table1", models):
        key = jax.random.PRNGKey(0)
        yield name, posterior, key, map_estimate(posterior, key)


def map_estimate(posterior, key):
    """The MAP as the DAG finds it: BFGS from 2 random restarts, on a latent GP in whitened coordinates
    (``geobayes.whitened_target``: its kernel makes BFGS in ``theta`` hopeless)."""
    import jax.numpy as jnp

    from geobayes.optimize import anchor_objective, find_map
    from geobayes.whitened_target import whitened

    white = whitened(posterior)
    target = posterior if white is None else white
    mode = find_map(anchor_objective("euclidean"), target, posterior.dim, key, restarts=2).position
    return jnp.asarray(mode if white is None else white.to_theta(mode))


def time_interleaved(fits: dict, key, n: int, repeats: int) -> dict[str, dict]:
    """``fits``: label -> zero-argument fit. The library's interleaved timing
    (:func:`geobayes.metrics.equal_count_timing.time_approximations`: fit and compile each, then
    ``repeats`` rotated rounds of one call each), and for each WG variant its steps (median, max),
    its largest residual and its largest difference from ``wg_newton``'s draws."""
    import numpy as np

    from geobayes.metrics.equal_count_timing import time_approximations

    rows, draws = time_approximations(fits, key, n, repeats)
    for label, out in draws.items():
        if out.fallback is not None:
            steps = np.asarray(out.num_steps)
            rows[label].update(median_steps=float(np.median(steps)), max_steps=int(steps.max()),
                               max_residual=float(np.max(np.asarray(out.residual))))
    if "wg_newton" in draws:
        base = draws["wg_newton"]
        for label, out in draws.items():
            if out.fallback is not None and label != "wg_newton":
                both = np.asarray(out.successful) & np.asarray(base.successful)
                diff = np.abs(np.asarray(out.theta) - np.asarray(base.theta))[both]
                rows[label]["max_diff_from_newton"] = float(diff.max()) if diff.size else None
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="samples per method and NUTS draws")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1000, help="NUTS warm-up iterations")
    parser.add_argument("--cases", choices=("default", "table1"), default="default",
                        help="heart regression/GP and growth, or every GLM posterior of Table 1")
    parser.add_argument("--models", nargs="+", choices=TABLE1_MODELS, default=list(TABLE1_MODELS),
                        help="with --cases table1: these GLMs only (the latent GPs' RLA-F takes minutes a case)")
    parser.add_argument("--no-nuts", dest="nuts", action="store_false", help="skip the NUTS chains")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    import jax

    jax.config.update("jax_enable_x64", True)

    from geobayes.methods import get_method, method_config
    from geobayes.metrics.equal_count_timing import time_nuts

    mirror = mirror_path()
    ode = {"solver": "dopri5", "rtol": 1e-3, "atol": 1e-6, "max_steps": 4096}
    results = []
    for name, posterior in build_cases(mirror, args.cases, args.models):
        key = jax.random.PRNGKey(0)
        mode = map_estimate(posterior, key)
        row = {"case": name, "dim": posterior.dim, "n": args.n, "methods": {}}
        configs = {"wg": ("wg", {"wrapped_gaussian": WG_SETTINGS}),
                   "wg_no_fallback": ("wg", {"wrapped_gaussian": {**WG_SETTINGS, "fallback": "none"}})}
        # Newton with its fallback: `auto` on every affine embedding before the fixed-point iteration
        # (which `auto` now takes from fixed_point_from_dim = 50 parameters on: the latent GPs) and
        # Broyden (below: the regressions)
        configs |= {"wg_newton": ("wg", {"wrapped_gaussian": {**WG_SETTINGS, "solver": "newton"}})}
        if args.cases == "default":
            configs |= {"wg_lm": ("wg", {"wrapped_gaussian": {**WG_SETTINGS, "solver": "levenberg_marquardt"}})}
        configs |= {"ela": ("ela", {}), "rla_f": ("rla_f", {"ode": ode})}
        fits = {label: (lambda method=method, extra=extra: get_method(method).fit(
                    posterior, method_config(method, {"precision": "hessian", **extra}), key, mode=mode))
                for label, (method, extra) in configs.items()}
        row["methods"] = time_interleaved(fits, key, args.n, args.repeats)
        if args.nuts:
            row["nuts"] = time_nuts(posterior, mode, key, warmup=args.warmup, samples=args.n, target_accept=0.8,
                                    max_tree_depth=10, dense_mass=False)
        wg = row["methods"]["wg"]["per_sample_s"]
        row["ratios"] = {f"wg/{k}": wg / v["per_sample_s"] for k, v in row["methods"].items() if k != "wg"}
        if args.nuts:
            row["ratios"]["wg/nuts"] = wg / row["nuts"]["per_sample_s"]
        results.append(row)
        nuts = f", nuts {row['nuts']['per_sample_s'] * 1e3:.3f} ms" if args.nuts else ""
        print(f"{name} (D={posterior.dim}): " + ", ".join(
            f"{k} {v['per_sample_s'] * 1e3:.3f} ms ({v['n_failed']} failed)" for k, v in row["methods"].items())
              + nuts + "; ratios "
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
