"""Snakemake script: time per sample, one at a time and batched (Yu et al. 2024, Table 4)."""

from geobayes.io import load_json, save_csv, save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.paper_values import load_paper_values
from geobayes.report.timing_table import timing_frame, timing_table_latex

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    frame = timing_frame([load_json(path) for path in smk.input.timings], load_paper_values(smk.input.paper))
    save_csv(frame, smk.output.csv)
    save_text(smk.output.tex, timing_table_latex(frame))
    print(frame.to_string(), file=log)
