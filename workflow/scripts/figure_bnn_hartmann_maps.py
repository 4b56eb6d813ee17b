"""Hartmann et al. (2026), App. D, Figs. 6-7: the LA and WG predictives at each of several optima
of the 142-parameter network, the pairwise W2 between them per input x, and the optima's record."""

import numpy as np

from geobayes.io import load_json, load_npz, save_csv, save_json
from geobayes.networks.predictive import function_samples
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.report.bnn_figures import wasserstein_across_maps_figure
from geobayes.report.bnn_map_robustness import (
    OptimumPredictive,
    map_predictives_figure,
    map_w2_table,
    optima_table,
)
from geobayes.report.bnn_panels import METHOD_LABELS

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    optima, methods, clock = range(smk.params.optima), smk.params.methods, Stopwatch()
    posterior = build_posterior(smk.params.posterior, smk.input.data, smk.params.model)
    maps = [load_json(smk.input[f"map{k}_json"]) for k in optima]
    positions = np.stack([load_npz(smk.input[f"map{k}"], required=("position",), what="MAP file")["position"]
                          for k in optima])
    predictions = {m: [load_npz(smk.input[f"{m}{k}"]) for k in optima] for m in methods}
    records = {m: [load_json(smk.input[f"{m}{k}_json"]) for k in optima] for m in methods}
    first = predictions[methods[0]][0]
    grid, x_train, y_train = first["grid"], first["X_train"], first["y_train"]
    map_f = function_samples(posterior, positions, grid[:, None]).f
    runs = {m: [OptimumPredictive(p.get("f_grid"), r["n_samples"], r["n_failed"])
                for p, r in zip(predictions[m], records[m], strict=True)] for m in methods}
    with clock.time("w2"):
        table, pairwise = map_w2_table(grid, runs, x_train)
    print(table.to_string(), file=log)
    optima_frame = optima_table([r["logdensity"] for r in maps], [r["converged"] for r in maps],
                                [r["grad_norm"] for r in maps], [r["num_steps"] for r in maps], positions, map_f)
    print(optima_frame.to_string(), file=log)
    save_csv(table, smk.output.csv)
    save_csv(optima_frame, smk.output.optima)
    labels = {m: METHOD_LABELS[m] for m in methods}
    map_predictives_figure(smk.output.maps, grid, {labels[m]: [r.f_grid for r in runs[m]] for m in methods},
                           map_f=map_f, x_train=x_train, y_train=y_train,
                           failed={labels[m]: [r.n_failed for r in runs[m]] for m in methods})
    wasserstein_across_maps_figure(smk.output.w2, grid, {labels[m]: pairwise[m] for m in methods if m in pairwise},
                                   x_train=x_train)
    save_json(smk.output.json, sidecar(
        "figure", {"optima": smk.params.options, "model": smk.params.model}, "cpu", clock.timings,
        posterior=posterior.name, methods=list(methods), table=table.to_dict(orient="records"),
        optima=optima_frame.to_dict(orient="records"),
        pairwise={m: {"pairs": [list(p) for p in r.pairs], "per_pair_mean_over_x": r.per_pair.mean(axis=1).tolist()}
                  for m, r in pairwise.items()}))
