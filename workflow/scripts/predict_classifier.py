"""The Monte Carlo predictive of every repetition of one classifier approximation (Bergamin et al.
2023, Sec. 5.2): accuracy, NLL, Brier, ECE and MCE on the test split as the authors' code computes
them (geobayes.metrics.classification), the out-of-distribution AUROC of the max predictive
probability against each configured test set (Tables 9, 10), and the mean predictive on the 2-D
grid of the confidence maps (Figs. 6, D.5, D.6). Failed solves are dropped and counted beside the
metrics. The sidecar (stage "classification") becomes tidy rows (geobayes.report.tidy).
"""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import numpy as np

from geobayes.data.prepared import load_prepared
from geobayes.io import load_json, load_npz, save_json, save_npz
from geobayes.methods import get_method
from geobayes.metrics.classification import classification_metrics, ood_auroc
from geobayes.networks.classifier_predictive import grid_points, predictive_probabilities
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to, sidecar

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    options, name, method = smk.params.model, smk.wildcards.posterior, smk.wildcards.method
    settings = smk.params.classification
    posterior = build_posterior(name, smk.input.data, options)
    data = load_prepared(smk.input.data, required=("X_test", "y_test"))
    y_test = np.asarray(data["y_test"]).astype(np.int64)
    ood = {s: load_prepared(smk.input[f"ood_{s}"], "image_test_set")["X"] for s in smk.params.ood}
    grid = None if settings["grid"] is None else grid_points(*settings["grid"])
    linearised = getattr(get_method(method), "LINEARISED_PREDICTIONS", False)
    n = len(smk.output.json)
    for k in range(n):
        draws, run = load_npz(smk.input[f"draws{k}"]), load_json(smk.input[f"record{k}"])
        ok = np.asarray(draws["successful"]).astype(bool)
        used = np.asarray(draws["theta"])[ok]
        at = draws["mode"] if linearised else None
        record = {"method": method, "anchor": smk.wildcards.anchor, "repetition": run["repetition"],
                  "n_samples": int(ok.size), "n_failed": int((~ok).sum()), "T": run.get("T"),
                  "max_speed_drift": run.get("max_speed_drift"), "linearised_predictions": linearised}
        arrays = {}
        if len(used):
            probs = predictive_probabilities(posterior, used, data["X_test"], linearised_at=at)
            record.update(classification_metrics(probs, y_test, n_bins=int(settings["calibration_bins"])))
            for other, X_out in ood.items():
                record[f"auroc_{other}"] = ood_auroc(probs, predictive_probabilities(posterior, used, X_out,
                                                                                     linearised_at=at))
            arrays["probs_test"] = probs
            if grid is not None:
                arrays.update(grid_axis=grid[0], grid_probs=predictive_probabilities(posterior, used, grid[1],
                                                                                     linearised_at=at))
        else:
            print(f"{name} {method} repetition {run['repetition']}: every solve failed, no metrics", file=log)
        print(f"{name} {method}: {record}", file=log)
        save_npz(smk.output.npz[k], **arrays)
        save_json(smk.output.json[k], sidecar("classification", {"model": options, "classification": settings},
                                              jax.default_backend(), {}, posterior=name, **record))
