"""LA or WG at one optimum of Hartmann et al.'s (2026) App. D classifier, and the Monte-Carlo
predictive variance of p(y = 1 | x) on the input grid and at the training inputs (Fig. 8)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.data.prepared import load_prepared
from geobayes.io import load_npz, save_json, save_npz
from geobayes.methods import get_method, method_config, summarise_draws
from geobayes.metrics.classifier_variance import distance_to_data, input_grid, predictive_moments, variance_summary
from geobayes.networks.classifier_posterior import build_classifier_posterior
from geobayes.pipeline.device import use_device
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    cfg, method, optimum = smk.params.options, smk.wildcards.method, int(smk.wildcards.optimum)
    data = load_prepared(smk.input.data, "banana_classification")
    posterior = build_classifier_posterior(cfg, data["X"], data["y"])
    mode = jnp.asarray(load_npz(smk.input.map, required=("position",), what="classifier MAP file")["position"])
    # WG's solver settings reach WG's jobs only (bnn_classifier_approximation_options)
    solver = {"wrapped_gaussian": cfg["wrapped_gaussian"]} if "wrapped_gaussian" in cfg else {}
    settings = method_config(method, {"precision": cfg["precision"], "schedule": cfg.get("schedule") or {}, **solver},
                             path="bnn_classifier")
    # Common random numbers: LA and WG at one optimum push the same base Gaussian draws.
    key = derive_key(smk.params.seed, "bnn_classifier_approximate", optimum)
    clock = Stopwatch()
    with clock.time("fit"):
        fitted = get_method(method).fit(posterior, settings, key, mode=mode)
    with clock.time("sample"):
        draws = jax.block_until_ready(fitted.approximation.sample(key, int(cfg["samples"])))
    summary = summarise_draws(draws, getattr(get_method(method), "EVALUATIONS_PER_STEP", 1))
    ok = np.asarray(draws.successful)
    theta = np.asarray(draws.theta)[ok]
    grid = input_grid(data["X"], int(cfg["grid"]["points"]), float(cfg["grid"]["margin"]))
    with clock.time("predictive"):
        on_grid = predictive_moments(posterior, theta, grid.points, chunk=int(cfg["chunk"]))
        on_data = predictive_moments(posterior, theta, data["X"], chunk=int(cfg["chunk"]))
    off = distance_to_data(grid.points, data["X"]) > float(cfg["off_data_distance"])
    variance = variance_summary(on_data.variance, on_grid.variance, off)
    print(f"{method} at optimum {optimum}: {summary}; predictive variance of p(y=1|x) {variance}", file=log)
    save_npz(smk.output.npz, mode=np.asarray(mode), x1=grid.x1, x2=grid.x2, grid_mean=on_grid.mean,
             grid_variance=on_grid.variance, grid_logit_variance=on_grid.logit_variance,
             data_variance=on_data.variance, off_data=off,
             **{k: np.asarray(v) for k, v in draws.arrays().items()})
    save_json(smk.output.json, sidecar(
        "bnn_classifier_approximation", {"bnn_classifier": cfg, "seed": smk.params.seed}, device, clock.timings,
        optimum=optimum, method=method, predictive_variance=variance,
        # keys and flat metric fields of the tidy rows (geobayes.report.tidy)
        posterior=f"{cfg['dataset']}-classifier", anchor=f"optimum{optimum}", variance_on_data=variance["on_data"],
        variance_off_data=variance["off_data"], off_on_ratio=variance["off_on_ratio"], **summary))
