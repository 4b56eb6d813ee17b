"""Snakemake script: one run of one particle method on one panel of Liu & Zhu's (2018) Fig. 1 (Sec. 5.1): the
test accuracy / log likelihood curve and a tidy record (its data set in `anchor`, a stand-in flagged)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.prepared import load_prepared
from geobayes.io import save_json, save_npz
from geobayes.pipeline.device import use_device
from geobayes.pipeline.liu2018_blr_run import BlrMethod, run_blr
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_key

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    w, settings = smk.wildcards, smk.params.experiment
    panel = settings["panels"][w.panel]
    where = f"experiments.liu2018_blr.panels.{w.panel}.methods.{w.method}"
    method = BlrMethod.from_mapping(panel["methods"][w.method], where)
    data, stand_in = smk.params.data
    split = load_prepared(smk.input.data, "liu2018_blr")
    record, curves = run_blr(derive_key(smk.params.seed, "liu2018_blr", w.panel, w.method, int(w.run)), split,
                             method, particles=settings["particles"], prior_variance=settings["prior_variance"],
                             iterations=panel["iterations"], record_every=settings["record_every"])
    record = {"stage": "liu2018_blr_run", "posterior": w.panel, "anchor": data, "method": w.method,
              "repetition": int(w.run), "stand_in": stand_in, "device": device, **record}
    save_npz(smk.output.npz, **curves)
    save_json(smk.output.json, record)
    print({key: record[key] for key in ("anchor", "accuracy_final", "accuracy_mean", "log_likelihood_final",
                                        "seconds_per_iteration", "compile_s", "n_failed")}, file=log)
