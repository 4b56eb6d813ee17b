"""Seconds per sample of one method on one posterior, one at a time and batched."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax.numpy as jnp

from geobayes.floating_point import floating_point
from geobayes.io import load_npz, save_json
from geobayes.methods import get_method, method_config
from geobayes.optimize import tangent_precision
from geobayes.metrics.sampling_time import time_sampling
from geobayes.pipeline.device import use_device
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    method, timing = smk.wildcards.method, smk.params.timing
    cfg = {**smk.params.approximation, "precision": tangent_precision("euclidean", smk.params.model)}
    with floating_point(cfg["dtype"]):  # approximation.dtype: float64, or float32 as the papers' code ran
        posterior = build_posterior(smk.wildcards.posterior, smk.input.data, smk.params.model)
        key = derive_key(smk.params.seed, "timing", posterior.name)
        fitted = get_method(method).fit(posterior, method_config(method, cfg), key,
                                        mode=jnp.asarray(load_npz(smk.input.map)["position"]))
        measured = time_sampling(fitted.approximation, key, n_sequential=timing["sequential_samples"],
                                 n_batched=timing["batched_samples"], repeats=timing["repeats"])
    record = measured.to_dict()
    print(f"{method} on {posterior.name}: {record}", file=log)
    save_json(smk.output[0], sidecar("timing", {"timing": timing, "approximation": cfg}, device, {},
                                     posterior=posterior.name, method=method, threads=smk.threads, **record))
