"""Hartmann et al. (2026), Fig. 5: predictive of WG, LA and NUTS on the 142-parameter network (the W2
of the push-forward against NUTS is rule evaluate_pushforward's, table bnn_hartmann_pushforward_w2)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.bnn_panels import METHOD_LABELS
from geobayes.report.bnn_pushforward_figures import build_pushforward_figure
from geobayes.report.figures import save_figure

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    options = smk.params.options
    posterior_name = f"{smk.wildcards.split}-{options['models'][0]}"
    prefix = f"{posterior_name}:"
    predictions = {m: load_npz(smk.input[f"{prefix}{m}_seed0"]) for m in options["methods"]}
    predictions["nuts"] = load_npz(smk.input[f"{prefix}nuts"])
    reference = predictions["nuts"]
    grid = reference["grid"]
    # the MAP curve: the network at the Euclidean MAP, the anchor of every approximation here
    map_f = next(predictions[m]["f_mode"] for m in options["methods"] if "f_mode" in predictions[m])
    samples = {METHOD_LABELS[m]: p["f_grid"] for m, p in predictions.items() if "f_grid" in p}
    noise = {METHOD_LABELS[m]: p["noise_std"] for m, p in predictions.items() if "noise_std" in p}
    save_figure(build_pushforward_figure(grid, samples, x_train=reference["X_train"], y_train=reference["y_train"],
                                         map_f=map_f, noise_std=noise), smk.output.figure)
    print(f"drew {sorted(samples)}", file=log)
