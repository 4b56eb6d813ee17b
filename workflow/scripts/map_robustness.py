"""Hartmann et al. (2026), App. D, Figs. 6-7: the numbers behind the figures. Per method, the
pairwise push-forward W2 between the predictives at every pair of optima per input x and its
summary over x (geobayes.metrics.map_robustness.map_w2_table); the optima's objectives and their
distances in parameter space and between the MAP networks on the grid (optima_table). The JSON
records are tidy rows (stages map_robustness and map_optima, geobayes.report.tidy): the tables
bnn_hartmann_map_w2 / bnn_hartmann_map_optima of tables.yaml; the NPZ files feed the figures."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.io import load_json, load_npz, save_json, save_npz
from geobayes.metrics.map_robustness import OptimumPredictive, map_w2_table, on_data_mask, optima_table
from geobayes.networks.predictive import function_samples
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    optima, methods, clock = range(smk.params.optima), list(smk.params.methods), Stopwatch()
    posterior = build_posterior(smk.params.posterior, smk.input.data, smk.params.model)
    config = {"optima": smk.params.options, "model": smk.params.model}
    maps = [load_json(smk.input[f"map{k}_json"]) for k in optima]
    positions = np.stack([load_npz(smk.input[f"map{k}"], required=("position",), what="MAP file")["position"]
                          for k in optima])
    predictions = {m: [load_npz(smk.input[f"{m}{k}"]) for k in optima] for m in methods}
    records = {m: [load_json(smk.input[f"{m}{k}_json"]) for k in optima] for m in methods}
    first = predictions[methods[0]][0]
    grid, x_train = first["grid"], first["X_train"]
    map_f = function_samples(posterior, positions, grid[:, None]).f
    runs = {m: [OptimumPredictive(p.get("f_grid"), r["n_samples"], r["n_failed"])
                for p, r in zip(predictions[m], records[m], strict=True)] for m in methods}
    with clock.time("w2"):
        table, pairwise = map_w2_table(grid, runs, x_train)
    print(table.to_string(), file=log)
    for row in table.to_dict(orient="records"):
        method = row["method"]
        result = pairwise.get(method)
        save_npz(smk.output[f"{method}_npz"], grid=grid, on_data=on_data_mask(grid, x_train),
                 usable=np.asarray(result is not None),
                 **({"mean": result.mean, "variance": result.variance, "per_pair": result.per_pair,
                     "pairs": np.asarray(result.pairs, dtype=np.int64).reshape(-1, 2)} if result is not None else {}))
        save_json(smk.output[f"{method}_json"], sidecar(
            "map_robustness", config, "cpu", clock.timings, posterior=posterior.name,
            n_samples=int(sum(run.n_samples for run in runs[method])), n_failed=int(row["failed_samples"]), **row))
    optima_frame = optima_table([r["logdensity"] for r in maps], [r["converged"] for r in maps],
                                [r["grad_norm"] for r in maps], [r["num_steps"] for r in maps], positions, map_f)
    print(optima_frame.to_string(), file=log)
    columns = ("log_posterior", "converged", "grad_norm", "num_steps", "nearest_param_distance",
               "nearest_map_f_rms_distance")
    save_npz(smk.output.optima_npz, grid=grid, map_f=map_f, positions=positions)
    # One list per metric, one element per optimum (tidy rows with repetition = optimum index).
    save_json(smk.output.optima_json, sidecar(
        "map_optima", config, "cpu", {}, posterior=posterior.name, method="map",
        **{c: [float(v) for v in optima_frame[c]] for c in columns}, table=optima_frame.to_dict(orient="records")))
