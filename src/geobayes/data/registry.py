"""Registry of the data files the pipeline uses.

``registry.tsv`` (packaged next to this module) lists, for every file: its dataset, its
path relative to the data directory, its size in bytes, its sha256 and the pinned URL it
is downloaded from. It is generated from the shared ``MANIFEST.tsv`` by
:func:`write_registry` and holds metadata only; the data files themselves are never
committed.
"""

from __future__ import annotations

import csv
import functools
import io
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from geobayes.data.errors import MIRROR_CONFIG_KEY, MIRROR_ENV_VAR, UnavailableDataError
from geobayes.io import atomic_path

__all__ = [
    "DataFile",
    "UnavailableData",
    "UNAVAILABLE",
    "PINNED_UNMIRRORED",
    "REGISTRY_COLUMNS",
    "load_registry",
    "get_file",
    "files_of",
    "datasets",
    "registry_from_manifest",
    "write_registry",
    "unavailable_of",
]

#: Data sets pinned in the registry beyond the mirror's manifest (its rows follow the manifest's): a
#: user with internet downloads them from the pinned URL, a run reading only a mirror without them
#: marks their artefacts unavailable offline. EMNIST ``digits`` test files (Bergamin et al. 2023,
#: Tables 9-10): NIST's bytes as Git LFS objects of ``aurelienduarte/emnist`` at commit 845f29ee (size
#: and sha256 from the LFS pointers; the same sha256 in Connor Olding's "mnists" loader). CIFAR-10
#: (Yu et al. 2023, Sec. 4.4): the official python archive from the authors' site, its size and the
#: sha256 Keras pins for it.
PINNED_UNMIRRORED = ("emnist", "cifar10", "splice", "covertype")

#: Columns of the packaged ``registry.tsv``, in order. ``git_blob`` is optional (absent from older
#: registries): a row pinned by its git blob id leaves ``bytes`` and ``sha256`` empty
#: (:mod:`geobayes.data.digests`). Liu & Zhu's (2018) ``benchmarks.mat`` (Splice) and
#: ``covertype.mat``: the copies in their code's repository ``changliu00/Riem-SVGD`` at commit
#: b76a87a7, which publishes no other checksum.
REGISTRY_COLUMNS = ("dataset", "file", "bytes", "sha256", "url", "git_blob")
_REQUIRED_COLUMNS = REGISTRY_COLUMNS[:5]


@dataclass(frozen=True)
class DataFile:
    """One registered data file.

    Attributes
    ----------
    dataset : str
        Dataset the file belongs to (e.g. ``"logreg"``).
    file : str
        Path relative to the data directory or mirror (e.g. ``"logreg/ripley.npy"``).
    bytes : int or None
        Exact size in bytes (None where only a git blob id pins the file).
    sha256 : str or None
        Lower-case hexadecimal sha256 of the content (None where only a git blob id pins it).
    url : str
        Pinned URL (a fixed commit) the file is downloaded from.
    git_blob : str or None
        Lower-case hexadecimal git blob id (:func:`geobayes.data.digests.git_blob_id`), if pinned by one.
    """

    dataset: str
    file: str
    bytes: int | None
    sha256: str | None
    url: str
    git_blob: str | None = None

    def __post_init__(self):
        if self.sha256 is None and self.git_blob is None:
            raise ValueError(f"{self.file}: a registry row needs a sha256 or a git_blob digest, it has neither")
        for name, length in (("sha256", 64), ("git_blob", 40)):
            value = getattr(self, name)
            if value is not None and (len(value) != length or any(c not in "0123456789abcdef" for c in value)):
                raise ValueError(f"{self.file}: {name} must be {length} lower-case hex digits, got {value!r}")

    @property
    def checksum_text(self) -> str:
        """What the file is checked against, for messages: ``"<bytes> bytes, sha256 <hex>"``, and/or
        ``"git blob <hex>"``."""
        parts = []
        if self.sha256 is not None:
            parts.append(f"{self.bytes} bytes, sha256 {self.sha256}" if self.bytes is not None
                         else f"sha256 {self.sha256}")
        if self.git_blob is not None:
            parts.append(f"git blob {self.git_blob}")
        return ", ".join(parts)


