"""Hartmann et al. (2026), Fig. 5: predictive of WG, LA and NUTS on the 142-parameter network, and
the W2 of the push-forward f_theta(x)#rho against NUTS on the input grid."""

import pandas as pd

from geobayes.io import load_json, load_npz, save_csv
from geobayes.metrics.predictive import mean_pushforward_wasserstein2, rms_pushforward_wasserstein2
from geobayes.networks.predictive import function_samples
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to
from geobayes.report.bnn_figures import pushforward_figure
from geobayes.report.bnn_panels import METHOD_LABELS

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    options = smk.params.options
    posterior_name = f"{smk.wildcards.split}-{options['models'][0]}"
    prefix = f"{posterior_name}:"
    predictions = {m: load_npz(smk.input[f"{prefix}{m}_seed0"]) for m in options["methods"]}
    predictions["nuts"] = load_npz(smk.input[f"{prefix}nuts"])
    posterior = build_posterior(posterior_name, smk.input[f"{prefix}data"], options)
    reference = predictions["nuts"]
    grid = reference["grid"]
    mode = load_npz(smk.input.map, required=("position",), what="MAP file")["position"]
    map_f = function_samples(posterior, mode[None], grid[:, None]).f[0]
    samples = {METHOD_LABELS[m]: p["f_grid"] for m, p in predictions.items() if "f_grid" in p}
    noise = {METHOD_LABELS[m]: p["noise_std"] for m, p in predictions.items() if "noise_std" in p}
    rows = []
    for method, p in predictions.items():
        if method == "nuts" or "f_grid" not in p:
            continue
        record = load_json(smk.input[f"{prefix}{method}_seed0"].replace(".npz", ".json"))
        rows.append({"method": method, "samples_used": int(p["f_grid"].shape[0]), "failed": record["n_failed"],
                     "w2_mean_over_grid": mean_pushforward_wasserstein2(p["f_grid"], reference["f_grid"]),
                     "w2_rms_over_grid": rms_pushforward_wasserstein2(p["f_grid"], reference["f_grid"]),
                     "nuts_draws": int(reference["f_grid"].shape[0])})
        print(rows[-1], file=log)
    save_csv(pd.DataFrame(rows), smk.output.csv)
    pushforward_figure(smk.output.figure, grid, samples, x_train=reference["X_train"], y_train=reference["y_train"],
                       map_f=map_f, noise_std=noise)
