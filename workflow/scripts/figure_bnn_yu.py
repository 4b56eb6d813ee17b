"""Yu et al. (2024), Figs. 6 / 14 (function samples of the geodesic methods and NUTS on the
complete and gap splits), Fig. 10 (ELA) and Figs. 11-13 (each method's worst repetition)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_json
from geobayes.pipeline.step import logged_to
from geobayes.report.bnn_figures import build_function_sample_figure
from geobayes.report.bnn_panels import METHOD_LABELS, load_panel
from geobayes.report.figures import save_figure

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    options, scaling = smk.params.options, smk.wildcards.scaling
    network = options["models"][0]
    splits = {"complete": f"complete_{scaling}-{network}", "gap": f"gap_{scaling}-{network}"}
    geodesic = [m for m in options["methods"] if m != "ela"]

    def panel(posterior, method, seed=0, note=""):
        key = f"{posterior}:nuts" if method == "nuts" else f"{posterior}:{method}_seed{seed}"
        return load_panel(smk.input[key], METHOD_LABELS[method], note)

    rows = [[panel(p, m) for m in [*geodesic, "nuts"]] for p in splits.values()]
    save_figure(build_function_sample_figure(rows, row_labels=list(splits)), smk.output.main)
    shown = "ela" if "ela" in options["methods"] else "nuts"
    save_figure(build_function_sample_figure([[panel(p, shown, note=split) for split, p in splits.items()]]), smk.output.ela)
    # Figs. 11-13: the repetition with the largest test MSE of each geodesic method.
    worst_rows = []
    for split, posterior in splits.items():
        row = []
        for method in geodesic:
            mse = {s: load_json(smk.input[f"{posterior}:{method}_seed{s}"].replace(".npz", ".json"))["mse"]
                   for s in smk.params.seeds}
            seed = max(mse, key=lambda s: mse[s])
            print(f"{split} {method}: worst repetition seed{seed} (MSE {mse[seed]:.4g})", file=log)
            row.append(panel(posterior, method, seed, note=f"seed{seed}"))
        worst_rows.append(row)
    save_figure(build_function_sample_figure(worst_rows, row_labels=list(splits)), smk.output.worst)
