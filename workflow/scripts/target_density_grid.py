"""Snakemake script: a 2-D target's log density on the grid of its sample-panel window
(geobayes.report.plot_windows), for the figures that draw its contours; they only draw."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.io import save_npz
from geobayes.metrics.density_grid import log_density_grid
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to
from geobayes.report.plot_windows import plot_window

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    name = smk.wildcards.posterior
    target = build_posterior(name, smk.input.data or None, smk.params.model)
    if target.dim != 2:
        raise ValueError(f"{name}: a contour grid needs a 2-D target, got D = {target.dim}")
    window = plot_window(name)
    logdensity = jax.jit(jax.vmap(target.logdensity))
    xx, yy, zz = log_density_grid(lambda points: np.asarray(logdensity(jnp.asarray(points))), window.xlim, window.ylim)
    save_npz(smk.output[0], xx=xx, yy=yy, zz=zz)
    print(f"{name}: log density on {xx.shape} points of {window.xlim} x {window.ylim}, max {np.max(zz):.4g}", file=log)
