"""Snakemake script: what Yu et al.'s (2023) Fig. 1 draws, computed here so the figure only draws:
Monge-metric geodesic paths on the funnel from each base point (a few, drawn as arrows), the
endpoints Exp(v) for many directions of one speed (the curve), and the log density on the window."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.geometry import Monge
from geobayes.geometry.exponential_map import OdeSettings
from geobayes.geometry.geodesic_paths import geodesic_paths
from geobayes.io import save_json, save_npz
from geobayes.metrics.density_grid import log_density_grid
from geobayes.pipeline.step import logged_to
from geobayes.registry import lookup
from geobayes.report.plot_windows import YU2023_FUNNEL_WINDOW as WINDOW
from geobayes.settings import from_mapping

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    settings = smk.params.experiment
    geodesics = settings["geodesics"]
    target = lookup("softplus_funnel").from_options("yu2023_funnel", settings["target"])
    metric = Monge(alpha2=float(geodesics["alpha2"]))
    ode = from_mapping(OdeSettings, geodesics["ode"], "experiments.yu2023_funnel.geodesics.ode")

    def directions(count):
        """Unit vectors at evenly spaced angles, scaled to the configured speed (paper: 10)."""
        angles = np.linspace(0.0, 2.0 * np.pi, count, endpoint=False)
        return jnp.asarray(float(geodesics["speed"]) * np.stack([np.cos(angles), np.sin(angles)], axis=1))

    times = jnp.linspace(0.0, 1.0, int(geodesics["path_points"]))
    arrays, record = {}, {"stage": "yu2023_funnel_geodesics", "panels": []}
    for k, base in enumerate(geodesics["base_points"]):
        base = jnp.asarray(base, dtype=jnp.float64)
        arrows = geodesic_paths(metric, target, base, directions(int(geodesics["arrows"])), times, ode)
        curve = geodesic_paths(metric, target, base, directions(int(geodesics["directions"])), times[-1:], ode)
        arrow_ok, curve_ok = np.asarray(arrows.successful), np.asarray(curve.successful)
        arrays[f"base{k}"] = np.asarray(base)
        arrays[f"paths{k}"] = np.asarray(arrows.points)[arrow_ok]
        arrays[f"endpoints{k}"] = np.asarray(curve.points)[curve_ok, -1]
        record["panels"].append({"base_point": np.asarray(base).tolist(), "arrows_failed": int((~arrow_ok).sum()),
                                 "curve_failed": int((~curve_ok).sum()), "curve_directions": int(curve_ok.size)})
        print(f"base {np.asarray(base).tolist()}: {int(arrow_ok.sum())}/{arrow_ok.size} paths, "
              f"{int(curve_ok.sum())}/{curve_ok.size} endpoints solved", file=log)

    logdensity = jax.jit(jax.vmap(target.logdensity))
    xx, yy, zz = log_density_grid(lambda points: np.asarray(logdensity(jnp.asarray(points))), WINDOW.xlim, WINDOW.ylim)
    save_npz(smk.output.npz, xx=xx, yy=yy, zz=zz, panels=np.array(len(geodesics["base_points"])), **arrays)
    save_json(smk.output.json, record)
