"""Snakemake script: Liu & Zhu's (2018) Fig. 1, test accuracy along iterations, a panel per data set (mean and
std over runs); a panel run on an offline stand-in says so in its title."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from collections import defaultdict

import numpy as np

from geobayes.io import load_json, load_npz
from geobayes.methods.labels import method_label
from geobayes.pipeline.step import logged_to
from geobayes.report.curve_panels import Curves, curve_panels_figure
from geobayes.report.figures import save_figure, set_style

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    runs = defaultdict(lambda: defaultdict(list))
    titles = {}
    for record_path, curve_path in zip(smk.input.records, smk.input.curves):
        record, curve = load_json(record_path), load_npz(curve_path)
        panel = record["posterior"]
        titles[panel] = (f"{record['anchor']} (stand-in for {panel})" if record["stand_in"] else panel)
        runs[panel][record["method"]].append((curve["iterations"], curve["accuracy"]))
    panels = {}
    for panel, methods in runs.items():
        panels[titles[panel]] = {method: Curves(found[0][0], np.stack([acc for _, acc in found]))
                                 for method, found in methods.items()}
    labels = {method: method_label(method) for methods in runs.values() for method in methods}
    fig = curve_panels_figure(panels, labels, xlabel="iteration", ylabel="test accuracy",
                              order=("rsvgd", "rsvgd_paper_density", "svgd", "svgd_median"))
    save_figure(fig, smk.output.pdf, smk.output.png)
    print(f"Fig. 1: panels {list(panels)}", file=log)
