"""Data files: registry, checksummed download/mirror copy, and dataset preparation.

Typical use in a pipeline step::

    from geobayes.data import fetch, get_file, resolve_mirror

    entry = get_file("logreg/ripley.npy")
    fetch(entry, "data/logreg/ripley.npy", mirror=resolve_mirror(config["data"].get("mirror")))
"""

from geobayes.data.download import (
    MIRROR_CONFIG_KEY,
    MIRROR_ENV_VAR,
    ChecksumMismatchError,
    DataError,
    DataSourceError,
    fetch,
    resolve_mirror,
    sha256_file,
)
from geobayes.data.logreg import (
    LOGREG_DATASETS,
    PreparedData,
    load_logreg_raw,
    load_prepared,
    prepare_logreg,
    save_prepared,
)
from geobayes.data.registry import (
    DataFile,
    datasets,
    files_of,
    get_file,
    load_registry,
    registry_from_manifest,
    write_registry,
)

__all__ = [
    "MIRROR_CONFIG_KEY",
    "MIRROR_ENV_VAR",
    "LOGREG_DATASETS",
    "ChecksumMismatchError",
    "DataError",
    "DataFile",
    "DataSourceError",
    "PreparedData",
    "datasets",
    "fetch",
    "files_of",
    "get_file",
    "load_logreg_raw",
    "load_prepared",
    "load_registry",
    "prepare_logreg",
    "registry_from_manifest",
    "resolve_mirror",
    "save_prepared",
    "sha256_file",
    "write_registry",
]
