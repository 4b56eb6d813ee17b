"""Seconds per sample of RLA-B or RLA-F on one trained network of the scalability study
(Yu et al. 2024, Supp. 16.5.3, Fig. 15), one sample at a time and batched."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax.numpy as jnp
import numpy as np

from geobayes.dataset import Dataset
from geobayes.families.gaussian_fixed_variance import GaussianFixedVariance
from geobayes.floating_point import floating_point
from geobayes.io import load_npz, save_json
from geobayes.methods import get_method, method_config
from geobayes.metrics.sampling_time import time_sampling
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.networks.network_models import NetworkRegression
from geobayes.pipeline.device import use_device
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.posterior import Posterior
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    width, size, repetition = (int(smk.wildcards[k]) for k in ("width", "size", "repetition"))
    method, timing = smk.wildcards.method, smk.params.timing
    cell = f"h{width}_n{size}_rep{repetition}"
    arrays = load_npz(smk.input.network, required=("X", "y", "theta_trained", "prior_variance", "noise_variance"),
                      what="trained network of the scalability study")
    network = MultilayerPerceptron((1, width, width, 1), smk.params.activation)
    model = NetworkRegression(network=network, prior=GaussianPrior(float(arrays["prior_variance"])),
                              family=GaussianFixedVariance(float(arrays["noise_variance"])))
    posterior = Posterior(f"{cell}-scalability", model, Dataset(np.asarray(arrays["X"], dtype=np.float64),
                                                                np.asarray(arrays["y"], dtype=np.float64)))
    # The tangent Gaussian at the trained weights with the GGN + prior precision (laplace-torch's
    # full Laplace), the same for both methods, as the Snelson networks.
    cfg = {**smk.params.approximation, "precision": smk.params.precision}
    key = derive_key(smk.params.seed, "bnn_scalability", cell)
    clock = Stopwatch()
    with floating_point(cfg["dtype"]):  # approximation.dtype: float64, or float32 as the papers' code ran
        with clock.time("fit"):
            fitted = get_method(method).fit(posterior, method_config(method, cfg), key,
                                            mode=jnp.asarray(arrays["theta_trained"]))
        with clock.time("timing"):
            measured = time_sampling(fitted.approximation, key, n_sequential=int(timing["sequential_samples"]),
                                     n_batched=int(timing["batched_samples"]), repeats=int(timing["repeats"]))
    record = measured.to_dict()
    print(f"{method} on {cell} (D={network.num_parameters}): {record}", file=log)
    save_json(smk.output[0], sidecar(
        "bnn_scalability_timing", {"timing": timing, "approximation": cfg}, device, clock.timings,
        posterior=f"h{width}_n{size}-scalability", method=method, width=width, size=size, repetition=repetition,
        parameters=network.num_parameters, threads=smk.threads, evaluations_per_step=cfg.get("evaluations_per_step"),
        # both protocols' samples and failures, for the tidy rows (geobayes.report.tidy)
        n_samples=record["n_sequential"] + record["n_batched"],
        n_failed=record["failed_sequential"] + record["failed_batched"], **record))
