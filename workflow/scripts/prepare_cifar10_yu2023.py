"""Snakemake script: Yu et al.'s (2023) CIFAR-10 split (40,000 / 10,000 of the official training set, the
code's seed-1 validation indices; the official test set), standardised per channel with the training
split's statistics, NCHW; the archive checked against the registry first."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.cifar10_yu2023 import CIFAR10_YU2023, read_cifar10_yu2023
from geobayes.data.errors import exit_on_data_error
from geobayes.data.prepared import save_prepared
from geobayes.data.verify import verified
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    sizes = smk.params.data
    arrays = read_cifar10_yu2023(verified(smk.input.raw), verify=False, n_train=sizes["train"],
                                 n_valid=sizes["validation"], n_test=sizes["test"])
    save_prepared(smk.output[0], CIFAR10_YU2023.name, arrays, {"source": "cifar10", "sizes": sizes})
    print({name: getattr(value, "shape", value) for name, value in arrays.items()}, file=log)
