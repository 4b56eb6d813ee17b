"""Train a network's MAP as the paper's code does, then set its prior precision and noise by the
Laplace marginal likelihood (Yu et al. 2024, Sec. 5.4; Bergamin et al. 2023, Sec. 5.1)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.data.prepared import load_prepared, save_prepared
from geobayes.io import save_json
from geobayes.laplace import optimise_hyperparameters_from_config
from geobayes.optimize.train_network import train_network
from geobayes.pipeline.device import use_device
from geobayes.pipeline.network_posteriors import network_of
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.posterior import split_posterior_name
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    name = smk.wildcards.posterior
    split, model_name = split_posterior_name(name)
    options = smk.params.model
    arrays = load_prepared(smk.input.data, "snelson")
    network = network_of(model_name, options, arrays["X"].shape[1])
    settings = dict(options["training"][model_name])
    decay = settings.pop("weight_decay")
    if isinstance(decay, dict):
        if split not in decay:
            raise KeyError(f"experiments.{smk.rule}.training.{model_name}.weight_decay has no entry for split {split!r}")
        decay = decay[split]
    theta0 = network.initial_parameters(derive_key(smk.params.seed, "train", name))
    clock = Stopwatch()
    with clock.time("train"):
        trained = train_network(network, arrays["X"], arrays["y"], theta0, weight_decay=float(decay), **settings)
    print(f"{name}: trained {trained.epochs} epochs, final data loss {trained.loss:.6g}", file=log)
    marglik = options["marginal_likelihood"]
    with clock.time("marginal_likelihood"):
        fit = optimise_hyperparameters_from_config(network, trained.theta, arrays["X"], arrays["y"], marglik,
                                                   where=f"marginal_likelihood of the experiment of {name}")
    print(f"marginal likelihood: prior precision {fit.prior_precision:.6g}, noise std {fit.noise_std:.6g}, "
          f"log evidence {fit.log_marginal_likelihood:.6g}, |grad| {fit.gradient_norm:.3g}", file=log)
    save_prepared(smk.output.npz, "trained_network",
                  {**arrays, "theta_trained": np.asarray(trained.theta),
                   "prior_variance": np.asarray(1.0 / fit.prior_precision),
                   "noise_variance": np.asarray(fit.noise_std**2), "loss_trace": np.asarray(trained.loss_trace)},
                  {"posterior": name})
    save_json(smk.output.json, sidecar("network", {"model": options, "seed": smk.params.seed}, device, clock.timings,
                                       posterior=name, weight_decay=float(decay), final_loss=trained.loss,
                                       marginal_likelihood=fit.summary()))
