"""Seconds per sample of RLA-B and RLA-F over the scalability grid (Yu et al. 2024, Fig. 15)."""

from geobayes.io import load_json, save_csv, save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.bnn_scalability import method_ratios, scalability_frame, scalability_table_latex

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    frame = scalability_frame([load_json(path) for path in smk.input.timings])
    save_csv(frame, smk.output.csv)
    save_text(smk.output.tex, scalability_table_latex(frame))
    print(frame.to_string(), file=log)
    print(method_ratios(frame).to_string(), file=log)
