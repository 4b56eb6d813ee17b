"""Snakemake script: seconds per sample of WG, LA, RLA-F and NUTS and the WG ratios (Hartmann et al.
2026, speed claim; measured in one process per posterior by rule time_wg)."""

from geobayes.io import load_json, save_csv, save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.wg_timing_table import wg_timing_frame, wg_timing_table_latex

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    frame = wg_timing_frame([load_json(path) for path in smk.input.timings])
    save_csv(frame, smk.output.csv)
    save_text(smk.output.tex, wg_timing_table_latex(frame))
    print(frame.to_string(), file=log)