@dataclass(frozen=True)
class UnavailableData:
    """A data set (or some of its files) the papers use that no pinned source provides.

    Attributes
    ----------
    dataset : str
        Name, the first component of its files' paths (e.g. ``"splice"``).
    what : str
        What is missing, for the message.
    origin : str
        Where the data are published, if known.
    files : tuple of str
        Paths where the pipeline would look for it: the missing files of a registered data
        set (KMNIST's training images), or a path under another data set's layout
        (``logreg/microarray.npy``). Every path under ``dataset/`` is covered too when no
        file of ``dataset`` is registered.
    """

    dataset: str
    what: str
    origin: str
    files: tuple[str, ...] = ()


#: Data sets used by the papers that are neither in the shared data mirror nor pinned by URL
#: (the mirror's README, "Not included"). Asking the registry for them raises
#: :class:`~geobayes.data.errors.UnavailableDataError` with how to add them.
UNAVAILABLE: tuple[UnavailableData, ...] = (
    UnavailableData(
        "kmnist", "the KMNIST training images (Clanuwat et al. 2018)",
        "https://github.com/rois-codh/kmnist", files=("kmnist/train-images-idx3-ubyte.gz",)
    ),
    UnavailableData(
        "microarray", "the 90-row Microarray GLM data set of Hartmann et al. (2026, Table 1)",
        "none identified, the paper gives none", files=("logreg/microarray.npy",),
    ),
)


def unavailable_of(name: str) -> UnavailableData | None:
    """The :data:`UNAVAILABLE` entry covering a file path or data set name, if any.

    Parameters
    ----------
    name : str
        A file path relative to the data directory (``"splice/benchmarks.mat"``) or a data
        set name (``"splice"``).

    Returns
    -------
    UnavailableData or None
        The entry, or ``None`` when ``name`` is not known to be unavailable.
    """
    dataset = name.split("/", 1)[0]
    for item in UNAVAILABLE:
        if name in item.files or (item.dataset == dataset and dataset not in datasets()):
            return item
    return None


def _unavailable_error(name: str, item: UnavailableData) -> UnavailableDataError:
    return UnavailableDataError(
        f"{name}: not available: {item.what} has no pinned URL in geobayes/data/registry.tsv and "
        f"no copy in the data mirror (source: {item.origin}). Fix: obtain it, add it to a "
        f"data mirror ({MIRROR_ENV_VAR} or the config key {MIRROR_CONFIG_KEY}) with a MANIFEST.tsv "
        f"row (file, bytes, sha256, pinned_url) and regenerate the registry with "
        f"geobayes.data.write_registry; the pipeline uses registered, checksummed files only"
    )


