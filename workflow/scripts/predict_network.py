"""Function samples of a network posterior (the repetitions of one approximation, or the NUTS
reference) at the test inputs and on the figure grid, with Yu et al. (2024)'s MSE and NLL (Sec.
5.4); for an approximation also the network at its anchor on the grid (``f_mode``, the MAP curve
the figures draw).

One job covers every repetition of an approximation (the rule's files are lists; the reference
and a single optimum's run are one file each). Failed solves are dropped from the metrics and
counted beside them. For NUTS the metrics are the mean and std over
`predictive.reference_repeats` random subsets of as many draws as one approximation repetition
(the paper: 500 of 20,000 draws); the reference's diagnostic checks are recorded next to them
(network posteriors are multimodal, and R-hat across chains may fail). The sidecar (stage
"prediction") is tidied by geobayes.report.tidy: mse, nll and T become rows keyed by posterior,
anchor, method and repetition (NUTS: one repetition per subset).
"""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import numpy as np

from geobayes.data.prepared import load_prepared
from geobayes.io import load_json, load_npz, save_json, save_npz
from geobayes.methods import get_method
from geobayes.metrics.predictive import predictive_mse, predictive_nll
from geobayes.networks.predictive import function_samples
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821


def as_list(files):
    """A rule's file or files as a list (one job covers every repetition of an approximation)."""
    return [files] if isinstance(files, str) else list(files)


with logged_to(smk.log[0]) as log:
    options, name = smk.params.model, smk.wildcards.posterior
    posterior = build_posterior(name, smk.input.data, options)
    data = load_prepared(smk.input.data, required=("X_test", "y_test", "x_mean", "x_std", "y_mean", "y_std"))
    lo, hi, points = options["predictive"]["grid"]
    # The grid is on the original input scale; the network sees standardised inputs where the split is.
    grid = np.linspace(float(lo), float(hi), int(points))[:, None]
    x_mean, x_std = float(data["x_mean"]), float(data["x_std"])  # 0 and 1 for raw splits
    grid_model = (grid - x_mean) / x_std
    scale = {"y_mean": float(data["y_mean"]), "y_std": float(data["y_std"])}
    is_reference = smk.rule == "predict_network_reference"
    runs = zip(*(as_list(files) for files in (smk.input.draws, smk.input.record, smk.output.npz, smk.output.json)),
               strict=True)
    for draws_path, record_path, npz_path, json_path in runs:
        draws = load_npz(draws_path)
        if is_reference:
            theta, ok = draws["draws"], np.ones(draws["draws"].shape[0], dtype=bool)
            method, linearised_at = "nuts", None
        else:
            theta, ok = draws["theta"], draws["successful"].astype(bool)
            method = smk.wildcards.method
            linearised = getattr(get_method(method), "LINEARISED_PREDICTIONS", False)
            linearised_at = draws["mode"] if linearised else None
        used = theta[ok]
        test = on_grid = None
        if len(used):
            test = function_samples(posterior, used, data["X_test"], linearised_at=linearised_at, **scale)
            on_grid = function_samples(posterior, used, grid_model, linearised_at=linearised_at, **scale)
        has_test = data["X_test"].shape[0] > 0 and test is not None

        def metrics(rows, test=test, has_test=has_test):
            if not has_test:
                return float("nan"), float("nan")
            return (predictive_mse(test.f[rows], data["y_test"]),
                    predictive_nll(test.f[rows], data["y_test"], test.noise_std[rows]))

        record = {"method": method, "n_samples": int(ok.size), "n_failed": int((~ok).sum()),
                  "linearised_predictions": linearised_at is not None}
        if is_reference:
            size, repeats = int(smk.params.samples), int(options["predictive"]["reference_repeats"])
            key = derive_key(smk.params.seed, "predict_reference", name)
            subset = (min(size, used.shape[0]),)
            subsets = [np.asarray(jax.random.choice(jax.random.fold_in(key, r), used.shape[0], subset, replace=False))
                       for r in range(repeats)]
            values = np.array([metrics(rows) for rows in subsets])
            record.update(mse=values[:, 0].tolist(), nll=values[:, 1].tolist(), subset_size=min(size, used.shape[0]))
            checks = load_json(record_path)
            record.update(reference_passed=bool(checks["passed"]),
                          reference_failed_checks=[k for k, v in checks["checks"].items() if not v])
            keep = subsets[0]
        else:
            mse, nll = metrics(slice(None)) if len(used) else (float("nan"), float("nan"))
            run = load_json(record_path)  # the approximation's sidecar: its repetition and cost
            record.update(mse=mse, nll=nll, anchor=smk.wildcards.anchor, repetition=run["repetition"], T=run["T"],
                          max_speed_drift=run.get("max_speed_drift"))
            keep = slice(None)
        print(f"{name} {method}: {record}", file=log)
        arrays = {"grid": grid[:, 0], "X_train": data["X"][:, 0] * x_std + x_mean,
                  "y_train": data["y"] * float(data["y_std"]) + float(data["y_mean"]),
                  "X_test": data["X_test"][:, 0] * x_std + x_mean, "y_test": data["y_test"]}
        if not is_reference:  # the network at the approximation's anchor (the MAP curve of the figures)
            arrays["f_mode"] = function_samples(posterior, draws["mode"][None], grid_model, **scale).f[0]
        if on_grid is not None:
            arrays.update(f_grid=on_grid.f[keep], noise_std=on_grid.noise_std[keep])
            if has_test:
                arrays.update(f_test=test.f[keep])
        save_npz(npz_path, **arrays)
        save_json(json_path, sidecar("prediction", {"model": options}, jax.default_backend(), {}, posterior=name,
                                     **record))
