"""Snakemake script: one run of one method of Liu & Zhu's (2018) SAM experiment (Sec. 5.2, Fig. 2) at one
particle count and seed: the test log-perplexity after every epoch and a tidy record (particle count in
`anchor`)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.prepared import load_prepared
from geobayes.io import save_json, save_npz
from geobayes.pipeline.device import use_device
from geobayes.pipeline.liu2018_sam_run import SamMethod, run_sam
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_key
from geobayes.sam import SamSettings

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    w, settings = smk.wildcards, smk.params.experiment
    method = SamMethod.from_mapping(settings["samplers"][w.method], f"experiments.liu2018_sam.samplers.{w.method}")
    model = SamSettings(n_topics=settings["topics"], **settings["model"])
    documents = load_prepared(smk.input.data, "liu2018_sam")
    record, curves = run_sam(derive_key(smk.params.seed, "liu2018_sam", w.method, int(w.particles), int(w.seed)),
                             documents, method, model, particles=int(w.particles), epochs=settings["epochs"],
                             perplexity_draws=settings["perplexity_draws"])
    record = {"stage": "liu2018_sam_run", "posterior": "news20_diff", "anchor": f"n{int(w.particles)}",
              "method": w.method, "repetition": int(w.seed), "particles": int(w.particles), "device": device, **record}
    save_npz(smk.output.npz, **curves)
    save_json(smk.output.json, record)
    print({key: record[key] for key in ("log_perplexity_final", "log_perplexity_best", "seconds_per_epoch",
                                        "acceptance_rate", "n_failed")}, file=log)
