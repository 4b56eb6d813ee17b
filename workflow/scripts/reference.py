"""NUTS reference of one posterior with posteriordb-style diagnostics and checks (NumPyro, or Stan as the paper)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import dataclasses

import jax.numpy as jnp

from geobayes.io import load_npz
from geobayes.pipeline.compile_effort import use_compile_effort
from geobayes.pipeline.device import use_device
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key
from geobayes.samplers.nuts import NutsConfig, run_nuts
from geobayes.samplers.stan_nuts import StanSettings, run_stan_nuts
from geobayes.samplers.reference import ReferenceChecks, save_reference
from geobayes.whitened_target import whitened

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    effort = use_compile_effort(smk.params.compile)  # config fast_compile; before JAX starts
    device = use_device(smk.params.device)
    posterior = build_posterior(smk.wildcards.posterior, smk.input.data, smk.params.model)
    cfg = dict(smk.params.reference)
    checks = ReferenceChecks(**cfg.pop("checks"))
    cfg.pop("protect", None)
    backend, interface = cfg.pop("backend", "numpyro"), cfg.pop("stan_interface", "auto")
    clock = Stopwatch()
    start = jnp.asarray(load_npz(smk.input.map)["position"])
    key = derive_key(smk.params.seed, "reference", posterior.name)
    if backend == "stan":
        # the program samples z with theta = L z itself (geobayes/stan/embedding_model.stan)
        stan = smk.config["reference"]["stan"]
        with clock.time("nuts"):
            reference = run_stan_nuts(posterior, NutsConfig(**cfg), key, start, checks=checks, seed=smk.params.seed,
                                      settings=StanSettings(interface, stan["cache"], smk.threads), log_path=smk.log[0])
        print(f"Stan ({reference.method_args['interface']}): build {reference.method_args['build_seconds']:.1f} s "
              f"(cached: {reference.method_args['build_cached']}), sampling {reference.method_args['sample_seconds']:.1f} s",
              file=log)
    else:
        # Near-singular kernel priors: NUTS runs in the whitened coordinates theta = L z.
        white = whitened(posterior)
        with clock.time("nuts"):
            reference = run_nuts(
                posterior if white is None else white, NutsConfig(**cfg), key,
                start if white is None else white.to_z(start), checks=checks, seed=smk.params.seed,
            )
        if white is not None:
            print("NUTS ran in whitened coordinates theta = L z; diagnostics refer to z", file=log)
            reference = dataclasses.replace(reference, draws=white.to_theta(reference.draws),
                                            method_args={**reference.method_args, "whitened": True})
    print(f"{reference.draws.shape[0]} draws; checks {reference.checks}", file=log)
    extra = sidecar("reference", {"reference": smk.params.reference, "model": smk.params.model},
                    device, clock.timings, posterior=posterior.name, compile_effort=effort)
    save_reference(smk.output.npz, smk.output.json, reference,
                   extra={k: v for k, v in extra.items() if k != "stage"})
