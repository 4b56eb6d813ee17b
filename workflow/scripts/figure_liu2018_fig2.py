"""Snakemake script: Liu & Zhu's (2018) Fig. 2: (a) test log-perplexity along epochs at `figure_particles`
particles, (b) at the last epoch against the particle count (mean and std over seeds)."""

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
    along, final = defaultdict(list), defaultdict(lambda: defaultdict(list))
    for record_path, curve_path in zip(smk.input.records, smk.input.curves):
        record, curve = load_json(record_path), load_npz(curve_path)
        if record["particles"] == smk.params.figure_particles:
            along[record["method"]].append((curve["epochs"], curve["log_perplexity"]))
        final[record["method"]][record["particles"]].append(record["log_perplexity_final"])
    panel_a = {m: Curves(runs[0][0], np.stack([values for _, values in runs])) for m, runs in along.items()}
    panel_b = {}
    for method, by_count in final.items():
        counts = sorted(by_count)
        seeds = max(len(v) for v in by_count.values())
        values = np.full((seeds, len(counts)), np.nan)
        for j, n in enumerate(counts):
            values[:len(by_count[n]), j] = by_count[n]
        panel_b[method] = Curves(np.asarray(counts, dtype=float), values)
    labels = {method: method_label(method) for method in final}
    titles = (f"(a) {smk.params.figure_particles} particles", "(b) at the last epoch")
    fig = curve_panels_figure(dict(zip(titles, (panel_a, panel_b))), labels,
                              xlabel=dict(zip(titles, ("epoch", "particles"))), ylabel="test log-perplexity",
                              log_x=titles[1:], markers=True)
    save_figure(fig, smk.output.pdf, smk.output.png)
    print(f"Fig. 2: {sorted(final)}", file=log)
