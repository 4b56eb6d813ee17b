"""Snakemake script: Figs. 1 and 3 of Hartmann et al. (2026) -- contours of the true posterior
(normalised on the grid), the closed-form wrapped Gaussian (WG) and the Laplace approximation (LA)
at the same levels, drawn from the grids of rule contour_grids. Fig. 1 (figure=synthetic): rows =
family, columns = n; Fig. 3 (figure=shapes): one panel per target."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.metrics.contour_grids import load_panels
from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.wg_contours import contour_figure, synthetic_layout

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    panels = load_panels(smk.input.grids)
    if smk.wildcards.figure == "synthetic":
        layout = [[panels[n] if n is not None else None for n in row] for row in synthetic_layout(list(panels))]
        base_label = "MAP"
    else:
        layout = [list(panels.values())]
        base_label = "base point: MAP (Hausdorff MAP where the anchor is hausdorff)"
    save_figure(contour_figure(layout, base_label=base_label), smk.output.pdf, smk.output.png)
    print(f"{len(panels)} panels", file=log)
