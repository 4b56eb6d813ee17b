"""W1 between a posterior's two NUTS references (NumPyro and Stan) beside each one's Monte Carlo floor, each
reference thinned to every k-th draw (``evaluation.max_reference_draws``; ``half_sizes`` in the record)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_json, save_json
from geobayes.metrics.reference_agreement import reference_agreement
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.samplers.reference import load_reference
from geobayes.samplers.thinning import thinned_reference

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    references = [load_reference(smk.input[f"{which}_npz"], smk.input[f"{which}_json"]) for which in ("primary", "second")]
    records = [load_json(smk.input[f"{which}_json"]) for which in ("primary", "second")]
    backends = [reference.method_args.get("backend", "numpyro") for reference in references]
    if len(set(backends)) != 2:
        raise ValueError(f"{smk.wildcards.posterior}: both references come from backend {backends[0]}; the cross-check "
                         "needs one NumPyro and one Stan reference")
    # every k-th draw of each (evaluation.max_reference_draws), as the evaluations and floors read them
    compared = [thinned_reference(r.draws, smk.params.max_reference_draws, r.chain_index) for r in references]
    clock = Stopwatch()
    with clock.time("wasserstein"):
        agreement = reference_agreement(*compared[0], *compared[1],
                                        num_iter_max=smk.params.wasserstein["num_iter_max"],
                                        max_floor_ratio=smk.params.max_floor_ratio)
    print(f"{backends}: {agreement}", file=log)
    # one tidy record per backend (its floor, cost and diagnostics) and one for the pair (geobayes.report.tidy)
    # (a Stan reference's seconds include building its program where no earlier job had: method_args.build_seconds)
    per_method = [{"method": backend, "wasserstein1": floor, "n_samples": reference.draws.shape[0],
                   "reference_seconds": record["timings_s"].get("nuts"),
                   "build_seconds": reference.method_args.get("build_seconds"),
                   "max_r_hat": max(reference.diagnostics["r_hat"]), "min_ess_bulk": min(reference.diagnostics["ess_bulk"]),
                   "divergences": reference.diagnostics["divergences"], "passed": reference.passed}
                  for backend, reference, record, floor in zip(backends, references, records,
                                                               (agreement.floor_a, agreement.floor_b))]
    per_method.append({"method": "numpyro_vs_stan", "wasserstein1": agreement.between, "floor_ratio": agreement.ratio,
                       "disagrees": agreement.disagrees})
    save_json(smk.output[0], sidecar(
        "reference_crosscheck", {"max_floor_ratio": smk.params.max_floor_ratio, "evaluation": smk.params.wasserstein},
        "cpu", clock.timings, posterior=smk.wildcards.posterior, backends=backends,
        half_sizes=list(agreement.half_sizes), interfaces=[r.method_args.get("interface") for r in references],
        per_method=per_method))
