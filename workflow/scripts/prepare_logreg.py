"""Raw logistic-regression array -> design matrix (optionally standardised) + intercept."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.errors import exit_on_data_error
from geobayes.data.verify import verified
from geobayes.data.logreg import load_logreg_raw, prepare_logreg
from geobayes.data.prepared import save_prepared
from geobayes.pipeline.step import logged_to

with logged_to(snakemake.log[0]) as log, exit_on_data_error(log):  # noqa: F821
    features, labels = load_logreg_raw(verified(snakemake.input.raw))  # noqa: F821
    standardise = snakemake.wildcards.inputs == "standardised"  # noqa: F821
    prepared = prepare_logreg(features, labels, standardise=standardise)
    save_prepared(snakemake.output[0], "logreg", prepared.arrays())  # noqa: F821
    print(f"X {prepared.X.shape}, standardised={standardise}", file=log)
