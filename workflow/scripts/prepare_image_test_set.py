"""An out-of-distribution test set of Bergamin et al. (2023), App. D.6: the official test images in
[0, 1] (data set "image_test_set"), the raw files checked against the registry."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.classification_sources import prepare_image_test
from geobayes.data.errors import exit_on_data_error
from geobayes.data.prepared import save_prepared
from geobayes.data.verify import verified
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    for path in smk.input.raw:
        verified(path)
    arrays = prepare_image_test(smk.wildcards.dataset, "data/raw")
    save_prepared(smk.output[0], "image_test_set", arrays, {"source": smk.wildcards.dataset})
    print(f"{smk.wildcards.dataset}: {arrays['X'].shape[0]} test images", file=log)
