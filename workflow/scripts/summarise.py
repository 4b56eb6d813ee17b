"""Every result of one experiment as tidy long rows (geobayes.report.tidy): the evaluations
(distances, T, failures), the timings and the Monte Carlo floors of its posteriors."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_json, save_csv
from geobayes.pipeline.step import logged_to
from geobayes.report.tidy import tidy_frame

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    experiment = smk.wildcards.experiment
    table = tidy_frame((load_json(path), experiment) for path in smk.input.results)
    save_csv(table, smk.output[0])
    print(f"{len(table)} rows from {len(smk.input.results)} records, {table['metric'].nunique()} metrics", file=log)
