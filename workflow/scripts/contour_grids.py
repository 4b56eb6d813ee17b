"""The grids of Hartmann et al.'s (2026) Figs. 1 and 3: per posterior, WG and LA fitted at the MAP
and the true, WG and LA densities on one grid (geobayes.metrics.contour_grids); the figure rule
only draws them."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import numpy as np

from geobayes.io import load_npz
from geobayes.metrics.contour_grids import contour_panel, fitted_log_densities, precision_for_map, save_panels
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to
from geobayes.report.wg_contours import shape_title, synthetic_title

jax.config.update("jax_enable_x64", True)

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    synthetic = smk.wildcards.figure == "synthetic"
    panels = {}
    for name in smk.params.posteriors:
        target = build_posterior(name, smk.input.get(f"data_{name}"), smk.params.options[name])
        map_path = smk.input[f"map_{name}"]
        mode = np.asarray(load_npz(map_path)["position"], dtype=np.float64)
        precision = precision_for_map(map_path)
        draws = np.asarray(load_npz(smk.input[f"reference_{name}"])["draws"], dtype=np.float64)
        densities = fitted_log_densities(target, mode, smk.params.approximation, precision)
        panels[name] = contour_panel(synthetic_title(name) if synthetic else shape_title(name), densities, mode, draws)
        print(f"{name}: mode {mode.tolist()}, precision {precision}, {draws.shape[0]} reference draws"
              + (f"; {panels[name].note}" if panels[name].note else ""), file=log)
    save_panels(smk.output[0], panels)
