"""Snakemake script: Yu et al.'s (2023) Fig. 2 from the chains' draws (repetition 0) and the density grid."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_json, load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.plot_windows import YU2023_FUNNEL_WINDOW as WINDOW
from geobayes.report.yu2023_funnel_figures import SamplerPanel, funnel_samples_figure
from geobayes.methods.labels import method_label

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]):
    set_style()
    grid = load_npz(smk.input.figure_data)
    panels = []
    for draws_file, record_file in zip(smk.input.draws, smk.input.records):
        draws, record = load_npz(draws_file), load_json(record_file)
        note = f"W1($\\theta_2$) {record['w1_theta2']:.2f}" if record.get("w1_theta2") is not None else "diverged"
        panels.append(SamplerPanel(method_label(record["method"]), draws["plot_points"], draws["theta_last"], note))
    fig = funnel_samples_figure(panels, density=(grid["xx"], grid["yy"], grid["zz"]), xlim=WINDOW.xlim,
                                ylim=WINDOW.ylim, levels=WINDOW.levels, variance=float(smk.params.variance))
    save_figure(fig, smk.output.pdf, smk.output.png)
