"""W2 between the push-forward predictive f_theta(x)#rho of one approximation run and the NUTS
reference's on the figure grid (Hartmann et al. 2026, Fig. 5: "W2(f#rho_WG, f#rho_NUTS)"), averaged
over the grid and as root mean square; a tidy record (stage pushforward_evaluation)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_json, load_npz, save_json
from geobayes.metrics.pushforward_w2 import mean_pushforward_wasserstein2, rms_pushforward_wasserstein2
from geobayes.pipeline.step import logged_to, sidecar

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    run, reference = load_npz(smk.input.run), load_npz(smk.input.reference, required=("f_grid",), what="NUTS prediction")
    record = load_json(smk.input.record)
    fields = {"samples_used": 0, "w2_mean_over_grid": None, "w2_rms_over_grid": None}
    if "f_grid" in run:  # no successful sample: no distance, the failures still counted
        fields.update(samples_used=int(run["f_grid"].shape[0]),
                      w2_mean_over_grid=mean_pushforward_wasserstein2(run["f_grid"], reference["f_grid"]),
                      w2_rms_over_grid=rms_pushforward_wasserstein2(run["f_grid"], reference["f_grid"]))
    result = {"posterior": smk.wildcards.posterior, "anchor": smk.wildcards.anchor, "method": smk.wildcards.method,
              "repetition": int(smk.wildcards.seed), "n_samples": record["n_samples"], "n_failed": record["n_failed"],
              "nuts_draws": int(reference["f_grid"].shape[0]), **fields}
    print(result, file=log)
    save_json(smk.output[0], sidecar("pushforward_evaluation", {}, "cpu", {}, **result))
