"""Local MAP estimates of one posterior from random initialisations (Hartmann et al. 2026, App. D).

Optimum k is BFGS from its own start N(0, init_std^2 I); each is written in the format of the
generic MAP files (results/map/<posterior>/optimum<k>.npz, with a JSON sidecar), so the
approximations read it as they read the Euclidean MAP.
"""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.io import save_json, save_npz
from geobayes.optimize.anchors import euclidean_objective
from geobayes.optimize.map_optima import find_local_optima, optimum_starts
from geobayes.pipeline.device import use_device
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    posterior = build_posterior(smk.wildcards.posterior, smk.input.data, smk.params.model)
    cfg, options, clock = smk.params.map, smk.params.optima, Stopwatch()
    starts = optimum_starts(smk.params.seed, posterior.name, int(options["optima"]), posterior.dim,
                            float(options["init_std"]))
    with clock.time("map"):
        optima = find_local_optima(euclidean_objective, posterior, starts, max_steps=cfg["max_steps"],
                                   rtol=cfg["rtol"], atol=cfg["atol"])
    positions = np.stack([o.position for o in optima])
    distances = np.linalg.norm(positions[:, None] - positions[None], axis=-1)
    print(f"{len(optima)} optima from N(0, {options['init_std']}^2 I) starts; pairwise parameter distances:\n"
          f"{np.array2string(distances, precision=3)}", file=log)
    for k, (optimum, npz, json) in enumerate(zip(optima, smk.output.npz, smk.output.json, strict=True)):
        print(f"optimum{k}: log posterior {optimum.objective:.6f}, converged={optimum.converged}, "
              f"|grad| = {optimum.grad_norm:.3g}, {optimum.num_steps} steps", file=log)
        if not optimum.converged:
            print(f"WARNING: optimum{k} did not converge (result code {optimum.result_code})", file=log)
        save_npz(npz, position=optimum.position, start=optimum.start, restart_ends=optimum.position[None],
                 restart_objective=np.array([optimum.objective]))
        save_json(json, sidecar("map", {"map": cfg, "optima": options, "model": smk.params.model,
                                        "seed": smk.params.seed}, device, clock.timings,
                                posterior=posterior.name, anchor=f"optimum{k}", optimum=k,
                                distances_to_optima=distances[k].tolist(), **optimum.summary()))
