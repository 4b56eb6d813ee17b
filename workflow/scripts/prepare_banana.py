"""Banana observations generated as in Yu et al. (2024) (their code: numpy seed 1)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.banana import generate_banana_data
from geobayes.data.prepared import save_prepared
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    cfg = smk.params.banana
    prepared = generate_banana_data(seed=cfg["data_seed"], n=cfg["observations"], theta1=cfg["theta1"],
                                    theta2_squared=cfg["theta2_squared"], noise_std=cfg["noise_std"])
    save_prepared(smk.output[0], "banana", prepared.arrays(), {"seed": cfg["data_seed"]})
    print(f"{prepared.y.size} observations, mean {prepared.y.mean():.6f}, seed {cfg['data_seed']}", file=log)
