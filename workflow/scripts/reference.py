"""NUTS reference of one posterior with posteriordb-style diagnostics and checks."""

import jax.numpy as jnp

from geobayes.io import load_npz
from geobayes.pipeline.device import use_device
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key
from geobayes.samplers.nuts import NutsConfig, run_nuts
from geobayes.samplers.reference import ReferenceChecks, save_reference

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    posterior = build_posterior(smk.wildcards.posterior, smk.input.data, smk.params.model)
    cfg = dict(smk.params.reference)
    checks = ReferenceChecks(**cfg.pop("checks"))
    cfg.pop("protect", None)
    clock = Stopwatch()
    with clock.time("nuts"):
        reference = run_nuts(
            posterior, NutsConfig(**cfg), derive_key(smk.params.seed, "reference", posterior.name),
            jnp.asarray(load_npz(smk.input.map)["position"]), checks=checks, seed=smk.params.seed,
        )
    print(f"{reference.draws.shape[0]} draws; checks {reference.checks}", file=log)
    extra = sidecar("reference", {"reference": smk.params.reference, "model": smk.params.model},
                    device, clock.timings, posterior=posterior.name)
    save_reference(smk.output.npz, smk.output.json, reference,
                   extra={k: v for k, v in extra.items() if k != "stage"})
