"""Any table of workflow/resources/tables.yaml: its cells (CSV), LaTeX and Markdown."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import save_csv, save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.paper_values import load_paper_values
from geobayes.report.table_spec import read_table_specs
from geobayes.report.tables import render_latex, render_markdown, table_cells
from geobayes.report.tidy import load_tidy

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    spec = read_table_specs(smk.input.spec)[smk.wildcards.table]
    paper = load_paper_values(smk.input.paper) if smk.input.paper else None
    cells = table_cells(spec, load_tidy(smk.input.summaries), paper)
    save_csv(cells, smk.output.csv)
    save_text(smk.output.tex, render_latex(spec, cells, smk.params.scale))
    save_text(smk.output.md, render_markdown(spec, cells, smk.params.scale))
    flagged = int(cells["outside_spread"].fillna(False).sum())
    print(f"{len(cells)} cells, {int(cells['n_failed'].fillna(0).sum())} failed samples, "
          f"{flagged} outside the paper's spread", file=log)
