"""One Snelson split of a network experiment (Yu et al. 2024; Bergamin et al. 2023; Hartmann et al. 2026)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.errors import exit_on_data_error
from geobayes.data.verify import verified
from geobayes.data.snelson import prepare_snelson
from geobayes.data.prepared import save_prepared
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    split = smk.wildcards.split
    # data/raw/<registry file> -> the registry file name the loader expects, each checked first.
    files = {(name := path.split("data/raw/", 1)[1]): verified(path, name) for path in smk.input.raw}
    arrays = prepare_snelson(split, files)
    save_prepared(smk.output[0], "snelson", arrays, {"split": split})
    print(f"{split}: {arrays['X'].shape[0]} training and {arrays['X_test'].shape[0]} test points; "
          f"y_mean {float(arrays['y_mean']):.4g}, y_std {float(arrays['y_std']):.4g}", file=log)
