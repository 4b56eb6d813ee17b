"""One classification split of Bergamin et al. (2023), Sec. 5.2 (geobayes.data.classification_sources):
the raw files checked against the registry, split as the paper's code does, saved in the one
prepared format (data set "classification_split")."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.classification_sources import prepare_classification
from geobayes.data.errors import exit_on_data_error
from geobayes.data.prepared import save_prepared
from geobayes.data.verify import verified
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    options = smk.params.options
    for path in smk.input.raw:
        verified(path)
    split = prepare_classification(smk.wildcards.stem, "data/raw", per_class=options["per_class"])
    save_prepared(smk.output[0], "classification_split", split.arrays(),
                  {"source": options["dataset"], "seed": options["seed"], "per_class": options["per_class"]})
    print(f"{smk.wildcards.stem}: train / valid / test {split.sizes()}, {int(split.n_classes)} classes", file=log)
