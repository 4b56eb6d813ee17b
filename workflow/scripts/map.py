"""MAP of one posterior at one anchor: BFGS from random restarts, best objective wins.

The Euclidean anchor maximises the log posterior, the Hausdorff anchor
log posterior - 1/2 log det Fisher (Yu et al. 2024, Sec. 4.3.1).
"""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import dataclasses

import numpy as np

from geobayes.data.prepared import load_prepared
from geobayes.io import save_json, save_npz
from geobayes.optimize import anchor_as_given, anchor_objective, find_map
from geobayes.pipeline.compile_effort import use_compile_effort
from geobayes.pipeline.device import use_device
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.posterior import split_posterior_name
from geobayes.random import derive_key
from geobayes.whitened_target import whitened

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    effort = use_compile_effort(smk.params.compile)  # config fast_compile; before JAX starts
    device = use_device(smk.params.device)
    anchor = smk.wildcards.anchor
    posterior = build_posterior(smk.wildcards.posterior, smk.input.data or None, smk.params.model)
    cfg, clock = smk.params.map, Stopwatch()
    # A trained network: BFGS polishes the trained weights into a mode of this posterior (whose
    # prior precision and noise the marginal likelihood set after training), unless its training
    # block says `polish: false` (Bergamin et al.'s classifiers: the anchor is the trained weights).
    trained = load_prepared(smk.input.data).get("theta_trained") if smk.input.data else None
    model_name = split_posterior_name(posterior.name)[1]
    polish = ((smk.params.model.get("training") or {}).get(model_name) or {}).get("polish", True)
    # Near-singular kernel priors: search in the whitened coordinates theta = L z.
    white = whitened(posterior) if anchor == "euclidean" and (trained is None or polish) else None
    with clock.time("map"):
        estimate = anchor_as_given(anchor_objective(anchor), posterior, trained) if trained is not None and not polish \
            else find_map(
            anchor_objective(anchor), posterior if white is None else white, posterior.dim,
            derive_key(smk.params.seed, "map", posterior.name, anchor),
            restarts=cfg["restarts"], max_steps=cfg["max_steps"], rtol=cfg["rtol"], atol=cfg["atol"],
            starts=None if trained is None else trained[None],
        )
    if white is not None:
        print("searched in whitened coordinates theta = L z (L: Cholesky factor of the prior)", file=log)
        estimate = dataclasses.replace(
            estimate, position=white.to_theta(estimate.position),
            restarts={**estimate.restarts, "start": white.to_theta(estimate.restarts["start"]),
                      "end": white.to_theta(estimate.restarts["end"])})
    print(f"{anchor} MAP {estimate.position} objective {estimate.logdensity:.6f}, "
          f"converged={estimate.converged}", file=log)
    if trained is not None and polish:
        moved = float(np.linalg.norm(estimate.position - trained))
        print(f"polished the trained weights: moved {moved:.4g} (Euclidean norm)", file=log)
    if not estimate.converged:
        print(f"WARNING: best restart did not converge (|grad| = {estimate.grad_norm:.3g})", file=log)
    save_npz(smk.output.npz, position=np.asarray(estimate.position),
             restart_ends=np.asarray(estimate.restarts["end"]),
             restart_objective=np.asarray(estimate.restarts["objective"]))
    save_json(smk.output.json, sidecar("map", {"map": cfg, "model": smk.params.model, "seed": smk.params.seed},
                                       device, clock.timings, posterior=posterior.name, anchor=anchor,
                                       compile_effort=effort, polished_trained=trained is not None and polish, **estimate.summary()))
