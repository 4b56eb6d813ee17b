# Helpers of the data files (functions only, no rules): the registered files the download rule may fetch, and
# which of them a run reading a mirror cannot obtain. Included by common.smk.

import csv
import re

from geobayes.data.download import DataSourceError, resolve_mirror


def registry_files():
    """Regex-escaped relative paths of every registered data file (for wildcard constraints)."""
    with open(LIBRARY / "data" / "registry.tsv") as handle:
        return [re.escape(row["file"]) for row in csv.DictReader(handle, delimiter="\t")]


def download_patterns():
    """`registry_files`, and the files of the data sets known to be unavailable
    (geobayes.data.registry.UNAVAILABLE): asking for one of those runs `download`, which ends
    with one line saying how to add it."""
    from geobayes.data.registry import UNAVAILABLE, datasets

    unavailable = [re.escape(f) for item in UNAVAILABLE for f in item.files]
    unavailable += [f"{re.escape(item.dataset)}/.+" for item in UNAVAILABLE if item.dataset not in datasets()]
    return registry_files() + unavailable


def unavailable_offline(files):
    """Whether registered files are missing from the configured mirror (GEOBAYES_DATA_MIRROR or
    data.mirror): a run reading a mirror cannot fetch them, one without a mirror downloads them.
    A mirror setting that names no directory is not reported here, while the DAG is planned: the
    download jobs that need it end in one line naming the setting and the fix."""
    try:
        mirror = resolve_mirror(config["data"]["mirror"])
    except DataSourceError:
        return False
    return mirror is not None and not all((mirror / f).exists() for f in files)
