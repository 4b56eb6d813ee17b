"""Snakemake script: logistic-regression figure (W and T of Yu et al. 2024, Table 2, vs ours).

Inputs: ``summary`` (results/summary/logreg.csv), ``paper`` (transcribed Table 2 values).
Params: ``methods`` (legend order). Outputs: ``pdf`` and ``png``.
"""

from geobayes.pipeline.step import logged_to
from geobayes.report.figures import logreg_figure, save_figure, set_style
from geobayes.report.logreg_table import aggregate_logreg, load_summary
from geobayes.report.paper_values import load_paper_values

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    summary = load_summary(smk.input.summary)
    summary = summary[(summary["anchor"] == smk.params.anchor) & summary["method"].isin(smk.params.methods)]
    agg = aggregate_logreg(summary)
    paper = load_paper_values(smk.input.paper)
    fig = logreg_figure(agg, list(smk.params.methods), paper=paper)
    save_figure(fig, smk.output.pdf, smk.output.png)
    print(f"wrote {smk.output.pdf} and {smk.output.png}", file=log)
