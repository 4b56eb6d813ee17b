"""Fig. 1 data of Hartmann et al. (2026): a 2-D Bernoulli or Poisson regression with n points and
a Wishart-drawn prior covariance (stored with the data; the model reads it from there)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.prepared import save_prepared
from geobayes.data.synthetic_regression import simulate_regression
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_seed

smk = snakemake  # noqa: F821

FAMILY = {"synthbern": "bernoulli", "synthpois": "poisson"}

with logged_to(smk.log[0]) as log:
    cfg, n, model = smk.params.synthetic, int(smk.wildcards.n), smk.wildcards.model
    seed = derive_seed(smk.params.seed, "synthetic", model, n)
    data = simulate_regression(FAMILY[model], n, seed, wishart_df=int(cfg["wishart_df"]),
                               wishart_scale=[[float(cfg["wishart_scale"][0]), 0.0], [0.0, float(cfg["wishart_scale"][1])]],
                               input_std=float(cfg["input_std"]))
    save_prepared(smk.output[0], "synthetic", data.arrays(), {"seed": seed})
    print(f"{model} n={n} (numpy seed {seed}): prior covariance {data.prior_covariance.tolist()}, "
          f"theta_true {data.theta_true.tolist()}, y {data.y.tolist()}", file=log)
