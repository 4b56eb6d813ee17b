"""Fetch one registered data file from the mirror or its pinned URL, checksum-verified.

A file that cannot be obtained (no mirror, no network, unregistered or unavailable data set)
ends the job with one line saying what was tried and how to fix it, not a traceback.
"""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.download import obtain
from geobayes.data.errors import exit_on_data_error
from geobayes.data.registry import get_file
from geobayes.pipeline.step import logged_to

smk = snakemake  # noqa: F821 (injected by Snakemake)

with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    entry = get_file(smk.wildcards.file)
    source = obtain(entry, smk.output[0], config_mirror=smk.params.mirror, timeout=smk.params.timeout_s)
    print(f"{entry.file} from {source}: ok, {entry.checksum_text}", file=log)
