"""Snakemake script: what Yu et al.'s (2024) banana Figs. 1 and 5 draw, computed here so that
the figure rule only draws: the Fisher metric at the ellipse centres, the log density on the Fig. 1
window, 300 Gaussian points from the Hausdorff MAP and their Exp-map images under RLA-F, and the
distinct Euclidean maxima among the MAP's restarts."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.geometry.exponential_map import exponential_map
from geobayes.io import load_npz, save_npz
from geobayes.methods import get_method, method_config
from geobayes.metrics.density_grid import log_density_grid
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_key
from geobayes.report.plot_windows import BANANA_METRIC_WINDOW, ELLIPSE_GRID, ellipse_centres

#: Fig. 1 shows 300 Gaussian samples and their images (notes Sec. 2.3).
FIGURE_1_SAMPLES = 300
#: Restart optima within this much of the best objective are the same (symmetric) maximum.
OPTIMUM_TOLERANCE = 1e-6

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    target = build_posterior("yu2024-banana", smk.input.data, smk.params.model)
    vmapped = jax.jit(jax.vmap(target.logdensity))
    window = BANANA_METRIC_WINDOW
    xx, yy, zz = log_density_grid(lambda points: np.asarray(vmapped(jnp.asarray(points))), window.xlim, window.ylim)
    centres = ellipse_centres(ELLIPSE_GRID, window.xlim, window.ylim)
    metrics = np.asarray(jax.vmap(target.fisher)(jnp.asarray(centres)))

    hausdorff = jnp.asarray(load_npz(smk.input.hausdorff_map)["position"])
    cfg = {**smk.params.approximation, "precision": "fisher"}
    key = derive_key(smk.params.seed, "figure", "banana_metric")
    approx = get_method("rla_f").fit(target, method_config("rla_f", cfg), key, mode=hausdorff).approximation
    velocities = approx.tangent.sample_velocities(key, FIGURE_1_SAMPLES)
    end = exponential_map(approx.metric, target, hausdorff, velocities, approx.ode)
    ok = np.asarray(end.successful)

    euclidean = load_npz(smk.input.euclidean_map)
    objective = np.asarray(euclidean["restart_objective"])
    ends = np.asarray(euclidean["restart_ends"])
    best = ends[np.isfinite(objective) & (objective >= np.nanmax(objective) - OPTIMUM_TOLERANCE)]
    distinct = np.unique(np.round(best, 4), axis=0)
    save_npz(smk.output[0], xx=xx, yy=yy, zz=zz, metrics=metrics, hausdorff=np.asarray(hausdorff),
             base=np.asarray(hausdorff + velocities)[ok], mapped=np.asarray(end.points)[ok],
             euclidean_maxima=distinct)
    print(f"{int(ok.sum())} of {ok.size} Exp maps solved; Euclidean maxima found: {distinct.tolist()}; "
          f"Hausdorff MAP {np.asarray(hausdorff).tolist()}", file=log)
