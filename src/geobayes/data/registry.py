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

from geobayes.io import atomic_path

__all__ = [
    "DataFile",
    "REGISTRY_COLUMNS",
    "load_registry",
    "get_file",
    "files_of",
    "datasets",
    "registry_from_manifest",
    "write_registry",
]

#: Columns of the packaged ``registry.tsv``, in order.
REGISTRY_COLUMNS = ("dataset", "file", "bytes", "sha256", "url")


@dataclass(frozen=True)
class DataFile:
    """One registered data file.

    Attributes
    ----------
    dataset : str
        Dataset the file belongs to (e.g. ``"logreg"``).
    file : str
        Path relative to the data directory or mirror (e.g. ``"logreg/ripley.npy"``).
    bytes : int
        Exact size in bytes.
    sha256 : str
        Lower-case hexadecimal sha256 of the content.
    url : str
        Pinned URL (a fixed commit) the file is downloaded from.
    """

    dataset: str
    file: str
    bytes: int
    sha256: str
    url: str


def _parse(text: str, source: str) -> dict[str, DataFile]:
    reader = csv.DictReader(io.StringIO(text), delimiter="\t")
    missing = [c for c in REGISTRY_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise ValueError(f"{source}: missing column(s) {missing}; found {reader.fieldnames}")
    entries: dict[str, DataFile] = {}
    for line, row in enumerate(reader, start=2):
        if row["file"] in entries:
            raise ValueError(f"{source}, line {line}: duplicate file {row['file']!r}")
        entries[row["file"]] = DataFile(
            dataset=row["dataset"],
            file=row["file"],
            bytes=int(row["bytes"]),
            sha256=row["sha256"].lower(),
            url=row["url"],
        )
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
    """
    found = [entry for entry in _load_cached().values() if entry.dataset == dataset]
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
    """
    registry = _load_cached()
    if name in registry:
        return registry[name]
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
    lines += [f"{e.dataset}\t{e.file}\t{e.bytes}\t{e.sha256}\t{e.url}" for e in entries]
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Path(path)
