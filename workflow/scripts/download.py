"""Fetch one registered data file from the mirror or its pinned URL, checksum-verified."""

from geobayes.data.download import fetch, resolve_mirror
from geobayes.data.registry import get_file
from geobayes.pipeline.step import logged_to

with logged_to(snakemake.log[0]) as log:  # noqa: F821 (injected by Snakemake)
    entry = get_file(snakemake.wildcards.file)  # noqa: F821
    mirror = resolve_mirror(snakemake.params.mirror)  # noqa: F821
    source = mirror / entry.file if mirror else entry.url
    print(f"fetching {entry.file} from {source}", file=log)
    fetch(entry, snakemake.output[0], mirror=mirror, timeout=snakemake.params.timeout_s)  # noqa: F821
    print(f"ok: sha256 {entry.sha256}", file=log)
