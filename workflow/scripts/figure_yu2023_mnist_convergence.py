"""Snakemake script: Yu et al.'s (2023) Fig. 3 for one (width, prior) from the selected points' curves."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_npz
from geobayes.methods.labels import method_label
from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.yu2023_mnist_figures import convergence_figure

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]):
    set_style()
    curves = {sampler: load_npz(path) for sampler, path in zip(smk.params.samplers, smk.input.curves)}
    fig = convergence_figure(curves, {sampler: method_label(sampler) for sampler in curves})
    save_figure(fig, smk.output.pdf, smk.output.png)
