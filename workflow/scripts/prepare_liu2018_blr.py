"""Snakemake script: one train/test split of Liu & Zhu's (2018) Fig. 1 data (Splice realisation 19, a seeded
80/20 split of Covertype, or of an offline stand-in of the mirror's logreg/), the raw file checked against the
registry first."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.errors import exit_on_data_error
from geobayes.data.liu2018_blr import LIU2018_BLR, prepare_split
from geobayes.data.prepared import save_prepared
from geobayes.data.verify import verified
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    data, split = smk.wildcards.data, int(smk.wildcards.split)
    arrays = prepare_split(data, verified(smk.input.raw), split, float(smk.params.test_fraction))
    save_prepared(smk.output[0], LIU2018_BLR.name, arrays, {"source": data, "split": split})
    print({name: value.shape for name, value in arrays.items()}, file=log)