def _parse(text: str, source: str) -> dict[str, DataFile]:
    reader = csv.DictReader(io.StringIO(text), delimiter="\t")
    missing = [c for c in _REQUIRED_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise ValueError(f"{source}: missing column(s) {missing}; found {reader.fieldnames}")
    entries: dict[str, DataFile] = {}
    for line, row in enumerate(reader, start=2):
        if row["file"] in entries:
            raise ValueError(f"{source}, line {line}: duplicate file {row['file']!r}")
        try:
            entries[row["file"]] = DataFile(
                dataset=row["dataset"],
                file=row["file"],
                bytes=int(row["bytes"]) if row["bytes"] else None,
                sha256=row["sha256"].lower() or None,
                url=row["url"],
                git_blob=(row.get("git_blob") or "").lower() or None,
            )
        except ValueError as error:
            raise ValueError(f"{source}, line {line}: {error}") from None
    return entries


@functools.cache
def _load_cached() -> dict[str, DataFile]:
    text = resources.files("geobayes.data").joinpath("registry.tsv").read_text(encoding="utf-8")
    return _parse(text, "geobayes/data/registry.tsv")


def load_registry() -> dict[str, DataFile]:
    """Read the packaged registry.

    Returns
    -------
    dict of str to DataFile
        Every registered file, keyed by its relative path ``file``, in registry order.
        The dictionary is a fresh copy; mutating it does not affect later calls.
    """
    return dict(_load_cached())


def datasets() -> list[str]:
    """Names of all registered datasets, sorted.

    Returns
    -------
    list of str
        Dataset names (the ``dataset`` column).
    """
    return sorted({entry.dataset for entry in _load_cached().values()})


def files_of(dataset: str) -> list[DataFile]:
    """All registered files of one dataset.

    Parameters
    ----------
    dataset : str
        Dataset name, e.g. ``"logreg"``.

    Returns
    -------
    list of DataFile
        The dataset's files in registry order.

    Raises
    ------
    KeyError
        If no file belongs to ``dataset``; the message lists the known datasets.
    UnavailableDataError
        (A ``KeyError``) if ``dataset`` is one of :data:`UNAVAILABLE`; the message says how
        to add it.
    """
    found = [entry for entry in _load_cached().values() if entry.dataset == dataset]
    if not found and (item := unavailable_of(dataset)) is not None:
        raise _unavailable_error(dataset, item)
    if not found:
        raise KeyError(f"unknown dataset {dataset!r}; known datasets: {', '.join(datasets())}")
    return found


def get_file(name: str) -> DataFile:
    """Look up one registered file by its relative path.

    Parameters
    ----------
    name : str
        Relative path as in the ``file`` column, e.g. ``"logreg/ripley.npy"``.

    Returns
    -------
    DataFile
        The registry entry.

    Raises
    ------
    KeyError
        If ``name`` is not registered. The message lists the known files of the dataset
        named by the first path component, or all datasets if that is unknown too.
    UnavailableDataError
        (A ``KeyError``) if ``name`` is a file of :data:`UNAVAILABLE`; the message says how
        to add it.
    """
    registry = _load_cached()
    if name in registry:
        return registry[name]
    if (item := unavailable_of(name)) is not None:
        raise _unavailable_error(name, item)
    dataset = name.split("/", 1)[0]
    known = [entry.file for entry in registry.values() if entry.dataset == dataset]
    if known:
        raise KeyError(
            f"unknown data file {name!r}; known files of dataset {dataset!r}: {', '.join(known)}"
        )
    raise KeyError(f"unknown data file {name!r}; known datasets: {', '.join(datasets())}")


def registry_from_manifest(manifest: str | os.PathLike[str]) -> list[DataFile]:
    """Build registry entries from the shared ``MANIFEST.tsv``.

    Parameters
    ----------
    manifest : str or os.PathLike
        Tab-separated manifest with (at least) the columns ``dataset``, ``file``,
        ``bytes``, ``sha256`` and ``pinned_url``.

    Returns
    -------
    list of DataFile
        One entry per manifest row, in manifest order.
    """
    with open(manifest, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [
        DataFile(
            dataset=row["dataset"],
            file=row["file"],
            bytes=int(row["bytes"]),
            sha256=row["sha256"].lower(),
            url=row["pinned_url"],
        )
        for row in rows
    ]


def write_registry(path: str | os.PathLike[str], entries: list[DataFile]) -> Path:
    """Atomically write registry entries as a tab-separated file.

    Parameters
    ----------
    path : str or os.PathLike
        Destination, normally ``src/geobayes/data/registry.tsv``.
    entries : list of DataFile
        Entries to write, e.g. from :func:`registry_from_manifest`.

    Returns
    -------
    pathlib.Path
        The destination path.
    """
    lines = ["\t".join(REGISTRY_COLUMNS)]
    lines += ["\t".join("" if v is None else str(v) for v in (e.dataset, e.file, e.bytes, e.sha256, e.url, e.git_blob))
              for e in entries]
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Path(path)
