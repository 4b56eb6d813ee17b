"""Fig. 2 data of Hartmann et al. (2026): a random subset of the USPS digits of the configured
classes (the last is the reference class) from the original 7291-image training split."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.errors import exit_on_data_error
from geobayes.data.verify import verified
from geobayes.data.prepared import save_prepared
from geobayes.data.usps import load_usps, prepare_usps_subset
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_seed

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    cfg = smk.params.usps
    images, labels = load_usps(verified(smk.input.raw))
    seed = derive_seed(smk.params.seed, "usps_subset")
    subset = prepare_usps_subset(images, labels, digits=tuple(int(d) for d in cfg["digits"]),
                                 n_points=int(cfg["points"]), seed=seed)
    save_prepared(smk.output[0], "usps", subset.arrays(), {"seed": seed})
    print(f"pool {subset.n_pool} images of digits {cfg['digits']} ({subset.class_counts}); "
          f"{subset.X.shape[0]} drawn (numpy seed {seed}); indices {subset.indices.tolist()}", file=log)
