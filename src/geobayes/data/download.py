"""Fetch registered data files, from a local mirror or their pinned URL, with checksums.

Where there is internet the pipeline downloads each file from the pinned URL of its
registry entry; where there is not, it copies the file from a mirror directory laid out
like the registry's ``file`` column (``<mirror>/logreg/ripley.npy``). Either way the bytes
go to a temporary file next to the destination, the size and sha256 are checked against
the registry, and only then is the file moved into place with ``os.replace``. On any
error nothing is left at the destination.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from geobayes.data.errors import (
    MIRROR_CONFIG_KEY,
    MIRROR_ENV_VAR,
    ChecksumMismatchError,
    DataError,
    DataNotFoundError,
    DataSourceError,
)
from geobayes.data.digests import FileDigests, file_digests
from geobayes.data.registry import DataFile
from geobayes.io import atomic_path

# The error types live in geobayes.data.errors (and are exported by geobayes.data).
__all__ = ["resolve_mirror", "sha256_file", "fetch", "obtain", "require_registered_digest"]

_CHUNK = 1 << 16

#: Most bytes read for a file whose registry row pins no size (a git blob id alone): 16 GiB.
UNPINNED_SIZE_LIMIT = 1 << 34


def _size_limit(entry: DataFile) -> int:
    return entry.bytes if entry.bytes is not None else UNPINNED_SIZE_LIMIT


def resolve_mirror(config_mirror: str | os.PathLike[str] | None) -> Path | None:
    """Decide which local mirror directory, if any, to copy data files from.

    The environment variable ``GEOBAYES_DATA_MIRROR`` wins over the config key
    ``data.mirror``; empty values count as unset.

    Parameters
    ----------
    config_mirror : str or os.PathLike or None
        Value of the config key ``data.mirror`` (``None`` or ``""`` if not set).

    Returns
    -------
    pathlib.Path or None
        The mirror directory, or ``None`` to download from the pinned URLs.

    Raises
    ------
    DataSourceError
        If the chosen mirror is not an existing directory; the message names the
        environment variable or config key and the path.
    """
    env_value = os.environ.get(MIRROR_ENV_VAR, "")
    if env_value:
        value, setting = env_value, f"environment variable {MIRROR_ENV_VAR}"
    elif config_mirror:
        value, setting = os.fspath(config_mirror), f"config key {MIRROR_CONFIG_KEY}"
    else:
        return None
    mirror = Path(value).expanduser()
    if not mirror.is_dir():
        raise DataSourceError(
            f"data mirror set by {setting} is not a directory: {value!r} "
            f"(resolved to {mirror.resolve()})"
        )
    return mirror


def sha256_file(path: str | os.PathLike[str]) -> tuple[str, int]:
    """Hash a file in chunks.

    Parameters
    ----------
    path : str or os.PathLike
        File to hash.

    Returns
    -------
    tuple of (str, int)
        Hex sha256 digest and size in bytes.
    """
    digest, size = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def _copy_stream(source: BinaryIO, target: BinaryIO, limit: int) -> tuple[str, int]:
    """Copy in chunks while hashing; stop once more than ``limit`` bytes were read."""
    digest, size = hashlib.sha256(), 0
    while size <= limit and (chunk := source.read(_CHUNK)):
        digest.update(chunk)
        target.write(chunk)
        size += len(chunk)
    return digest.hexdigest(), size


@contextlib.contextmanager
def _open_mirror(entry: DataFile, mirror: Path) -> Iterator[BinaryIO]:
    source = Path(mirror) / entry.file
    if not source.is_file():
        raise DataSourceError(
            f"{entry.file}: not found in the data mirror {mirror} (looked for {source}); "
            f"the mirror is set by {MIRROR_ENV_VAR} or the config key {MIRROR_CONFIG_KEY}"
        )
    with open(source, "rb") as handle:
        yield handle


def _http_stream(
    entry: DataFile, response: http.client.HTTPResponse, target: BinaryIO, timeout: float
) -> tuple[str, int]:
    url = entry.url
    announced = response.headers.get("Content-Length")
    try:
        sha, size = _copy_stream(response, target, _size_limit(entry))
    except TimeoutError as exc:
        raise DataSourceError(
            f"{entry.file}: timed out after {timeout} s reading the body of {url} ({exc})"
        ) from exc
    except (http.client.HTTPException, OSError) as exc:
        raise DataSourceError(
            f"{entry.file}: connection to {url} failed mid-body: {exc!r}"
        ) from exc
    expected_total = int(announced) if announced is not None and announced.isdigit() else None
    if expected_total is not None and size <= _size_limit(entry) and size < expected_total:
        raise DataSourceError(
            f"{entry.file}: connection to {url} closed after {size} of {announced} bytes "
            "(incomplete body)"
        )
    return sha, size


def _download(entry: DataFile, target: BinaryIO, timeout: float) -> tuple[str, int]:
    url = entry.url
    request = urllib.request.Request(url, headers={"User-Agent": "geobayes-data-fetch"})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 - pinned URL
    except urllib.error.HTTPError as exc:
        exc.close()
        raise DataSourceError(f"{entry.file}: HTTP {exc.code} ({exc.reason}) for {url}") from exc
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, TimeoutError):
            raise DataSourceError(
                f"{entry.file}: timed out after {timeout} s connecting to {url}"
            ) from exc
        raise DataSourceError(f"{entry.file}: cannot reach {url}: {reason}") from exc
    except TimeoutError as exc:
        raise DataSourceError(
            f"{entry.file}: timed out after {timeout} s waiting for {url}"
        ) from exc
    except (http.client.HTTPException, OSError) as exc:
        raise DataSourceError(f"{entry.file}: request to {url} failed: {exc!r}") from exc
    with response:
        return _http_stream(entry, response, target, timeout)


def _matches(entry: DataFile, path: Path) -> bool:
    if not path.is_file() or (entry.bytes is not None and path.stat().st_size != entry.bytes):
        return False
    return _mismatch(entry, file_digests(path, git_blob=entry.git_blob is not None)) is None


def _mismatch(entry: DataFile, digests: FileDigests) -> tuple[str, str, str] | None:
    """``(algorithm, expected, actual)`` of the first registry digest ``digests`` fails, else None."""
    if entry.sha256 is not None and (digests.sha256 != entry.sha256 or digests.bytes != entry.bytes):
        return "sha256", entry.sha256, digests.sha256
    if entry.git_blob is not None and digests.git_blob != entry.git_blob:
        return "git blob", entry.git_blob, digests.git_blob
    return None


def fetch(
    entry: DataFile,
    destination: str | os.PathLike[str],
    *,
    mirror: str | os.PathLike[str] | None = None,
    timeout: float = 60.0,
) -> Path:
    """Obtain one registered file and verify its size and sha256.

    Copies ``mirror / entry.file`` when a mirror is given, otherwise streams
    ``entry.url`` over HTTP(S) with ``urllib`` (socket timeout ``timeout``). The bytes
    are written to a temporary file next to ``destination`` and moved into place only
    after the checks pass. If ``destination`` already holds the right content it is
    returned without fetching; a stale file with the wrong content is removed first.

    Parameters
    ----------
    entry : DataFile
        Registry entry (see :func:`geobayes.data.get_file`).
    destination : str or os.PathLike
        Path of the file to create; parent directories are created.
    mirror : str or os.PathLike or None, optional
        Local mirror directory (see :func:`resolve_mirror`); ``None`` downloads.
    timeout : float, optional
        Socket timeout in seconds for connecting and for each read (default 60).

    Returns
    -------
    pathlib.Path
        ``destination``.

    Raises
    ------
    DataSourceError
        Missing mirror file, HTTP error status, timeout or connection cut mid-body.
    ChecksumMismatchError
        The bytes do not match the registry's size or sha256.
    """
    destination = Path(destination)
    if _matches(entry, destination):
        return destination
    with contextlib.suppress(FileNotFoundError):
        destination.unlink()
    source = os.fspath(Path(mirror) / entry.file) if mirror is not None else entry.url
    with atomic_path(destination) as tmp:
        with open(tmp, "wb") as target:
            if mirror is not None:
                with _open_mirror(entry, Path(mirror)) as handle:
                    sha, size = _copy_stream(handle, target, _size_limit(entry))
            else:
                sha, size = _download(entry, target, timeout)
        # a git blob id hashes a header with the size first: computed once the whole file is here
        blob = file_digests(tmp, git_blob=True).git_blob if entry.git_blob is not None else None
        require_registered_digest(entry, FileDigests(sha, size, blob), source)
    return destination


def require_registered_digest(entry: DataFile, digests: FileDigests, source: str, *, fix: str | None = None,
                              read_whole: bool = False) -> None:
    """Raise :class:`ChecksumMismatchError` (naming ``source``, the algorithm, both digests and
    sizes and ``fix``) unless ``digests`` match every digest the registry pins for ``entry``
    (size and sha256; git blob id)."""
    failed = _mismatch(entry, digests)
    if failed is not None:
        algorithm, expected, actual = failed
        raise ChecksumMismatchError(entry.file, algorithm=algorithm, expected_digest=expected, actual_digest=actual,
                                    expected_bytes=entry.bytes, actual_bytes=digests.bytes, source=source, fix=fix,
                                    read_whole=read_whole)


def _reason(error: DataError, entry: DataFile) -> str:
    """An error's message without the file prefix or the URL the attempt already names."""
    return str(error).removeprefix(f"{entry.file}: ").replace(entry.url, "it")


