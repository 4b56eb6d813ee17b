"""Tables and figures of the reproduction, and the published values they are compared with.

* :mod:`geobayes.report.paper_values` — load the transcribed paper tables
  (``workflow/resources/paper_values/*.csv``).
* :mod:`geobayes.report.logreg_table` — Yu et al. (2024), Table 2 (Bayesian logistic
  regression): aggregation over seeds, the LaTeX table, and ours-vs-paper comparison.
* :mod:`geobayes.report.figures` — matplotlib figures (Agg backend); imported on its own
  so that table rules do not load matplotlib.
"""

from geobayes.report.logreg_table import (
    aggregate_logreg,
    comparison_latex,
    load_summary,
    logreg_comparison,
    logreg_table_latex,
)
from geobayes.report.paper_values import load_paper_values

__all__ = [
    "aggregate_logreg",
    "comparison_latex",
    "load_paper_values",
    "load_summary",
    "logreg_comparison",
    "logreg_table_latex",
]
