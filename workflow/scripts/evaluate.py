"""Distances between one approximation's successful samples and its (checked or exact) reference.

``full``: exact W1 in R^D (POT emd2), the W of Yu et al. (2024); ``first_coordinate``: the
1-D W1 of the first coordinate (their Fig. 3); ``w2``: exact W2, the metric of Hartmann et al.
(2026), each to every k-th reference draw (``evaluation.max_reference_draws``, ``n_reference`` in the
record). A distance not configured is stored as null. One job evaluates every repetition of
one method (inputs and outputs in the order of ``params.repetitions``).
"""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_json, load_npz, save_json
from geobayes.metrics import wasserstein1, wasserstein1_1d, wasserstein2
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.samplers.reference import require_passing
from geobayes.samplers.thinning import thinned_reference

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    require_passing(load_json(smk.input.reference_json), smk.input.reference_json)
    reference = thinned_reference(load_npz(smk.input.reference_npz)["draws"], smk.params.max_reference_draws)[0]
    runs = zip(smk.input.samples_npz, smk.input.samples_json, smk.output.metrics, strict=True)
    for samples_npz, samples_json, metrics in runs:
        draws, info = load_npz(samples_npz), load_json(samples_json)
        ok = draws["successful"].astype(bool)
        used = draws["theta"][ok]
        distances, clock = smk.params.distances, Stopwatch()
        w1 = w1_first = w2 = None
        if not ok.any():
            # Every sample failed: W1 is undefined. It is recorded as NaN next to the failure
            # count (tables show n/a with the count), never dropped or replaced.
            print(f"WARNING: all {ok.size} samples failed; W1 recorded as NaN", file=log)
            w1 = float("nan") if "full" in distances else None
            w1_first = float("nan") if "first_coordinate" in distances else None
            w2 = float("nan") if "w2" in distances else None
        elif "full" in distances:
            with clock.time("wasserstein1"):
                w1 = wasserstein1(used, reference, num_iter_max=smk.params.wasserstein["num_iter_max"])
        if ok.any() and "w2" in distances:
            with clock.time("wasserstein2"):
                w2 = wasserstein2(used, reference, num_iter_max=smk.params.wasserstein["num_iter_max"])
        if ok.any() and "first_coordinate" in distances:
            with clock.time("wasserstein1_first"):
                w1_first = wasserstein1_1d(used[:, 0], reference[:, 0])
        print(f"W1 = {w1}, first-coordinate W1 = {w1_first}, W2 = {w2} over {ok.sum()} of {ok.size} samples", file=log)
        save_json(metrics, sidecar(
            "evaluation", {"evaluation": smk.params.wasserstein, "distances": list(distances)}, "cpu", clock.timings,
            posterior=info["posterior"], anchor=info["anchor"], method=info["method"],
            repetition=info["repetition"], wasserstein1=w1, wasserstein1_first=w1_first, wasserstein2=w2,
            n_used=int(ok.sum()), n_reference=int(reference.shape[0]),
            **{k: info[k] for k in ("T", "mean_steps", "n_samples", "n_failed", "failed_fraction", "result_codes")},
            **{k: info.get(k) for k in ("median_residual", "max_residual", "n_fallback", "n_fallback_failed",
                                        "median_speed_drift", "max_speed_drift",
                                        "seconds_per_sample", "compile_s")}))
