"""Snakemake script: Figs. 2 (USPS) and 4 (logistic growth) of Hartmann et al. (2026) -- scatter
panels WG | NUTS | LA of two coordinates with the MAP, our W2 (mean ± std over repetitions, from
the experiment's tidy rows) and failed-sample counts in the titles."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.io import load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.figures import save_figure, set_style
from geobayes.report.tidy import aggregate, load_tidy
from geobayes.report.wg_scatter import scatter_axes, scatter_figure, successful_samples

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    set_style()
    posterior = smk.params.posterior
    wg_arrays = load_npz(smk.input.wg)
    wg, wg_failed = successful_samples(wg_arrays, smk.input.wg)
    la, la_failed = successful_samples(load_npz(smk.input.la), smk.input.la)
    nuts = np.asarray(load_npz(smk.input.reference)["draws"], dtype=np.float64)
    mode = np.asarray(wg_arrays["mode"], dtype=np.float64)
    tidy = load_tidy(smk.input.summary)
    rows = tidy[(tidy["posterior"] == posterior) & (tidy["anchor"] == "euclidean")
                & (tidy["metric"] == "wasserstein2")]
    stats = aggregate(rows, ["method"]).set_index("method")
    missing = [m for m in ("wg", "ela") if m not in stats.index]
    if missing:
        raise ValueError(f"{smk.input.summary}: no euclidean wasserstein2 rows of {posterior} for methods {missing}")
    axes = scatter_axes(posterior, mode.shape[0])
    fig = scatter_figure(wg, nuts, la, mode, axes, wg_stats=stats.loc["wg"], la_stats=stats.loc["ela"],
                         wg_failed_shown=wg_failed, la_failed_shown=la_failed)
    save_figure(fig, smk.output.pdf, smk.output.png)
    w2 = stats[["mean", "std", "n_runs", "n_failed"]].to_dict("index")
    print(f"{posterior}: coordinates ({axes.i}, {axes.j}); W2 {w2}; repetition 0 failed: WG {wg_failed}, "
          f"LA {la_failed}", file=log)
