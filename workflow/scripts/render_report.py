"""A paper's reproduction report: its tables (workflow/resources/tables.yaml `reports`) as
Markdown beside the paper's values, each with the comparison counts, the references flagged by the
cross-check (NumPyro against Stan), then the deviations."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.paper_values import load_paper_values
from geobayes.report.reference_crosscheck import crosscheck_section
from geobayes.report.reproduction_report import reproduction_report_markdown
from geobayes.report.table_spec import read_report_specs, read_table_specs
from geobayes.report.tables import NoResultsError, table_cells
from geobayes.report.tidy import load_tidy

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    report = read_report_specs(smk.input.spec)[smk.wildcards.report]
    specs = read_table_specs(smk.input.spec)
    # a paper that prints no numbers (Liu & Zhu 2018) has no paper-value files: its claims are checked instead
    tidy, paper = load_tidy(smk.input.summaries), (load_paper_values(smk.input.paper) if smk.input.paper else None)
    tables, not_run = [], []
    for name in report.tables:
        try:
            tables.append((specs[name], table_cells(specs[name], tidy, paper)))
        except NoResultsError as error:  # a table of data sets or settings this scale does not run
            print(error, file=log)
            not_run.append(name)
    with open(smk.input.deviations) as handle:
        deviations = [line[2:].strip() for line in handle if line.startswith("- ")]
    # the cross-check of the NUTS references, where the run has one (reference.crosscheck)
    references = crosscheck_section(load_tidy(smk.input.crosscheck)) if smk.input.crosscheck else []
    save_text(smk.output[0], reproduction_report_markdown(report, tables, scale=smk.params.scale,
                                                          deviations=deviations, not_run=not_run,
                                                          references=references))
    print(f"{len(tables)} tables", file=log)
