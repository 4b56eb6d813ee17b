"""Snakemake script: Yu et al. (2024) Fig. 2 (ELA vs RLA-B on N(0, I_2)) and Fig. 3 (first-
coordinate W1 vs dimension D, mean +- 2 std over runs)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from pathlib import Path

import numpy as np
import pandas as pd

from geobayes.io import load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.gaussian_figures import bias_vs_dimension_figure, gaussian_marginals_figure
from geobayes.methods.labels import method_label
from geobayes.report.tidy import FLOOR_METHOD, load_tidy

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    runs = load_tidy(smk.input.summary)
    runs = runs[(runs["metric"] == "wasserstein1_first") & (runs["method"] != FLOOR_METHOD)]
    frame = pd.DataFrame({"dim": runs["posterior"].str.extract(r"^d(\d+)-", expand=False).astype(int),
                          "method": runs["method"], "seed": runs["repetition"].astype(int), "w1_first": runs["value"]})
    save_figure(bias_vs_dimension_figure(frame), smk.output.bias_pdf, smk.output.bias_png)
    samples = {}
    for path in smk.input.samples:
        draws = load_npz(path)
        method = Path(path).parts[-3]
        samples[method_label(method)] = np.asarray(draws["theta"])[draws["successful"].astype(bool)]
    save_figure(gaussian_marginals_figure(samples), smk.output.marginals_pdf, smk.output.marginals_png)
    print(f"Fig. 3 from {len(frame)} runs; Fig. 2 from {sorted(samples)}", file=log)
