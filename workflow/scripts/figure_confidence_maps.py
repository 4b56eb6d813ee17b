"""Bergamin et al. (2023), Fig. 6 and Figs. D.5, D.6: the confidence of each method's predictive on the
2-D grid (rows: methods, columns: prior optimised / fixed), seed 0, repetition 0."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.data.prepared import load_prepared
from geobayes.io import load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.confidence_maps import ConfidencePanel, confidence_map_figure
from geobayes.report.figures import save_figure

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    methods, priors = list(smk.params.methods), list(smk.params.priors)
    panels = {}
    for prior in priors:
        data = load_prepared(smk.input[f"{prior}:data"], required=("X", "y"))
        for method in methods:
            arrays = load_npz(smk.input[f"{prior}:{method}"])
            if "grid_probs" not in arrays:
                print(f"{prior}/{method}: no draws, the panel stays empty", file=log)
                continue
            panels[(method, prior)] = ConfidencePanel(arrays["grid_axis"], arrays["grid_probs"], data["X"],
                                                      np.asarray(data["y"]))
    fig = confidence_map_figure(panels, methods, priors, prior_labels={"optimised": "prior opt.",
                                                                        "fixed": "prior not opt."})
    save_figure(fig, smk.output[0])
    print(f"{len(panels)} panels: {methods} x {priors}", file=log)
