"""Snakemake script: one SGRLD chain of Yu et al.'s (2023) MNIST study (Sec. 4.3) at one grid point and
seed: its final-epoch test metrics, validation LP and curvature (a tidy record) and its per-epoch curves."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.prepared import load_prepared
from geobayes.io import save_json, save_npz
from geobayes.pipeline.device import use_device
from geobayes.pipeline.sgmcmc_classifier import run_classifier_chain
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_key

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    w = smk.wildcards
    point = smk.params.point
    split = load_prepared(smk.input.data, "mnist_yu2023")
    result = run_classifier_chain(
        derive_key(smk.params.seed, "yu2023_mnist", w.posterior, w.sampler, w.point, int(w.seed)), split,
        width=int(point["width"]), prior=point["prior"], sampler=w.sampler,
        sampler_settings=smk.params.experiment["samplers"][w.sampler], learning_rate=point["learning_rate"],
        alpha2=point["alpha2"], settings=smk.params.experiment)
    record = {"stage": "yu2023_mnist_chain", "posterior": w.posterior, "anchor": w.point, "method": w.sampler,
              "repetition": int(w.seed), "device": device, **result.record}
    save_npz(smk.output.npz, **result.curves)
    save_json(smk.output.json, record)
    print({key: record[key] for key in ("lp", "accuracy", "ece", "valid_lp", "curvature", "seconds_per_epoch",
                                        "n_samples", "diverged_epoch")}, file=log)
