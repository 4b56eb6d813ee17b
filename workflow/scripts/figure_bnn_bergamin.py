"""Bergamin et al. (2023), Fig. 5 and Figs. D.1-D.4: posterior function samples (rows: networks,
columns: LA, lin-LA, riem-LA, lin-riem-LA and the mini-batched variants) and the predictive
mean +- 2 std, on the random or the in-between split."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.pipeline.step import logged_to
from geobayes.report.bnn_figures import build_function_sample_figure, build_predictive_band_figure
from geobayes.report.bnn_panels import METHOD_LABELS, load_panel
from geobayes.report.figures import save_figure

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    options, split = smk.params.options, smk.wildcards.split
    lo, hi, _ = options["predictive"]["grid"]
    rows = [[load_panel(smk.input[f"{split}-{network}:{m}_seed0"], METHOD_LABELS.get(m, m)) for m in options["methods"]]
            for network in options["models"]]
    labels = list(options["models"])
    window = {"row_labels": labels, "xlim": (lo, hi), "ylim": (-4.0, 4.0)}
    save_figure(build_function_sample_figure(rows, **window), smk.output.samples)
    save_figure(build_predictive_band_figure(rows, **window), smk.output.predictive)
    print(f"{split}: {len(rows)} networks x {len(options['methods'])} methods", file=log)
