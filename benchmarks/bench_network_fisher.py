"""The network regression's Fisher metric and RLA-F's Christoffel term: per-example gradients
against ``jacfwd``.

RLA-F (Yu et al. 2024) solves with the Fisher metric ``G = J^T J / sigma^2 + P`` at every
evaluation of its geodesic ODE. ``NetworkRegression.fisher`` stacks ``J`` from per-example
gradients (one reverse pass through the network per input, ``O(N D)``) and
``fisher_christoffel`` solves with a Cholesky factor; before, the generic
``EmbeddingModel.fisher_generic`` built ``J`` by ``jacfwd`` over the whole batch (all ``D``
tangents through every layer, ``O(N D^2)``) and the contraction solved by LU. This script
times both, in one process, on the networks of Yu et al.'s scalability study (Fig. 15: ``[1, h,
h, 1]`` tanh, ``h^2 + 4h + 1`` weights, ``N`` inputs on ``[0, 8]``): the metric alone and the
contraction ``Gamma(v, v)`` that every RLA-F step evaluates six times. Each function is
compiled first, then the ``--repeats`` calls alternate between the two paths; medians and the
ratio old / new. The matrices agree to rounding (checked here and in
``tests/networks/test_network_models.py``).

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_network_fisher.py                        # ~1 min
    .venv/bin/python benchmarks/bench_network_fisher.py --widths 20 --sizes 1000 --repeats 5 --output /tmp/smoke.json

Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "benchmarks" / "results" / "network_fisher.json"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[5, 10, 20, 35])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    import jax
    import jax.numpy as jnp
    import numpy as np

    import geobayes  # noqa: F401  (float64)
    from geobayes.dataset import Dataset
    from geobayes.families import GaussianFixedVariance
    from geobayes.io import provenance, save_json
    from geobayes.models import GaussianPrior
    from geobayes.networks import MultilayerPerceptron, NetworkRegression

    rows = []
    for width in args.widths:
        for size in args.sizes:
            net = MultilayerPerceptron((1, width, width, 1), "tanh")
            model = NetworkRegression(network=net, prior=GaussianPrior(1.0), family=GaussianFixedVariance(0.09))
            rng = np.random.default_rng(0)
            X = rng.uniform(0.0, 8.0, size=(size, 1))
            data = Dataset(X, np.sin(X[:, 0]) + 0.3 * rng.normal(size=size))
            dim = net.num_parameters
            theta = jnp.asarray(rng.normal(scale=0.5, size=dim))
            v = jnp.asarray(rng.normal(size=dim))

            def old_christoffel(t, u, model=model, data=data):
                # the contraction before: the generic jacfwd metric, solved by LU
                f = lambda w: model.embedding(w, data)  # noqa: E731
                _, second = jax.jvp(lambda w: jax.jvp(f, (w,), (u,))[1], (t,), (u,))
                _, pullback = jax.vjp(f, t)
                return jnp.linalg.solve(model.fisher_generic(t, data), pullback(second)[0] / model.family.noise_variance)

            functions = {
                "fisher_jacfwd": jax.jit(lambda t, model=model, data=data: model.fisher_generic(t, data)),
                "fisher_per_example": jax.jit(lambda t, model=model, data=data: model.fisher(t, data)),
                "christoffel_before": jax.jit(lambda t, old=old_christoffel, v=v: old(t, v)),
                "christoffel_now": jax.jit(lambda t, model=model, data=data, v=v: model.fisher_christoffel(t, v, data)),
            }
            outputs = {name: jax.block_until_ready(f(theta)) for name, f in functions.items()}  # compile
            seconds = {name: [] for name in functions}
            for _ in range(args.repeats):
                for name, f in functions.items():
                    start = time.perf_counter()
                    jax.block_until_ready(f(theta))
                    seconds[name].append(time.perf_counter() - start)
            medians = {name: statistics.median(s) for name, s in seconds.items()}
            scale = float(jnp.max(jnp.abs(outputs["fisher_jacfwd"])))
            row = {"width": width, "n": size, "dim": dim,
                   "median_ms": {name: 1e3 * s for name, s in medians.items()},
                   "fisher_ratio": medians["fisher_jacfwd"] / medians["fisher_per_example"],
                   "christoffel_ratio": medians["christoffel_before"] / medians["christoffel_now"],
                   "fisher_max_rel_diff": float(jnp.max(jnp.abs(outputs["fisher_jacfwd"]
                                                                - outputs["fisher_per_example"]))) / scale,
                   "christoffel_max_rel_diff": float(jnp.max(jnp.abs(outputs["christoffel_before"]
                                                                     - outputs["christoffel_now"]))
                                                     / jnp.max(jnp.abs(outputs["christoffel_before"])))}
            rows.append(row)
            print(f"h={width:3d} N={size:5d} D={dim:5d}  fisher {medians['fisher_jacfwd'] * 1e3:8.2f} -> "
                  f"{medians['fisher_per_example'] * 1e3:7.2f} ms ({row['fisher_ratio']:5.1f}x)  Gamma(v,v) "
                  f"{medians['christoffel_before'] * 1e3:8.2f} -> {medians['christoffel_now'] * 1e3:7.2f} ms "
                  f"({row['christoffel_ratio']:5.1f}x)  rel diff {row['christoffel_max_rel_diff']:.1e}", flush=True)
    save_json(args.output, {"benchmark": "network_fisher", "provenance": provenance(),
                            "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
                            "rows": rows})
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
