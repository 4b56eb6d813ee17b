"""Snakemake script: Figs. 2 (USPS) and 4 (logistic growth) of Hartmann et al. (2026) -- scatter
panels WG | NUTS | LA of two coordinates with the MAP, our W2 (mean ± std over repetitions) and
failed-sample counts in the titles."""

import numpy as np
import pandas as pd

from geobayes.io import load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.wg_scatter import scatter_axes, scatter_figure, successful_samples, w2_summary

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    posterior = smk.params.posterior
    wg_arrays = load_npz(smk.input.wg)
    wg, wg_failed = successful_samples(wg_arrays, smk.input.wg)
    la, la_failed = successful_samples(load_npz(smk.input.la), smk.input.la)
    nuts = np.asarray(load_npz(smk.input.reference)["draws"], dtype=np.float64)
    mode = np.asarray(wg_arrays["mode"], dtype=np.float64)
    summary = pd.read_csv(smk.input.summary)
    stats = {m: w2_summary(summary, posterior, m, anchor="euclidean") for m in ("wg", "ela")}
    axes = scatter_axes(posterior, mode.shape[0])
    fig = scatter_figure(wg, nuts, la, mode, axes, wg_stats=stats["wg"], la_stats=stats["ela"],
                         wg_failed_shown=wg_failed, la_failed_shown=la_failed)
    save_figure(fig, smk.output.pdf, smk.output.png)
    print(f"{posterior}: coordinates ({axes.i}, {axes.j}); W2 {dict(stats)}; repetition 0 failed: WG {wg_failed}, "
          f"LA {la_failed}", file=log)
