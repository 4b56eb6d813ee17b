"""MAP of one posterior: BFGS from random restarts, best by log posterior."""

import numpy as np

from geobayes.io import save_json, save_npz
from geobayes.optimize import find_map
from geobayes.pipeline.device import use_device
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    posterior = build_posterior(smk.wildcards.posterior, smk.input.data, smk.params.model)
    cfg, clock = smk.params.map, Stopwatch()
    with clock.time("map"):
        estimate = find_map(
            lambda theta, post: post.logdensity(theta), posterior, posterior.dim,
            derive_key(smk.params.seed, "map", posterior.name),
            restarts=cfg["restarts"], max_steps=cfg["max_steps"], rtol=cfg["rtol"], atol=cfg["atol"],
        )
    print(f"MAP log density {estimate.logdensity:.6f}, converged={estimate.converged}", file=log)
    if not estimate.converged:
        print(f"WARNING: best restart did not converge (|grad| = {estimate.grad_norm:.3g})", file=log)
    save_npz(smk.output.npz, position=np.asarray(estimate.position))
    save_json(smk.output.json, sidecar("map", {"map": cfg, "model": smk.params.model, "seed": smk.params.seed},
                                       device, clock.timings, posterior=posterior.name, **estimate.summary()))
