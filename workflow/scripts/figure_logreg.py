"""Logistic-regression figure: W and T of Yu et al. (2024), Table 2, ours beside the paper's,
drawn from the table's cells (tables/yu2024_table2.csv)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import pandas as pd

from geobayes.pipeline.step import logged_to
from geobayes.report.figures import logreg_figure, save_figure, set_style
from geobayes.report.table_spec import read_table_specs

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    spec = read_table_specs(smk.input.spec)["yu2024_table2"]
    cells = pd.read_csv(smk.input.cells)
    methods = [m for m in spec.columns[0].order if m in set(cells["method"])]
    save_figure(logreg_figure(cells, methods, rows=spec.rows), smk.output.pdf, smk.output.png)
    print(f"wrote {smk.output.pdf} and {smk.output.png}", file=log)
