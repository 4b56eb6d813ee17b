"""Snakemake script: Table 1 of Hartmann et al. (2026) -- W2 to NUTS of WG and LA per data set and
model, ours (mean ± std over repetitions, failed samples counted) beside the paper's (cited file)."""

import pandas as pd

from geobayes.io import save_csv, save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.wg_glm_table import (
    aggregate_wg_glm,
    count_wg_wins,
    load_table1_paper,
    scale_from_params,
    wg_glm_table_latex,
)

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    table = aggregate_wg_glm(pd.read_csv(smk.input.summary), load_table1_paper(smk.input.paper))
    save_csv(table, smk.output.csv)
    save_text(smk.output.tex, wg_glm_table_latex(table, **scale_from_params(smk.params.scale)))
    wins = count_wg_wins(table)
    print(f"{int((table['status'] == 'ok').sum())} of {len(table)} rows with our W2; "
          f"{int(table['n_failed'].sum())} failed samples; WG < LA in {wins['ours']['wins']} of "
          f"{wins['ours']['cells']} cells (paper: {wins['paper']['wins']} of {wins['paper']['cells']})", file=log)
