"""Snakemake script: approximation samples over the target's contours, one panel per MAP anchor
x method (Yu et al. 2024: Fig. 4 easy squiggle, Fig. 8 difficult squiggle, Fig. 9 funnel,
Fig. 7 banana), each panel noting the mean function evaluations T and any failed samples."""

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.io import load_npz
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to
from geobayes.posterior import split_posterior_name
from geobayes.report.figures import save_figure, set_style
from geobayes.methods.labels import method_label
from geobayes.report.tidy import load_tidy, wide
from geobayes.report.sample_panels import Panel, sample_panels_figure

#: Axes ranges and contour levels of the paper's plotting code (notes Secs. 2.2-2.4).
PLOT_SETTINGS = {
    "squiggle": {"easy": ((-10, 10), (-2, 2), (-5.0, -3.0, -1.5)),
                 "difficult": ((-10, 10), (-2, 2), (-3.0, -1.0, 0.0)),
                 # Hartmann et al. (2026), Fig. 3: S = diag(2, 0.1), log density at most -1.03.
                 "hartmann": ((-5, 5), (-2.5, 2.5), (-6.0, -3.5, -2.0))},
    "funnel": {None: ((-10, 10), (-10, 10), (-10.0, -5.0, -2.0))},
    "banana": {None: ((-5.5, 2.5), (-3, 3), (-210.0, -205.0, -204.0))},
}

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    name = smk.wildcards.posterior
    setting, experiment = split_posterior_name(name)
    target = build_posterior(name, smk.input.data or None, smk.params.model)
    settings = PLOT_SETTINGS.get(experiment, {})
    if setting not in settings and None not in settings:
        raise ValueError(f"{name}: no plot window and contour levels for {experiment!r} setting {setting!r} "
                         f"in PLOT_SETTINGS of {__file__}")
    xlim, ylim, levels = settings.get(setting, settings.get(None))
    if target.dim != 2:
        raise ValueError(f"{name}: sample panels need a 2-D target, got D = {target.dim}")
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
    logdensity = jax.jit(jax.vmap(target.logdensity))
    fig = sample_panels_figure(panels, logdensity=lambda pts: np.asarray(logdensity(jnp.asarray(pts))),
                               xlim=xlim, ylim=ylim, levels=levels, ncols=len(smk.params.methods))
    save_figure(fig, smk.output.pdf, smk.output.png)
    print(f"{len(panels)} panels for {name}", file=log)
