"""Snakemake script: Yu et al.'s (2023) equal-time comparison (App. A.6, Tables 6-7) for one posterior
(MNIST: width and prior; CIFAR-10: prior): the fastest sampler's whole run sets the budget; every
sampler's learning rate is re-selected on validation LP at that wall time and its test LP and accuracy
are read there."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import statistics

from geobayes.io import load_json, load_npz, save_json
from geobayes.pipeline.step import logged_to
from geobayes.sgmcmc.equal_time import equal_time_choice

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    chains = {}
    for record_file, curve_file in zip(smk.input.records, smk.input.curves):
        record = load_json(record_file)
        chains.setdefault(record["method"], []).append((record, load_npz(curve_file)))
    # time per epoch does not depend on the learning rate: the median over all of a sampler's chains
    seconds = {sampler: statistics.median(r["seconds_per_epoch"] for r, _ in runs) for sampler, runs in chains.items()}
    fastest = min(seconds, key=seconds.get)
    budget = smk.params.epochs * seconds[fastest]
    per_method = []
    for sampler, runs in chains.items():
        by_point = {}
        for record, curves in sorted(runs, key=lambda run: run[0]["repetition"]):
            by_point.setdefault(record["anchor"], []).append(curves)
        choice = equal_time_choice(by_point, seconds[sampler], budget)
        per_method.append({"method": sampler, "selected_point": choice.point, "seconds_per_epoch": seconds[sampler],
                           "epochs_in_budget": budget / seconds[sampler], "lp_equal_time": choice.lp,
                           "accuracy_equal_time": choice.accuracy})
        print(f"{sampler}: {budget / seconds[sampler]:.2f} epochs in the budget, point {choice.point}", file=log)
    save_json(smk.output[0], {"stage": f"{smk.wildcards.study}_equal_time", "posterior": smk.wildcards.posterior,
                              "anchor": "selected", "fastest": fastest, "budget_s": budget, "per_method": per_method})
