"""Snakemake script: Yu et al.'s (2023) Fig. 4 for one (width, prior): Monge's test LP and accuracy against
alpha^2, each alpha^2 at its own validation-best learning rate (mean and std over seeds), with the other
samplers' selected points as flat bands."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.io import load_json
from geobayes.methods.labels import method_label
from geobayes.pipeline.step import logged_to
from geobayes.report.curve_panels import Curves, curve_panels_figure
from geobayes.report.figures import save_figure, set_style
from geobayes.report.yu2023_mnist_figures import SAMPLER_COLOURS
from geobayes.sgmcmc.selection import select_per_alpha2

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    monge = [load_json(path) for path in smk.input.monge]
    chosen = select_per_alpha2(monge)
    alphas = np.asarray(sorted(chosen))
    panels = {"test LP": {}, "test accuracy": {}}
    for metric, title in (("lp", "test LP"), ("accuracy", "test accuracy")):
        columns = []
        for alpha2 in alphas:
            runs = sorted((r for r in monge if r["anchor"] == chosen[alpha2].point), key=lambda r: r["repetition"])
            columns.append([r[metric] for r in runs])
        seeds = max(len(c) for c in columns)
        values = np.full((seeds, len(alphas)), np.nan)
        for j, column in enumerate(columns):
            values[:len(column), j] = column
        panels[title]["monge"] = Curves(alphas, values)
        for path in smk.input.selected:
            record = load_json(path)
            if record["method"] == "monge":
                continue
            flat = np.asarray(record[metric], dtype=float)[:, None] * np.ones((1, 2))
            panels[title][record["method"]] = Curves(np.asarray([0.0, alphas[-1]]), flat)  # alpha^2 = 0 is Identity
    labels = {m: method_label(m) for m in panels["test LP"]}
    fig = curve_panels_figure(panels, labels, xlabel="alpha^2 (Monge)", ylabel="", markers=True,
                              colours=SAMPLER_COLOURS, order=("identity", "wenzel", "rmsprop", "shampoo", "monge"))
    save_figure(fig, smk.output.pdf, smk.output.png)
    print({float(a): chosen[a].point for a in alphas}, file=log)
