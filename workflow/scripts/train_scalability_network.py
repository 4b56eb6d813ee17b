"""Train one [1, h, h, 1] network of the scalability study as the paper's code does, then set its
prior precision and noise by the Laplace marginal likelihood (Yu et al. 2024, Supp. 16.5.3)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.data.prepared import load_prepared
from geobayes.io import save_json, save_npz
from geobayes.laplace import optimise_hyperparameters_from_config
from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.optimize.train_network import train_network
from geobayes.pipeline.device import use_device
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    width, size, repetition = (int(smk.wildcards[k]) for k in ("width", "size", "repetition"))
    cell = f"h{width}_n{size}_rep{repetition}"
    arrays = load_prepared(smk.input.data, "sine")
    network = MultilayerPerceptron((1, width, width, 1), smk.params.activation)
    training, marglik = dict(smk.params.training), smk.params.marginal_likelihood
    theta0 = network.initial_parameters(derive_key(smk.params.seed, "train", "bnn_scalability", cell))
    clock = Stopwatch()
    with clock.time("train"):
        trained = train_network(network, arrays["X"], arrays["y"], theta0, **training)
    print(f"{cell}: D={network.num_parameters}, trained {trained.epochs} epochs, final data loss "
          f"{trained.loss:.6g}", file=log)
    with clock.time("marginal_likelihood"):
        fit = optimise_hyperparameters_from_config(network, trained.theta, arrays["X"], arrays["y"], marglik,
                                                   where="experiments.bnn_scalability.marginal_likelihood")
    print(f"marginal likelihood: prior precision {fit.prior_precision:.6g}, noise std {fit.noise_std:.6g}, "
          f"log evidence {fit.log_marginal_likelihood:.6g}, |grad| {fit.gradient_norm:.3g}", file=log)
    save_npz(smk.output.npz, X=arrays["X"], y=arrays["y"], theta_trained=np.asarray(trained.theta),
             prior_variance=np.asarray(1.0 / fit.prior_precision), noise_variance=np.asarray(fit.noise_std**2),
             loss_trace=np.asarray(trained.loss_trace))
    summary = fit.summary()
    summary = {k: v for k, v in summary.items() if not k.startswith(("trace_", "steps"))}
    save_json(smk.output.json, sidecar(
        "bnn_scalability_network",
        {"training": training, "marginal_likelihood": marglik, "activation": smk.params.activation,
         "seed": smk.params.seed},
        device, clock.timings, width=width, size=size, repetition=repetition, parameters=network.num_parameters,
        final_loss=trained.loss, marginal_likelihood=summary))