def obtain(
    entry: DataFile,
    destination: str | os.PathLike[str],
    *,
    config_mirror: str | os.PathLike[str] | None = None,
    timeout: float = 60.0,
) -> str:
    """Obtain one registered file from the mirror, else from its pinned URL.

    What the ``download`` rule runs. The mirror is the one :func:`resolve_mirror` picks
    (``GEOBAYES_DATA_MIRROR``, else ``config_mirror``); when it is unset, is not a
    directory, lacks the file or holds a corrupt copy, the pinned URL is tried next. Each
    attempt is a :func:`fetch`: verified, atomic, nothing left behind on failure.

    Parameters
    ----------
    entry : DataFile
        Registry entry (see :func:`geobayes.data.get_file`).
    destination : str or os.PathLike
        Path of the file to create, normally ``data/raw/<entry.file>``.
    config_mirror : str or os.PathLike or None, optional
        Value of the config key ``data.mirror``.
    timeout : float, optional
        Socket timeout in seconds of the download (default 60).

    Returns
    -------
    str
        The source the file came from (mirror path or URL).

    Raises
    ------
    DataNotFoundError
        If every source failed; its one-line message lists each source with its error
        and says how to fix it (set the mirror, or place the file by hand, with the
        registry's size and sha256).
    """
    attempts: list[tuple[str, str]] = []
    try:
        mirror = resolve_mirror(config_mirror)
    except DataSourceError as error:
        mirror = None
        attempts.append(("the mirror", str(error)))
    else:
        if mirror is None:
            attempts.append(("the mirror", f"none set ({MIRROR_ENV_VAR} and {MIRROR_CONFIG_KEY} are empty)"))
    if mirror is not None:
        source = os.fspath(mirror / entry.file)
        if not (mirror / entry.file).is_file():
            attempts.append((f"mirror file {source}", "no such file"))
        else:
            try:
                fetch(entry, destination, mirror=mirror, timeout=timeout)
                return source
            except DataError as error:
                attempts.append((f"mirror file {source}", _reason(error, entry)))
    try:
        fetch(entry, destination, timeout=timeout)
        return entry.url
    except DataError as error:
        attempts.append((f"URL {entry.url}", _reason(error, entry)))
    raise DataNotFoundError(
        entry.file,
        destination=destination,
        attempts=attempts,
        expected=entry.checksum_text,
    )
