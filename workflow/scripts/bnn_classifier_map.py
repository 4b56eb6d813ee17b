"""One optimum (a)-(e) of Hartmann et al.'s (2026) App. D classifier: BFGS from initialisation k,
then the training fit and the eigenvalues of the Fisher information I(theta_hat) (Fig. 9)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.data.prepared import load_prepared
from geobayes.io import save_json, save_npz
from geobayes.metrics.classifier_variance import input_grid
from geobayes.metrics.fisher_spectrum import count_above, drop_index, fisher_spectrum, likelihood_fisher
from geobayes.networks.classifier_posterior import build_classifier_posterior, initial_weights
from geobayes.optimize import anchor_objective, find_map
from geobayes.pipeline.device import use_device
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    cfg, optimum = smk.params.options, int(smk.wildcards.optimum)
    data = load_prepared(smk.input.data, "banana_classification")
    posterior = build_classifier_posterior(cfg, data["X"], data["y"])
    start = initial_weights(posterior, cfg["init"], smk.params.seed, optimum)
    clock = Stopwatch()
    with clock.time("map"):
        estimate = find_map(anchor_objective("euclidean"), posterior, posterior.dim,
                            derive_key(smk.params.seed, "bnn_classifier_map", optimum),
                            max_steps=int(cfg["map"]["max_steps"]), rtol=float(cfg["map"]["rtol"]),
                            atol=float(cfg["map"]["atol"]), starts=start[None])
    mode = jnp.asarray(estimate.position)
    with clock.time("fisher"):
        eigenvalues = fisher_spectrum(likelihood_fisher(posterior, mode))
    grid = input_grid(data["X"], int(cfg["grid"]["points"]), float(cfg["grid"]["margin"]))
    map_probability = np.asarray(jax.nn.sigmoid(posterior.model.predict(mode, jnp.asarray(grid.points))))
    logits = np.asarray(posterior.embed(mode))
    accuracy = float(np.mean((logits > 0) == (data["y"] > 0.5)))
    log_likelihood = float(posterior.model.log_likelihood(mode, posterior.data))
    spectrum = {"drop_index": drop_index(eigenvalues, float(cfg["fisher"]["drop_floor"])),
                "above": count_above(eigenvalues, cfg["fisher"]["relative_thresholds"]),
                "largest": float(eigenvalues[0])}
    print(f"optimum {optimum}: log posterior {estimate.logdensity:.6f}, converged {estimate.converged} "
          f"(|grad| {estimate.grad_norm:.3g}), training accuracy {accuracy:.3f}, log-lik {log_likelihood:.4f}, "
          f"Fisher spectrum {spectrum}", file=log)
    if not estimate.converged:
        print(f"WARNING: BFGS did not converge (|grad| = {estimate.grad_norm:.3g})", file=log)
    save_npz(smk.output.npz, position=np.asarray(estimate.position), start=np.asarray(start),
             fisher_eigenvalues=eigenvalues, x1=grid.x1, x2=grid.x2, map_probability=map_probability)
    save_json(smk.output.json, sidecar(
        "bnn_classifier_map", {"bnn_classifier": cfg, "seed": smk.params.seed}, device, clock.timings,
        # keys and flat metric fields of the tidy rows (geobayes.report.tidy)
        posterior=f"{cfg['dataset']}-classifier", anchor=f"optimum{optimum}", method="map",
        fisher_drop_index=spectrum["drop_index"], fisher_largest=spectrum["largest"],
        optimum=optimum, dim=posterior.dim, logdensity=estimate.logdensity, log_likelihood=log_likelihood,
        training_accuracy=accuracy, converged=estimate.converged, grad_norm=estimate.grad_norm,
        num_steps=int(np.asarray(estimate.restarts["num_steps"])[0]), fisher_spectrum=spectrum))
