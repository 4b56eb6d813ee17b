"""Hartmann et al. (2026), App. D, Figs. 6-7: the LA and WG predictives at each of several optima
of the 142-parameter network, and the pairwise W2 between them per input x (computed upstream by
rule map_robustness)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_json, load_npz
from geobayes.metrics.pushforward_w2 import PairwiseW2
from geobayes.pipeline.step import logged_to
from geobayes.report.bnn_map_robustness import build_map_predictives_figure
from geobayes.report.bnn_panels import METHOD_LABELS
from geobayes.report.bnn_pushforward_figures import build_wasserstein_across_maps_figure
from geobayes.report.figures import save_figure

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    optima, methods = range(smk.params.optima), list(smk.params.methods)
    predictions = {m: [load_npz(smk.input[f"{m}{k}"]) for k in optima] for m in methods}
    failed = {m: [load_json(smk.input[f"{m}{k}_json"])["n_failed"] for k in optima] for m in methods}
    first = predictions[methods[0]][0]
    grid, x_train, y_train = first["grid"], first["X_train"], first["y_train"]
    map_f = load_npz(smk.input.optima_npz, required=("map_f",), what="map_robustness optima file")["map_f"]
    labels = {m: METHOD_LABELS[m] for m in methods}
    per_optimum = {labels[m]: [p.get("f_grid") for p in predictions[m]] for m in methods}
    save_figure(build_map_predictives_figure(grid, per_optimum, map_f=map_f, x_train=x_train, y_train=y_train,
                                             failed={labels[m]: failed[m] for m in methods}), smk.output.maps)
    pairwise = {}
    for m in methods:
        arrays = load_npz(smk.input[f"{m}_npz"], what="map_robustness file")
        if bool(arrays["usable"]):
            pairwise[labels[m]] = PairwiseW2(arrays["mean"], arrays["variance"], arrays["per_pair"],
                                             tuple(map(tuple, arrays["pairs"].tolist())))
    save_figure(build_wasserstein_across_maps_figure(grid, pairwise, x_train=x_train), smk.output.w2)
    print(f"drew {len(optima)} optima x {methods}; W2 across optima of {sorted(pairwise)}", file=log)
