"""Simulated data of the Gaussian linear model (Hartmann et al. 2026, App. C.1)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.linear_gaussian import simulate_linear_gaussian
from geobayes.data.prepared import save_prepared
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_seed

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    cfg = smk.params.lingauss
    seed = derive_seed(smk.params.seed, "lingauss")
    data = simulate_linear_gaussian(int(cfg["observations"]), int(cfg["dim"]),
                                    noise_variance=float(cfg["noise_variance"]),
                                    prior_variance=float(cfg["prior_variance"]), seed=seed)
    save_prepared(smk.output[0], "lingauss", data, {"seed": seed})
    print(f"n={data['y'].size}, theta_true {data['theta_true'].tolist()} (numpy seed {seed})", file=log)
