"""Snakemake script: banana table (Yu et al. 2024, Table 1)."""

import pandas as pd

from geobayes.io import save_csv, save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.banana_table import aggregate_banana, banana_table_latex

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    agg = aggregate_banana(pd.read_csv(smk.input.summary))
    save_csv(agg, smk.output.csv)
    save_text(smk.output.tex, banana_table_latex(agg, list(smk.params.methods), **smk.params.scale))
    print(f"{len(agg)} cells, {int(agg['n_failed'].sum())} failed samples", file=log)
