"""Snakemake script: approximation samples over the target's contours, one panel per MAP anchor
x method (Yu et al. 2024: Fig. 4 easy squiggle, Fig. 8 difficult squiggle, Fig. 9 funnel,
Fig. 7 banana), each panel noting the mean function evaluations T and any failed samples; the
contours are rule target_density_grid's."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from pathlib import Path

import numpy as np

from geobayes.io import load_npz
from geobayes.methods.labels import method_label
from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.plot_windows import plot_window
from geobayes.report.sample_panels import Panel, sample_panels_figure
from geobayes.report.tidy import load_tidy, wide

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    name = smk.wildcards.posterior
    window = plot_window(name)
    summary = wide(load_tidy(smk.input.summary))
    summary = summary[summary["posterior"] == name]
    anchors = list(smk.params.anchors)
    panels = []
    for path in smk.input.samples:
        anchor, method = Path(path).parts[-4], Path(path).parts[-3]
        draws = load_npz(path)
        runs = summary[(summary["anchor"] == anchor) & (summary["method"] == method)]
        note = f"T = {runs['T'].mean():.1f}" if runs["T"].mean() > 0 else ""
        if runs["n_failed"].sum() > 0:
            note += f"\n{int(runs['n_failed'].sum())} of {int(runs['n_samples'].sum())} failed"
        title = method_label(method) + (f" ({anchor} MAP)" if len(anchors) > 1 else "")
        ok = draws["successful"].astype(bool)
        panels.append(Panel(title=title, samples=np.asarray(draws["theta"])[ok], note=note))
    grid = load_npz(smk.input.density)
    fig = sample_panels_figure(panels, density=(grid["xx"], grid["yy"], grid["zz"]), xlim=window.xlim,
                               ylim=window.ylim, levels=window.levels, ncols=len(smk.params.methods))
    save_figure(fig, smk.output.pdf, smk.output.png)
    print(f"{len(panels)} panels for {name}", file=log)
