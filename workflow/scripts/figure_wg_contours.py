"""Snakemake script: Figs. 1 and 3 of Hartmann et al. (2026) -- contours of the true posterior
(normalised on the grid), the closed-form wrapped Gaussian (WG) and the Laplace approximation (LA)
at the same levels. Fig. 1 (figure=synthetic): rows = family, columns = n; Fig. 3 (figure=shapes):
one panel per target."""

import jax
import numpy as np

from geobayes.io import load_npz
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.wg_contours import (
    contour_figure,
    contour_panel,
    fitted_log_densities,
    precision_for_map,
    shape_title,
    synthetic_layout,
    synthetic_title,
)

jax.config.update("jax_enable_x64", True)

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    synthetic = smk.wildcards.figure == "synthetic"
    panels = {}
    for name in smk.params.posteriors:
        target = build_posterior(name, smk.input.get(f"data_{name}"), smk.params.options[name])
        map_path = smk.input[f"map_{name}"]
        mode = np.asarray(load_npz(map_path)["position"], dtype=np.float64)
        precision = precision_for_map(map_path)
        draws = np.asarray(load_npz(smk.input[f"reference_{name}"])["draws"], dtype=np.float64)
        densities = fitted_log_densities(target, mode, smk.params.approximation, precision)
        title = synthetic_title(name) if synthetic else shape_title(name)
        panels[name] = contour_panel(title, densities, mode, draws)
        print(f"{name}: mode {mode.tolist()}, precision {precision}, {draws.shape[0]} reference draws"
              + (f"; {panels[name].note}" if panels[name].note else ""), file=log)
    if synthetic:
        layout = [[panels[n] if n is not None else None for n in row] for row in synthetic_layout(list(panels))]
        base_label = "MAP"
    else:
        layout = [[panels[n] for n in smk.params.posteriors]]
        base_label = "base point: MAP (Hausdorff MAP where the anchor is hausdorff)"
    save_figure(contour_figure(layout, base_label=base_label), smk.output.pdf, smk.output.png)
