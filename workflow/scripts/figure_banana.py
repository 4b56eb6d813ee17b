"""Snakemake script: banana Fig. 1 (Fisher-metric ellipses; Gaussian samples and their Exp-map
images from the Hausdorff MAP) and Fig. 5 (the MAP anchors; RLA-F from each) of Yu et al. (2024),
drawn from rule banana_figure_data's arrays and the target's density grid."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.io import load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.banana_figures import map_locations_figure, metric_ellipses_figure
from geobayes.report.figures import save_figure, set_style
from geobayes.report.plot_windows import plot_window

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    data = load_npz(smk.input.figure_data)
    fig1 = metric_ellipses_figure(data["metrics"], (data["xx"], data["yy"], data["zz"]), data["hausdorff"],
                                  data["base"], data["mapped"])
    save_figure(fig1, smk.output.metric_pdf, smk.output.metric_png)

    grid = load_npz(smk.input.density)
    samples = {}
    for anchor in ("euclidean", "hausdorff"):
        draws = load_npz(getattr(smk.input, f"{anchor}_samples"))
        samples[anchor] = np.asarray(draws["theta"])[draws["successful"].astype(bool)]
    window = plot_window("yu2024-banana")
    fig5 = map_locations_figure((grid["xx"], grid["yy"], grid["zz"]), data["euclidean_maxima"], data["hausdorff"],
                                samples["hausdorff"], samples["euclidean"], xlim=window.xlim, ylim=window.ylim,
                                levels=window.levels)
    save_figure(fig5, smk.output.anchors_pdf, smk.output.anchors_png)
    print(f"Euclidean maxima: {data['euclidean_maxima'].tolist()}; Hausdorff MAP {data['hausdorff'].tolist()}",
          file=log)
