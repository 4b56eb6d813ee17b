"""Snakemake script: Yu et al.'s (2023) MNIST split (50,000 / 10,000 of the official training set,
the code's seed-1 validation indices; the official test set), pixels / 255, flattened; the raw files
checked against the registry first."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from pathlib import Path

from geobayes.data.errors import exit_on_data_error
from geobayes.data.mnist_yu2023 import MNIST_YU2023, read_mnist_yu2023
from geobayes.data.prepared import save_prepared
from geobayes.data.verify import verified
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    for path in smk.input.raw:
        verified(path)
    sizes = smk.params.data
    arrays = read_mnist_yu2023(Path(smk.input.raw[0]).parent, verify=False, n_train=sizes["train"],
                               n_valid=sizes["validation"], n_test=sizes["test"])
    save_prepared(smk.output[0], MNIST_YU2023.name, arrays, {"source": "mnist", "sizes": sizes})
    print({name: getattr(value, "shape", value) for name, value in arrays.items()}, file=log)
