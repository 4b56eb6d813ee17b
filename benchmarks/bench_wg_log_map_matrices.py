"""WG's approximate log map by two precomputed matrices against LU solves (Hartmann et al. 2026, Eq. (15)).

``Log(theta) = -1/2 A^{-1} (Sigma_pi g(theta) + 2 (theta* - theta))`` with ``A = Sigma_pi I_Theta + I``.
The library (:class:`geobayes.geometry.ApproximateLogMap`) forms ``-1/2 A^{-1} Sigma_pi`` and ``A^{-1}``
once at the base point, so an evaluation is two matrix-vector products after ``g``; the baseline here,
the library's earlier form, keeps the LU factors of ``A`` and evaluates ``Sigma_pi g`` and two triangular
solves every time. WG's least-squares inversion (:func:`~geobayes.geometry.approximate_exponential_map.
approximate_exponential_map`, the pipeline's ``auto`` solver) evaluates ``Log`` at every step. For each
Table 1 posterior (prepared from the mirror as ``bench_wg_sampling.py`` prepares them, MAP found here)
this times both on the same ``--n`` tangent draws in one process, compiled ahead of time, ``--repeats``
calls each round-robin, and reports the medians, the fastest calls, their ratio, the steps and the
largest difference of the draws.

Usage (from the repository root; GEOBAYES_DATA_MIRROR or ../shared/data)::

    .venv/bin/python benchmarks/bench_wg_log_map_matrices.py --output benchmarks/results/wg_log_map_matrices.json

Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_wg_sampling import WG_SETTINGS, table1_at_map, table1_parser  # noqa: E402


def lu_log_map(log_map):
    """The baseline: ``log_map``'s Eq. (15) evaluated with the LU factors of ``A`` (Eq. (12) for a flat prior)."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp
    import jax.scipy.linalg as jsl

    class LuLogMap(eqx.Module):
        inner: eqx.Module
        lu: jax.Array
        pivots: jax.Array

        @property
        def base(self):
            return self.inner.base

        def __call__(self, theta):
            g = self.inner.contrast_gradient(theta)
            covariance = self.inner.prior_covariance
            rhs = g if covariance is None else covariance @ g + 2.0 * (self.inner.base - theta)
            return -0.5 * jsl.lu_solve((self.lu, self.pivots), rhs)

    fisher = log_map.target.family.pullback_fisher(log_map.base_params, log_map.embedding_jacobian)
    fisher = 0.5 * (fisher + fisher.T)
    covariance = log_map.prior_covariance
    matrix = fisher if covariance is None else covariance @ fisher + jnp.eye(log_map.base.shape[0])
    return LuLogMap(log_map, *jsl.lu_factor(matrix))


def main(argv=None) -> int:
    parser = table1_parser(__doc__.split("\n\n")[0], REPO / "benchmarks" / "results" / "wg_log_map_matrices.json")
    args = parser.parse_args(argv)

    import jax

    jax.config.update("jax_enable_x64", True)
    import numpy as np

    from geobayes.batching import Schedule
    from geobayes.geometry.approximate_exponential_map import approximate_exponential_map
    from geobayes.io import provenance
    from geobayes.methods import get_method, method_config

    settings = WG_SETTINGS
    results = []
    for name, posterior, key, mode in table1_at_map(args.models):
        fitted = get_method("wg").fit(posterior, method_config("wg", {"precision": "hessian", "wrapped_gaussian": settings}),
                                      key, mode=mode).approximation
        velocities = fitted.tangent.sample_velocities(key, args.n)
        maps = {"matrices": fitted.log_map, "lu": lu_log_map(fitted.log_map)}
        calls = {label: jax.jit(lambda v, m=m: approximate_exponential_map(m, v, fitted.settings, Schedule()))
                 .lower(velocities).compile() for label, m in maps.items()}
        draws = {label: jax.block_until_ready(call(velocities)) for label, call in calls.items()}
        times = {label: [] for label in calls}
        for _ in range(args.repeats):
            for label, call in calls.items():
                start = time.perf_counter()
                jax.block_until_ready(call(velocities))
                times[label].append(time.perf_counter() - start)
        row = {"case": name, "dim": posterior.dim, "solver": str(fitted.settings.solver), "n": args.n,
               "median_s": {k: statistics.median(v) for k, v in times.items()},
               "fastest_s": {k: min(v) for k, v in times.items()},
               "steps": {k: int(np.sum(d.num_steps)) for k, d in draws.items()},
               "failed": {k: int(np.sum(~np.asarray(d.successful))) for k, d in draws.items()},
               "max_diff": float(np.max(np.abs(np.asarray(draws["matrices"].points) - np.asarray(draws["lu"].points))))}
        row["speedup_median"] = row["median_s"]["lu"] / row["median_s"]["matrices"]
        row["speedup_fastest"] = row["fastest_s"]["lu"] / row["fastest_s"]["matrices"]
        results.append(row)
        print(f"{name} (D={posterior.dim}, {row['solver']}): LU {row['median_s']['lu'] * 1e3:.2f} ms, matrices "
              f"{row['median_s']['matrices'] * 1e3:.2f} ms, {row['speedup_median']:.2f}x (fastest "
              f"{row['speedup_fastest']:.2f}x), steps {row['steps']}, max diff {row['max_diff']:.1e}", flush=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"provenance": provenance(), "args": {k: str(v) for k, v in vars(args).items()},
                                       "results": results}, indent=1))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
