"""Atomic file I/O and provenance records.

Every file the library writes goes through this module: the content is written to a
temporary file in the destination directory, flushed to disk (``fsync``) and moved into
place with ``os.replace``, so a reader never sees a half-written file and a failed write
leaves nothing behind (see ``docs/conventions.md``). A writer killed outright (SIGKILL,
power loss) cannot remove its hidden temporary file ``.<name>.<random>.tmp``; the next
write of the same destination does (one writer per destination at a time, as Snakemake
guarantees for its outputs).
"""

from __future__ import annotations

import contextlib
import glob
import importlib.metadata
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "atomic_path",
    "save_npz",
    "load_npz",
    "save_json",
    "load_json",
    "provenance",
]

#: Distributions whose versions are recorded by :func:`provenance`.
PROVENANCE_PACKAGES = (
    "geobayes",
    "jax",
    "jaxlib",
    "numpy",
    "scipy",
    "diffrax",
    "optimistix",
    "equinox",
    "numpyro",
    "POT",
)


def _current_umask() -> int:
    """The process umask (read by setting and restoring it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path that replaces ``path`` atomically on success.

    The temporary file lives in the same directory as ``path`` (so ``os.replace`` is an
    atomic rename on POSIX). Missing parent directories are created. If the ``with``
    block raises, the temporary file is removed and ``path`` is left untouched. On success
    the temporary file is fsynced before the rename and the directory after it, so the new
    file survives a crash whole. Temporaries of ``path`` that a killed writer left behind
    are deleted first.

    Parameters
    ----------
    path : str or os.PathLike
        Final destination of the file.

    Yields
    ------
    pathlib.Path
        Temporary path to write to. It exists (empty) when the block starts.

    Examples
    --------
    >>> with atomic_path("out/result.txt") as tmp:  # doctest: +SKIP
    ...     tmp.write_text("done")
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(path)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        # mkstemp creates 0600 files; give the result the usual umask-based mode.
        os.chmod(tmp, 0o666 & ~_current_umask())
        _fsync(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    _fsync(path.parent)  # make the rename itself durable


def _fsync(path: Path) -> None:
    """Flush a file's (or a directory's entries') data to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove_stale_temporaries(path: Path) -> None:
    """Delete temporary files that a killed writer of ``path`` left behind.

    Only names of the exact form ``atomic_path`` creates for this destination are removed
    (``.<name>.<8 random characters>.tmp``, the ``tempfile.mkstemp`` pattern).
    """
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        if pattern.fullmatch(stale.name):
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()


def save_npz(path: str | os.PathLike[str], **arrays: Any) -> Path:
    """Atomically save arrays to an uncompressed ``.npz`` file.

    Parameters
    ----------
    path : str or os.PathLike
        Destination file; written exactly at this path (no suffix is appended).
    **arrays : array_like
        Named arrays; anything ``numpy.asarray`` accepts (including JAX arrays).

    Returns
    -------
    pathlib.Path
        The destination path.
    """
    path = Path(path)
    converted = {name: np.asarray(value) for name, value in arrays.items()}
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez(handle, **converted)
    return path


def load_npz(path: str | os.PathLike[str], *, required=(), what: str = "data file") -> dict[str, np.ndarray]:
    """Load every array of an ``.npz`` file into a dictionary (no pickles allowed).

    Parameters
    ----------
    path : str or os.PathLike
        File written by :func:`save_npz` (or ``numpy.savez``).
    required : iterable of str
        Arrays the file must hold.
    what : str
        What the file should be, for the error message (e.g. ``"USPS subset file"``).

    Returns
    -------
    dict of str to numpy.ndarray
        The arrays, fully read into memory.

    Raises
    ------
    ValueError
        If a required array is missing: ``"<path>: not a <what>; missing [...]"``.
    """
    with np.load(Path(path), allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    missing = sorted(set(required) - set(arrays))
    if missing:
        raise ValueError(f"{path}: not a {what}; missing {missing}")
    return arrays


def _json_default(obj: Any) -> Any:
    """Convert numpy/JAX values and paths to JSON-serialisable Python objects."""
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if hasattr(obj, "__array__"):
        return np.asarray(obj).tolist()
    raise TypeError(f"object of type {type(obj).__name__} is not JSON serialisable: {obj!r}")


def save_json(path: str | os.PathLike[str], obj: Any) -> Path:
    """Atomically write ``obj`` as JSON (sorted keys, indent 2, trailing newline).

    Numpy scalars and arrays (and JAX arrays) become Python numbers and lists, paths
    become strings, sets become sorted lists.

    Parameters
    ----------
    path : str or os.PathLike
        Destination file.
    obj : object
        JSON-like object.

    Returns
    -------
    pathlib.Path
        The destination path.

    Raises
    ------
    TypeError
        If ``obj`` contains a value that cannot be converted; nothing is written then.
    """
    path = Path(path)
    text = json.dumps(obj, sort_keys=True, indent=2, default=_json_default) + "\n"
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return path


def load_json(path: str | os.PathLike[str]) -> Any:
    """Read a JSON file.

    Parameters
    ----------
    path : str or os.PathLike
        File to read (UTF-8).

    Returns
    -------
    object
        The decoded JSON value.
    """
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _jax_backend() -> str | None:
    """The default JAX backend of a process that uses JAX; ``None`` in one that never imported it.

    Importing JAX and starting its backend only to record it cost about 2 s of every job that
    computes without JAX (evaluations, floors, tables, figures): most of such a job.
    """
    if "jax" not in sys.modules:
        return None
    try:
        return sys.modules["jax"].default_backend()
    except Exception:  # noqa: BLE001 - provenance must never fail
        return None


def _git_commit() -> str | None:
    try:
        result = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = result.stdout.strip()
    return commit if result.returncode == 0 and commit else None


def provenance() -> dict[str, Any]:
    """Describe the software environment, for the JSON sidecar of every result.

    Returns
    -------
    dict
        ``python`` (version string), ``platform``, ``packages`` (a mapping from each
        name in :data:`PROVENANCE_PACKAGES` to its installed version or ``None``),
        ``jax_backend`` (``jax.default_backend()``, or ``None`` where the process never imported
        JAX) and ``git_commit``
        (``git rev-parse HEAD`` of the repository holding this package, or ``None``) and
        ``xla_flags`` (the ``XLA_FLAGS`` the process ran with, or ``None``).
    """
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": {name: _package_version(name) for name in PROVENANCE_PACKAGES},
        "jax_backend": _jax_backend(),
        "git_commit": _git_commit(),
        "xla_flags": os.environ.get("XLA_FLAGS"),
    }


def save_csv(frame, path: str | os.PathLike[str]) -> Path:
    """Atomically write ``frame`` as CSV without its index."""
    path = Path(path)
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)
    return path


def save_text(path: str | os.PathLike[str], text: str) -> Path:
    """Atomically write ``text`` (UTF-8), e.g. a LaTeX table."""
    path = Path(path)
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return path
