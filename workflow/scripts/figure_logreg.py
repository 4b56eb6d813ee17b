"""Snakemake script: logistic-regression figure (W and T of Yu et al. 2024, Table 2, vs ours).

Inputs: ``summary`` (results/summary/logreg.csv), ``paper`` (transcribed Table 2 values).
Params: ``methods`` (legend order). Outputs: ``pdf`` and ``png``.
"""

import sys

sys.stderr = open(snakemake.log[0], "w", encoding="utf-8")  # noqa: F821, SIM115

from geobayes.report.figures import logreg_figure, save_figure, set_style  # noqa: E402
from geobayes.report.logreg_table import aggregate_logreg, load_summary  # noqa: E402
from geobayes.report.paper_values import load_paper_values  # noqa: E402

set_style()
agg = aggregate_logreg(load_summary(snakemake.input.summary))  # noqa: F821
paper = load_paper_values(snakemake.input.paper)  # noqa: F821
fig = logreg_figure(agg, list(snakemake.params.methods), paper=paper)  # noqa: F821
save_figure(fig, snakemake.output.pdf, snakemake.output.png)  # noqa: F821
print(f"wrote {snakemake.output.pdf} and {snakemake.output.png}", file=sys.stderr)  # noqa: F821
