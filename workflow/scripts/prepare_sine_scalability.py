"""Synthetic sine data of the BNN scalability study (Yu et al. 2024, Supp. 16.5.3)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.sine_regression import simulate_sine_regression
from geobayes.data.prepared import save_prepared
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_seed

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    size, repetition, options = int(smk.wildcards.size), int(smk.wildcards.repetition), smk.params.data
    # One data set per (size, repetition), shared by every width.
    seed = derive_seed(smk.params.seed, "bnn_scalability", size, repetition)
    data = simulate_sine_regression(size, int(options["test_points"]), seed=seed,
                                    input_range=tuple(options["input_range"]), noise_std=float(options["noise_std"]))
    save_prepared(smk.output[0], "sine", data.arrays(), {"seed": seed})
    print(f"n_train={size}, n_test={data.y_test.size}, repetition {repetition} (numpy seed {seed}); "
          f"x mean {data.x_mean:.4f} std {data.x_std:.4f}, y mean {data.y_mean:.4f} std {data.y_std:.4f}", file=log)
