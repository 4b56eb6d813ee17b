"""Fig. 15 of Yu et al. (2024): an example sine data set and seconds per sample vs N, from the
tidy rows of results/summary/bnn_scalability.csv."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.io import load_npz
from geobayes.pipeline.step import logged_to
from geobayes.report.bnn_scalability import scalability_figure, scalability_lines
from geobayes.report.figures import save_figure
from geobayes.report.tidy import load_tidy

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    frame = scalability_lines(load_tidy(smk.input.summary))
    example = load_npz(smk.input.example, required=("X", "y", "X_test", "y_test", "x_mean", "x_std", "y_mean", "y_std"),
                       what="sine data of the scalability study")
    save_figure(scalability_figure(frame, example), smk.output.pdf, smk.output.png)
    print(f"{len(frame)} lines' points drawn", file=log)
