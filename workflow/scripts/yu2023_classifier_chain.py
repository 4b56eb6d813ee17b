"""Snakemake script: one SGRLD chain of Yu et al.'s (2023) MNIST (Sec. 4.3) or CIFAR-10 (Sec. 4.4) study at one
grid point and seed: its final-epoch test metrics, validation LP and curvature (a tidy record) and its per-epoch
curves."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.prepared import load_prepared
from geobayes.floating_point import floating_point
from geobayes.io import save_json, save_npz
from geobayes.pipeline.device import use_device
from geobayes.pipeline.sgmcmc_classifier import run_classifier_chain
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_key

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    w = smk.wildcards
    point, study = smk.params.point, smk.params.study
    split = load_prepared(smk.input.data, study["dataset"])
    with floating_point(smk.params.experiment["dtype"]):
        result = run_classifier_chain(
            derive_key(smk.params.seed, w.study, w.posterior, w.sampler, w.point, int(w.seed)), split,
            width=point["width"], prior=point["prior"], sampler=w.sampler,
            sampler_settings=smk.params.experiment["samplers"][w.sampler], learning_rate=point["learning_rate"],
            alpha2=point["alpha2"], settings=smk.params.experiment, network=study["network"],
            config_key=f"experiments.{w.study}")
    record = {"stage": f"{w.study}_chain", "posterior": w.posterior, "anchor": w.point, "method": w.sampler,
              "repetition": int(w.seed), "device": device, **result.record}
    save_npz(smk.output.npz, **result.curves)
    save_json(smk.output.json, record)
    print({key: record[key] for key in ("lp", "accuracy", "ece", "valid_lp", "curvature", "seconds_per_epoch",
                                        "n_samples", "diverged_epoch")}, file=log)
