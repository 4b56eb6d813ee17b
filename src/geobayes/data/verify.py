"""Check a registered raw file against the registry before it is used.

The ``download`` rule verifies what it fetches, but ``data/raw/`` may also hold a file placed
by hand or left by an older run, and Snakemake takes an existing output as is. Every step
that reads a registered raw file therefore passes its path through :func:`verified` first;
the hash is computed once per process for each version (inode, size, mtime) of a file.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from geobayes.data.digests import FileDigests, file_digests
from geobayes.data.download import require_registered_digest
from geobayes.data.errors import MIRROR_CONFIG_KEY, MIRROR_ENV_VAR, DataSourceError
from geobayes.data.registry import DataFile, get_file, load_registry

__all__ = ["registered_name", "verified"]


def registered_name(path: str | os.PathLike[str]) -> str:
    """The registry file a local path holds, read from the end of the path.

    ``data/raw/logreg/ripley.npy`` and ``/mirror/logreg/ripley.npy`` both hold
    ``logreg/ripley.npy``: the longest registered ``file`` the path ends with.

    Parameters
    ----------
    path : str or os.PathLike
        Local path of a registered file.

    Returns
    -------
    str
        The registry ``file``.

    Raises
    ------
    KeyError
        If the path ends with no registered file.
    """
    parts = Path(path).parts
    for start in range(len(parts)):
        candidate = "/".join(parts[start:])
        if candidate in _registry_names():
            return candidate
    raise KeyError(f"{os.fspath(path)}: the path ends with no registered data file (see geobayes/data/registry.tsv)")


@functools.cache
def _registry_names() -> frozenset[str]:
    return frozenset(load_registry())


@functools.lru_cache(maxsize=None)
def _digest(path: str, inode: int, size: int, mtime_ns: int, git_blob: bool) -> FileDigests:
    """Digests of one version of a file (the stat fields are the cache key)."""
    del inode, size, mtime_ns
    return file_digests(path, git_blob=git_blob)


def _fix(entry: DataFile, path: str) -> str:
    return (
        f"delete {path} and rerun: the download rule then fetches it again from the data mirror "
        f"({MIRROR_ENV_VAR} or the config key {MIRROR_CONFIG_KEY}) or from {entry.url}; or copy the "
        f"mirror's {entry.file} over it"
    )


def verified(path: str | os.PathLike[str], file: str | None = None) -> Path:
    """Return ``path`` once its digests (size and sha256, or git blob id) match the registry entry it holds.

    Parameters
    ----------
    path : str or os.PathLike
        Local copy of a registered file (``data/raw/<file>`` in the pipeline).
    file : str or None, optional
        Registry ``file`` it holds; by default read from the end of ``path``
        (:func:`registered_name`).

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    ChecksumMismatchError
        If the content differs from the registry; the one-line message names the file, the
        expected and actual sha256 and sizes, and how to fix it.
    DataSourceError
        If ``path`` is not a file.
    KeyError
        If ``file`` (or the path's ending) is not registered.
    """
    entry = get_file(file if file is not None else registered_name(path))
    local = os.fspath(path)
    try:
        stat = os.stat(local)
    except FileNotFoundError:
        stat = None
    if stat is None or not Path(local).is_file():
        raise DataSourceError(
            f"{entry.file}: no file at {local}; run `snakemake {local}` to fetch it from the data mirror "
            f"({MIRROR_ENV_VAR} or the config key {MIRROR_CONFIG_KEY}) or {entry.url}"
        )
    digests = _digest(os.path.realpath(local), stat.st_ino, stat.st_size, stat.st_mtime_ns, entry.git_blob is not None)
    require_registered_digest(entry, digests, local, fix=_fix(entry, local), read_whole=True)
    return Path(path)
