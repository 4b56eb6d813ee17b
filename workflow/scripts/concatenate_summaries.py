"""All experiments' tidy results in one table, results/summary/all.csv (any table, figure or
notebook can start from it)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import save_csv
from geobayes.pipeline.step import logged_to
from geobayes.report.tidy import load_tidy

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    table = load_tidy(smk.input.summaries)
    save_csv(table, smk.output[0])
    print(f"{len(table)} rows of {table['experiment'].nunique()} experiments", file=log)
