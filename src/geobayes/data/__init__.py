"""Data files: registry, checksummed download/mirror copy, and dataset preparation.

Every prepared data set is written by :func:`save_prepared` and read by :func:`load_prepared`
(one npz: the arrays, a format tag and metadata; see :mod:`geobayes.data.prepared`).

Typical use in a pipeline step::

    from geobayes.data import get_file, load_logreg_raw, obtain, verified

    obtain(get_file("logreg/ripley.npy"), "data/raw/logreg/ripley.npy", config_mirror=config["data"]["mirror"])
    features, labels = load_logreg_raw(verified("data/raw/logreg/ripley.npy"))

A registered raw file is read only through :func:`verified`, whoever put it there.
"""

from geobayes.data.digests import FileDigests, file_digests, git_blob_id
from geobayes.data.download import (
    MIRROR_CONFIG_KEY,
    MIRROR_ENV_VAR,
    ChecksumMismatchError,
    DataError,
    DataNotFoundError,
    DataSourceError,
    fetch,
    obtain,
    resolve_mirror,
    sha256_file,
)
from geobayes.data.errors import UnavailableDataError, exit_on_data_error
from geobayes.data.glm_subsets import (
    GlmSubset,
    prepare_glm_subset,
    regression_subset_size,
    subset_indices,
)
from geobayes.data.logistic_growth import (
    GROWTH_FILE,
    GrowthData,
    load_growth_csv,
)
from geobayes.data.logreg import (
    LOGREG_DATASETS,
    PreparedData,
    load_logreg_raw,
    prepare_logreg,
)
from geobayes.data.prepared import FORMAT, Prepared, dataset_spec, load_prepared, register_dataset, save_prepared
from geobayes.data.registry import (
    PINNED_UNMIRRORED,
    UNAVAILABLE,
    DataFile,
    UnavailableData,
    datasets,
    files_of,
    get_file,
    load_registry,
    registry_from_manifest,
    unavailable_of,
    write_registry,
)
from geobayes.data.synthetic_regression import (
    REGRESSION_FAMILIES,
    SyntheticRegression,
    simulate_regression,
)
from geobayes.data.verify import registered_name, verified
from geobayes.data.usps import (
    USPS_DIGITS,
    USPS_PIXELS,
    UspsSubset,
    load_usps,
    prepare_usps_subset,
    select_digits,
)

__all__ = [
    "MIRROR_CONFIG_KEY",
    "MIRROR_ENV_VAR",
    "LOGREG_DATASETS",
    "GROWTH_FILE",
    "REGRESSION_FAMILIES",
    "USPS_DIGITS",
    "USPS_PIXELS",
    "ChecksumMismatchError",
    "FileDigests",
    "file_digests",
    "git_blob_id",
    "DataError",
    "DataNotFoundError",
    "UnavailableDataError",
    "PINNED_UNMIRRORED",
    "UNAVAILABLE",
    "UnavailableData",
    "exit_on_data_error",
    "obtain",
    "registered_name",
    "unavailable_of",
    "verified",
    "FORMAT",
    "Prepared",
    "dataset_spec",
    "register_dataset",
    "DataFile",
    "DataSourceError",
    "GlmSubset",
    "GrowthData",
    "PreparedData",
    "SyntheticRegression",
    "UspsSubset",
    "datasets",
    "fetch",
    "files_of",
    "get_file",
    "load_growth_csv",
    "load_logreg_raw",
    "load_prepared",
    "load_registry",
    "load_usps",
    "prepare_glm_subset",
    "prepare_logreg",
    "prepare_usps_subset",
    "registry_from_manifest",
    "regression_subset_size",
    "resolve_mirror",
    "save_prepared",
    "select_digits",
    "sha256_file",
    "simulate_regression",
    "subset_indices",
    "write_registry",
]
