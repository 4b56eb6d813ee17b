"""Content digests a registered data file is checked against: sha256 and git blob ids.

Most registry rows pin a file by its size and sha256 (the shared mirror's ``MANIFEST.tsv``).
Some files are published only inside a git repository whose web host serves no checksum; they
are pinned by their git blob id, the SHA-1 of ``b"blob <size>\\0" + content`` that names the
file in the repository's tree (Liu & Zhu's ``benchmarks.mat`` and ``covertype.mat`` in
``changliu00/Riem-SVGD``). A blob id commits to the size too, so such a row needs no size.
"""

from __future__ import annotations

import hashlib
import os
from typing import NamedTuple

__all__ = ["FileDigests", "file_digests", "git_blob_id"]

_CHUNK = 1 << 16


class FileDigests(NamedTuple):
    """What a file's content hashes to.

    Attributes
    ----------
    sha256 : str
        Hex sha256 of the content.
    bytes : int
        Size in bytes.
    git_blob : str or None
        Hex git blob id (SHA-1 of ``blob <size>\\0<content>``), where it was computed.
    """

    sha256: str
    bytes: int
    git_blob: str | None = None


def git_blob_id(content: bytes) -> str:
    """The git blob id of ``content``: SHA-1 of ``b"blob <len>\\0" + content`` (``git hash-object``)."""
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()  # noqa: S324 - git's id, not security


def file_digests(path: str | os.PathLike[str], *, git_blob: bool = False) -> FileDigests:
    """Hash a file in one pass: its sha256, its size and, if asked, its git blob id.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    git_blob : bool, optional
        Also compute the git blob id (the size for its header comes from ``os.stat``).

    Returns
    -------
    FileDigests
        The digests.
    """
    sha = hashlib.sha256()
    blob = None
    with open(path, "rb") as handle:
        if git_blob:
            blob = hashlib.sha1(b"blob %d\0" % os.fstat(handle.fileno()).st_size)  # noqa: S324 - git's id
        size = 0
        while chunk := handle.read(_CHUNK):
            sha.update(chunk)
            if blob is not None:
                blob.update(chunk)
            size += len(chunk)
    return FileDigests(sha.hexdigest(), size, blob.hexdigest() if blob is not None else None)
