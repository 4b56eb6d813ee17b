"""W1 between one approximation's successful samples and the (checked) NUTS reference."""

from geobayes.io import load_json, load_npz, save_json
from geobayes.metrics import wasserstein1
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.samplers.reference import require_passing

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    require_passing(load_json(smk.input.reference_json), smk.input.reference_json)
    reference = load_npz(smk.input.reference_npz)["draws"]
    draws, info = load_npz(smk.input.samples_npz), load_json(smk.input.samples_json)
    ok = draws["successful"].astype(bool)
    if not ok.any():
        raise RuntimeError(f"{smk.input.samples_npz}: all {ok.size} samples failed; W1 is undefined")
    clock = Stopwatch()
    with clock.time("wasserstein1"):
        w1 = wasserstein1(draws["theta"][ok], reference, num_iter_max=smk.params.wasserstein["num_iter_max"])
    print(f"W1 = {w1:.6f} over {ok.sum()} of {ok.size} samples", file=log)
    save_json(smk.output[0], sidecar(
        "evaluation", {"evaluation": smk.params.wasserstein}, "cpu", clock.timings,
        posterior=info["posterior"], method=info["method"], repetition=info["repetition"],
        wasserstein1=w1, n_used=int(ok.sum()), n_reference=int(reference.shape[0]),
        **{k: info[k] for k in ("T", "mean_steps", "n_samples", "n_failed", "failed_fraction", "result_codes")}))
