"""Monte Carlo floor of one posterior's distances at one sample count, every repetition.

The distances configured for the posterior's experiment, between two disjoint random parts of
its (checked or exact) reference, thinned as the evaluations' (``evaluation.max_reference_draws``):
n draws against the other R - n, or R/2 against R/2 when
n > R/2 (geobayes.metrics.monte_carlo_floor). Field names match evaluate.py's metrics.json, so
a floor reads like an evaluation of an exact sampler; a distance not configured is null.
"""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_json, load_npz, save_json
from geobayes.methods.labels import FLOOR_METHOD
from geobayes.metrics.monte_carlo_floor import monte_carlo_floor
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key
from geobayes.samplers.reference import require_passing
from geobayes.samplers.thinning import thinned_reference

smk = snakemake  # noqa: F821

#: Config distance name -> the metrics.json field evaluate.py stores it under.
FIELDS = {"full": "wasserstein1", "first_coordinate": "wasserstein1_first", "w2": "wasserstein2"}

with logged_to(smk.log[0]) as log:
    require_passing(load_json(smk.input.reference_json), smk.input.reference_json)
    reference = thinned_reference(load_npz(smk.input.reference_npz)["draws"], smk.params.max_reference_draws)[0]
    posterior, n = smk.wildcards.posterior, int(smk.wildcards.samples)
    distances = list(smk.params.distances)
    for repetition, output in zip(smk.params.repetitions, smk.output.floors, strict=True):
        clock = Stopwatch()
        with clock.time("floor"):
            floor = monte_carlo_floor(reference, n, derive_key(smk.params.seed, "floor", posterior, repetition),
                                      distances, num_iter_max=smk.params.wasserstein["num_iter_max"])
        print(f"rep {repetition}: floor {floor.values} between {floor.size_a} and {floor.size_b} of "
              f"{reference.shape[0]} reference draws (evaluation sample count {n})", file=log)
        save_json(output, sidecar(
            "floor", {"evaluation": smk.params.wasserstein, "distances": distances, "seed": smk.params.seed},
            "cpu", clock.timings,
            posterior=posterior, method=FLOOR_METHOD, repetition=repetition, n_samples=n, n_failed=0,
            size_a=floor.size_a, size_b=floor.size_b,
            n_reference=int(reference.shape[0]),
            **{field: floor.values.get(name) for name, field in FIELDS.items()}))
