"""One results layer for every paper: tidy results, paper values, declarative tables, reports.

* :mod:`geobayes.report.tidy` — every measured number as a long row (experiment, posterior,
  anchor, method, repetition, metric, value, failures).
* :mod:`geobayes.report.paper_values` — the one loader of the transcribed paper values, in
  the same long form.
* :mod:`geobayes.report.table_spec` / :mod:`geobayes.report.tables` — a table is a validated
  spec entry (``workflow/resources/tables.yaml``) rendered to LaTeX, Markdown and CSV.
* :mod:`geobayes.report.comparison` — the one ours-vs-paper comparison.
* :mod:`geobayes.report.reproduction_report` — a paper's report from its table specs.
* :mod:`geobayes.report.figures` — figure style and the atomic figure saver (Agg backend);
  imported on its own so that table rules do not load matplotlib.
"""
