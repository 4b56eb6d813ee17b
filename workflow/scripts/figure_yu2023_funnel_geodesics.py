"""Snakemake script: Yu et al.'s (2023) Fig. 1 from rule yu2023_funnel_geodesics's arrays."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.plot_windows import YU2023_FUNNEL_WINDOW as WINDOW
from geobayes.report.yu2023_funnel_figures import GeodesicPanel, funnel_geodesics_figure

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]):
    set_style()
    data = load_npz(smk.input.figure_data)
    panels = [GeodesicPanel(data[f"base{k}"], data[f"paths{k}"], data[f"endpoints{k}"])
              for k in range(int(data["panels"]))]
    fig = funnel_geodesics_figure(panels, density=(data["xx"], data["yy"], data["zz"]), xlim=WINDOW.xlim,
                                  ylim=WINDOW.ylim, levels=WINDOW.levels)
    save_figure(fig, smk.output.pdf, smk.output.png)
