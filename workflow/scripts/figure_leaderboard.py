"""The cross-method leaderboard figure, drawn from the leaderboard table's cells."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import pandas as pd

from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.leaderboard_figure import leaderboard_figure

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    cells = pd.read_csv(smk.input.cells, dtype={"posterior": str, "anchor": str, "method": str},
                        keep_default_na=False, na_values={"mean": [""], "std": [""]})
    save_figure(leaderboard_figure(cells), smk.output.pdf, smk.output.png)
    print(f"{cells['posterior'].nunique()} posteriors", file=log)
