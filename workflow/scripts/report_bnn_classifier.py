"""Hartmann et al. (2026), App. D: Fig. 8 (MAP decision boundary, LA and WG predictive variance per
optimum) and Fig. 9 (Fisher spectra per optimum); the per-optimum numbers are the tables
bnn_classifier_optima/_variance of workflow/resources/tables.yaml."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.prepared import load_prepared
from geobayes.io import load_json, load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.bnn_classifier import spectra_figure, variance_figure
from geobayes.report.figures import save_figure

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    optima, methods = list(smk.params.optima), list(smk.params.methods)
    data = load_prepared(smk.input.data, "banana_classification")
    maps = [load_json(smk.input[f"map{k}_json"]) for k in optima]
    panels = []
    for k in optima:
        optimum = load_npz(smk.input[f"map{k}"], required=("x1", "x2", "map_probability"), what="classifier MAP file")
        panel = {"optimum": k, "x1": optimum["x1"], "x2": optimum["x2"], "map_probability": optimum["map_probability"]}
        for m in methods:
            panel[m] = load_npz(smk.input[f"{m}{k}"], required=("grid_variance",), what=f"{m} predictive file")["grid_variance"]
        panels.append(panel)
    save_figure(variance_figure(panels, data["X"], data["y"], methods), smk.output.variance)
    spectra = [load_npz(smk.input[f"map{k}"], required=("fisher_eigenvalues",))["fisher_eigenvalues"] for k in optima]
    save_figure(spectra_figure(spectra, [m["fisher_spectrum"]["drop_index"] for m in maps]), smk.output.spectra)
    print(f"drew {len(optima)} optima x {methods}", file=log)
