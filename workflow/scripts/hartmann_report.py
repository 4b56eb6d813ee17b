"""Snakemake script: the reproduction report of Hartmann et al. (2026) -- Table 1 ours vs paper with
the WG < LA counts, Figs. 2 and 4 W2 ours vs paper, the shapes and synthetic W2, the timing ratios,
sampler failures, and the deliberate deviations."""

from pathlib import Path

import pandas as pd

from geobayes.io import save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.hartmann_report import hartmann_report_markdown, load_figures_paper

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    summaries = pd.concat([pd.read_csv(path) for path in smk.input.summaries], ignore_index=True)
    text = hartmann_report_markdown(
        glm_table=pd.read_csv(smk.input.glm_table),
        usps_summary=pd.read_csv(smk.input.usps_summary),
        growth_summary=pd.read_csv(smk.input.growth_summary),
        paper_figures=load_figures_paper(smk.input.paper),
        timing=pd.read_csv(smk.input.timing),
        summaries=summaries,
        deviations=Path(smk.input.deviations).read_text(encoding="utf-8"),
        scale=dict(smk.params.scale),
    )
    save_text(smk.output[0], text)
    print(f"{len(summaries)} runs summarised; {int(summaries['n_failed'].sum())} failed samples", file=log)
