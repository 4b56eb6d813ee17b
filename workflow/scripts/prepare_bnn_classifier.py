"""Hartmann et al. (2026), App. D classifier data: n random rows of Bergamin et al.'s banana set,
with the row indices and the seed stored."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.errors import exit_on_data_error
from geobayes.data.verify import verified
from geobayes.data.banana_classification import load_banana_csv, prepare_banana_subset
from geobayes.data.prepared import save_prepared
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_seed

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    cfg = smk.params.options
    features, labels = load_banana_csv(verified(smk.input.raw))
    seed = derive_seed(smk.params.seed, "bnn_classifier_subset", cfg["dataset"])
    subset = prepare_banana_subset(features, labels, int(cfg["n"]), seed)
    save_prepared(smk.output[0], "banana_classification", subset.arrays(), {"seed": seed})
    print(f"{cfg['dataset']}: {subset.y.size} of {subset.n_total} rows (numpy seed {seed}), "
          f"{int(subset.y.sum())} of class 1; indices {subset.indices.tolist()}", file=log)
