"""Exact i.i.d. draws of a closed-form target, stored as its reference."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import numpy as np

from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key
from geobayes.samplers.reference import exact_reference, save_reference

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    target = build_posterior(smk.wildcards.posterior, None, smk.params.model)
    key = derive_key(smk.params.seed, "reference", target.name)
    clock = Stopwatch()
    with clock.time("exact"):
        draws = np.asarray(target.sample_exact(key, smk.params.draws))
    reference = exact_reference(draws, seed=smk.params.seed, key_data=np.asarray(key).astype(np.int64).tolist(),
                                method_args={"draws": smk.params.draws})
    print(f"{draws.shape[0]} exact draws of {target.name}", file=log)
    extra = sidecar("reference", {"reference": {"exact_draws": smk.params.draws}, "model": smk.params.model},
                    jax.default_backend(), clock.timings, posterior=target.name)
    save_reference(smk.output.npz, smk.output.json, reference,
                   extra={k: v for k, v in extra.items() if k != "stage"})
