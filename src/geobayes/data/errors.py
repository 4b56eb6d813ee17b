"""Errors raised while obtaining or checking registered data files.

Each message is one line that names the file, says what went wrong (expected vs actual
checksum, or every source tried and its error) and, where the user can act, how to fix it.
Pipeline steps turn them into that line and a non-zero exit (:func:`exit_on_data_error`),
never into a traceback.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from typing import TextIO

__all__ = [
    "MIRROR_ENV_VAR",
    "MIRROR_CONFIG_KEY",
    "DataError",
    "DataSourceError",
    "ChecksumMismatchError",
    "DataNotFoundError",
    "UnavailableDataError",
    "exit_on_data_error",
]

#: Environment variable naming a mirror directory; it overrides the config key.
MIRROR_ENV_VAR = "GEOBAYES_DATA_MIRROR"
#: Config key naming a mirror directory.
MIRROR_CONFIG_KEY = "data.mirror"


class DataError(RuntimeError):
    """Base class of the errors raised while obtaining or checking data files."""


class DataSourceError(DataError):
    """The source could not deliver the file (mirror, HTTP status, timeout, cut body)."""


class ChecksumMismatchError(DataError):
    """The bytes do not match the registry's digest (sha256 and size, or git blob id).

    Attributes
    ----------
    file : str
        Registry path of the file.
    algorithm : str
        ``"sha256"`` or ``"git blob"`` (:mod:`geobayes.data.digests`): what was compared.
    expected_digest, actual_digest : str
        Expected (registry) and actual hex digests.
    expected_bytes : int or None
        Registry size (None where a git blob id alone pins the file).
    actual_bytes : int
        Actual size.
    source : str
        Where the bytes came from (URL, mirror path or local file).
    fix : str or None
        What the user can do about it, appended to the message.

    Notes
    -----
    A download stops reading once the expected size is exceeded, and the message says so;
    ``read_whole=True`` (a local file, hashed whole) leaves that remark out.
    """

    def __init__(
        self,
        file: str,
        *,
        expected_digest: str,
        actual_digest: str,
        expected_bytes: int | None,
        actual_bytes: int,
        source: str,
        algorithm: str = "sha256",
        fix: str | None = None,
        read_whole: bool = False,
    ) -> None:
        self.file = file
        self.algorithm = algorithm
        self.expected_digest = expected_digest
        self.actual_digest = actual_digest
        self.expected_bytes = expected_bytes
        self.actual_bytes = actual_bytes
        self.source = source
        self.fix = fix
        overrun = "; reading stopped once the expected size was exceeded"
        expected_size = f" ({expected_bytes} bytes)" if expected_bytes is not None else ""
        stopped = expected_bytes is not None and actual_bytes > expected_bytes and not read_whole
        super().__init__(
            f"checksum mismatch for {file} (from {source}): expected {algorithm} {expected_digest}{expected_size}, "
            f"got {algorithm} {actual_digest} ({actual_bytes} bytes"
            + (overrun if stopped else "")
            + ")"
            + (f". Fix: {fix}" if fix else "")
        )


class DataNotFoundError(DataSourceError):
    """No source delivered a registered file: the mirror (if any) and the pinned URL failed.

    Attributes
    ----------
    file : str
        Registry path of the file.
    destination : str
        Where the file was to be written (``data/raw/<file>`` in the pipeline).
    attempts : list of (str, str)
        Each source tried and why it failed, in order.
    expected : str
        What the file is checked against (``DataFile.checksum_text``: size and sha256, or git
        blob id), so a file placed by hand can be checked.
    """

    def __init__(
        self,
        file: str,
        *,
        destination: str | os.PathLike[str],
        attempts: Sequence[tuple[str, str]],
        expected: str,
    ) -> None:
        self.file = file
        self.destination = os.fspath(destination)
        self.attempts = list(attempts)
        self.expected = expected
        tried = "; ".join(f"{source}: {reason}" for source, reason in self.attempts)
        super().__init__(
            f"cannot obtain data file {file}. Tried {tried}. Fix: set {MIRROR_ENV_VAR} (or the "
            f"config key {MIRROR_CONFIG_KEY}) to a data mirror directory holding {file}, run where "
            f"the pinned URL can be reached, or place the file at {self.destination} yourself "
            f"({expected})"
        )


class UnavailableDataError(DataError, KeyError):
    """A data set the papers use that has no pinned source and is not in the data mirror.

    Also a :class:`KeyError`, like any unregistered name given to
    :func:`geobayes.data.get_file`.
    """

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


@contextlib.contextmanager
def exit_on_data_error(log: TextIO | None = None) -> Iterator[None]:
    """Turn a :class:`DataError` into its one-line message and a non-zero exit.

    For pipeline scripts: the message goes to ``log`` (the rule's log, if given) and, as
    the argument of :class:`SystemExit`, to the console; no traceback is printed.

    Parameters
    ----------
    log : text file or None, optional
        Open log the message is also written to.

    Raises
    ------
    SystemExit
        With ``"error: <message>"`` when the block raised a :class:`DataError`.
    """
    try:
        yield
    except DataError as error:
        message = f"error: {error}"
        if log is not None:
            print(message, file=log, flush=True)
        raise SystemExit(message) from None
