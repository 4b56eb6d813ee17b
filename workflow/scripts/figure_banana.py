"""Snakemake script: banana Fig. 1 (Fisher-metric ellipses; Gaussian samples and their Exp-map
images from the Hausdorff MAP) and Fig. 5 (the MAP anchors; RLA-F from each) of Yu et al. (2024)."""

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.geometry.exponential_map import exponential_map
from geobayes.io import load_npz
from geobayes.methods import get_method, method_config
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_key
from geobayes.report.banana_figures import map_locations_figure, metric_ellipses_figure
from geobayes.report.figures import save_figure, set_style

#: Fig. 1 shows 300 Gaussian samples and their images (notes Sec. 2.3).
FIGURE_1_SAMPLES = 300
#: Restart optima within this much of the best objective are the same (symmetric) maximum.
OPTIMUM_TOLERANCE = 1e-6

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    target = build_posterior("yu2024-banana", smk.input.data, smk.params.model)
    vmapped = jax.jit(jax.vmap(target.logdensity))

    def logdensity(points):
        return np.asarray(vmapped(jnp.asarray(points)))

    hausdorff = jnp.asarray(load_npz(smk.input.hausdorff_map)["position"])
    cfg = {**smk.params.approximation, "precision": "fisher"}
    key = derive_key(smk.params.seed, "figure", "banana_metric")
    approx = get_method("rla_f").fit(target, method_config("rla_f", cfg), key, mode=hausdorff).approximation
    velocities = approx.tangent.sample_velocities(key, FIGURE_1_SAMPLES)
    end = exponential_map(approx.metric, target, hausdorff, velocities, approx.ode)
    ok = np.asarray(end.successful)
    fig1 = metric_ellipses_figure(lambda th: np.asarray(target.fisher(jnp.asarray(th))), logdensity,
                                  np.asarray(hausdorff), np.asarray(hausdorff + velocities)[ok],
                                  np.asarray(end.points)[ok])
    save_figure(fig1, smk.output.metric_pdf, smk.output.metric_png)

    euclidean = load_npz(smk.input.euclidean_map)
    objective = np.asarray(euclidean["restart_objective"])
    ends = np.asarray(euclidean["restart_ends"])
    best = ends[np.isfinite(objective) & (objective >= np.nanmax(objective) - OPTIMUM_TOLERANCE)]
    distinct = np.unique(np.round(best, 4), axis=0)
    samples = {}
    for anchor in ("euclidean", "hausdorff"):
        draws = load_npz(getattr(smk.input, f"{anchor}_samples"))
        samples[anchor] = np.asarray(draws["theta"])[draws["successful"].astype(bool)]
    fig5 = map_locations_figure(logdensity, distinct, np.asarray(hausdorff), samples["hausdorff"],
                                samples["euclidean"], xlim=(-5.5, 2.5), ylim=(-3, 3), levels=(-210.0, -205.0, -204.0))
    save_figure(fig5, smk.output.anchors_pdf, smk.output.anchors_png)
    print(f"Euclidean maxima found: {distinct.tolist()}; Hausdorff MAP {np.asarray(hausdorff).tolist()}", file=log)
