"""Snakemake script: logistic-regression table (Yu et al. 2024, Table 2) and ours-vs-paper table.

Also writes Table 6 (empirical Fisher) when called with ``methods = [rla_ef]`` and its paper file.

Inputs: ``summary`` (results/summary/logreg.csv), ``paper`` (transcribed paper values).
Params: ``methods`` (column order), ``anchor`` (the MAP anchor tabulated), ``scale`` (samples,
repetitions, reference_draws).
Outputs: ``tex`` and ``csv`` (our table), ``comparison_tex`` and ``comparison_csv``.
"""

import os

from geobayes.io import save_csv, save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.logreg_table import (
    aggregate_logreg,
    comparison_latex,
    load_summary,
    logreg_comparison,
    logreg_table_latex,
)
from geobayes.report.paper_values import load_paper_values

with logged_to(snakemake.log[0]) as log:  # noqa: F821
    methods = list(snakemake.params.methods)  # noqa: F821
    scale = {key: int(snakemake.params.scale[key]) for key in ("samples", "repetitions", "reference_draws")}  # noqa: F821

    summary = load_summary(snakemake.input.summary)  # noqa: F821
    summary = summary[(summary["anchor"] == snakemake.params.anchor) & summary["method"].isin(methods)]  # noqa: F821
    agg = aggregate_logreg(summary)
    paper = load_paper_values(snakemake.input.paper)  # noqa: F821
    comparison = logreg_comparison(agg[agg["method"].isin(methods)], paper)

    save_csv(agg, snakemake.output.csv)  # noqa: F821
    save_text(snakemake.output.tex, logreg_table_latex(agg, methods, **scale))  # noqa: F821
    save_csv(comparison, snakemake.output.comparison_csv)  # noqa: F821
    # the caption names the paper-values file relative to the working directory (the repository root)
    comparison_tex = comparison_latex(comparison, source=os.path.relpath(snakemake.input.paper))  # noqa: F821
    save_text(snakemake.output.comparison_tex, comparison_tex)  # noqa: F821
    flagged = comparison[comparison["outside_paper_spread"].fillna(False)]
    print(
        f"{len(agg)} cells, {int(agg['n_failed'].sum())} failed samples, "
        f"{len(flagged)} W cells outside the paper's spread",
        file=log,
    )
