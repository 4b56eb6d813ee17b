"""Fig. 4 data of Hartmann et al. (2026): the Sharp et al. logistic-growth observations."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.errors import exit_on_data_error
from geobayes.data.verify import verified
from geobayes.data.logistic_growth import GrowthData, load_growth_csv
from geobayes.data.prepared import save_prepared
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    t, y = load_growth_csv(verified(smk.input.raw))
    save_prepared(smk.output[0], "growth", GrowthData(t, y, smk.params.file).arrays())
    print(f"{smk.params.file}: {t.size} observations at times {sorted(set(t.tolist()))}", file=log)
